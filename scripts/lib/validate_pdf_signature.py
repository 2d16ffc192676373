"""Validates a PDF's signatures with pyHanko (test tooling only, never shipped).

pyHanko shares no code with ColdTap's PDFSigning (its own PDF reader, asn1crypto and
pyca/cryptography instead of libcrypto), so the Swift tests run it on the PDFs ColdTap signs
(docs/pdf-signatures.md, "Checking a signature").

Usage: validate_pdf_signature.py PDF TRUSTED-CERT.pem

Prints one JSON object: {"signatures": [...]} with, for each embedded signature, pyHanko's
verdict (intact, valid, trusted, coverage, bottom_line, the digest algorithm, the signer's
common name) and the signature dictionary's /Reason, /Name, /Location, /ContactInfo and /M;
a signature pyHanko could not validate at all has "error" instead. A PDF that pyHanko cannot
read prints {"error": "..."}. The exit status is 0 either way: the caller judges.
"""

import json
import sys
import warnings

# pyca/cryptography warns about DSA on import; the JSON on standard output is all that counts.
warnings.filterwarnings("ignore")

from pyhanko.keys import load_cert_from_pemder  # noqa: E402
from pyhanko.pdf_utils.reader import PdfFileReader  # noqa: E402
from pyhanko.sign.validation import validate_pdf_signature  # noqa: E402
from pyhanko_certvalidator import ValidationContext  # noqa: E402


def text(value):
    """A PDF string as text (pyHanko gives TextStringObject, a str), None when absent."""
    return None if value is None else str(value)


def check(embedded, context):
    sig = embedded.sig_object
    entry = {
        "field": embedded.field_name,
        "reason": text(sig.get("/Reason")),
        "name": text(sig.get("/Name")),
        "location": text(sig.get("/Location")),
        "contactInfo": text(sig.get("/ContactInfo")),
        "m": text(sig.get("/M")),
        "subFilter": text(sig.get("/SubFilter")),
    }
    try:
        status = validate_pdf_signature(embedded, signer_validation_context=context)
    except Exception as error:  # pyHanko's refusal, whatever its class, is the answer
        entry["error"] = f"{type(error).__name__}: {error}"
        return entry
    entry.update(
        intact=bool(status.intact),
        valid=bool(status.valid),
        trusted=bool(status.trusted),
        bottomLine=bool(status.bottom_line),
        coverage=status.coverage.name if status.coverage is not None else None,
        mdAlgorithm=status.md_algorithm,
        signerCommonName=status.signing_cert.subject.native.get("common_name"),
        summary=status.summary(),
    )
    return entry


def main(pdf_path, certificate_path):
    context = ValidationContext(trust_roots=[load_cert_from_pemder(certificate_path)])
    try:
        with open(pdf_path, "rb") as handle:
            reader = PdfFileReader(handle)
            signatures = [check(embedded, context) for embedded in reader.embedded_signatures]
    except Exception as error:
        print(json.dumps({"error": f"{type(error).__name__}: {error}"}))
        return
    print(json.dumps({"signatures": signatures}))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: validate_pdf_signature.py PDF TRUSTED-CERT.pem")
    main(sys.argv[1], sys.argv[2])
