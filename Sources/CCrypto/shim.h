#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
// PDF signatures (PDFSigning): CMS SignedData, PEM keys and certificates, X.509 v3
// extensions, and libcrypto's error queue for the messages of what it refused.
#include <openssl/cms.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/err.h>
#include <openssl/ec.h>
#include <openssl/bio.h>
#include <openssl/ess.h>
