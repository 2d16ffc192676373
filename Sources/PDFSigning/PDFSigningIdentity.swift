import ColdTapBase
import Foundation

#if canImport(CCrypto)
    import CCrypto
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who signs: a private key and its X.509 certificate (with the issuers' certificates that
/// follow it in the same PEM file, embedded in every signature so that a checker can build the
/// path). Held as PEM text and DER bytes, so a value can go between threads; libcrypto reads
/// them again for each signature.
///
/// The self-signed identity a station makes for itself uses an EC P-256 key: a key made in
/// milliseconds (an RSA-3072 key can take a second or more on a small machine), a signature
/// of about 72 bytes and a certificate of about 500, and an algorithm every PAdES checker
/// and Adobe Reader accept. An operator's own key may be EC (any curve libcrypto knows) or RSA
/// of 2048 bits or more (docs/pdf-signatures.md, "Who signs").
public struct PDFSigningIdentity: Sendable, Equatable, CustomStringConvertible {
    /// The signer's certificate, DER.
    public let certificate: [UInt8]
    /// The certificates after it in its PEM file (issuers), DER, in file order, each once.
    public let chain: [[UInt8]]
    /// The certificate's subject common name, when it has one.
    public let commonName: String?
    /// The certificate's validity period.
    public let notBefore: Date
    public let notAfter: Date
    /// The private key as PKCS#8 PEM text: a secret, never printed (`description` leaves it out).
    let privateKeyPEM: String
    /// The most bytes one signature by this key takes.
    let maximumSignatureSize: Int

    /// How long a self-signed certificate is valid when no period is given: ten years, so a
    /// station's own certificate outlives the reports it signs for a long while.
    public static let defaultValidity: TimeInterval = 3650 * 86400

    /// The signer's certificate as PEM text (`-----BEGIN CERTIFICATE-----`), then its chain.
    public var certificatePEM: String {
        ([certificate] + chain).map { Self.pem($0, label: "CERTIFICATE") }.joined()
    }

    /// SHA-256 of the certificate's DER, as upper-case hex pairs joined by colons (the form
    /// certificate viewers show).
    public var certificateFingerprint: String {
        #if canImport(CCrypto)
            let digest = (try? Libcrypto.digest(certificate)) ?? []
        #else
            let digest: [UInt8] = []
        #endif
        return digest.hexString(separator: ":", uppercase: true)
    }

    public var description: String { "PDF signing identity \(commonName ?? "without a common name") (SHA-256 \(certificateFingerprint))" }

    static func pem(_ der: [UInt8], label: String) -> String {
        let base64 = Data(der).base64EncodedString()
        var lines: [Substring] = []
        var rest = Substring(base64)
        while !rest.isEmpty {
            lines.append(rest.prefix(64))
            rest = rest.dropFirst(64)
        }
        return "-----BEGIN \(label)-----\n" + lines.joined(separator: "\n") + "\n-----END \(label)-----\n"
    }

    /// The identity in a PEM private key file and a PEM certificate file (the signer's
    /// certificate first, issuers after it).
    /// - Throws: `PDFSigningError.file` for a file that cannot be read; `.invalidPrivateKey` /
    ///   `.invalidCertificate` naming the file and what is wrong (encrypted, not PEM, a key type
    ///   or size not accepted, a certificate not for signing); `.keyDoesNotMatchCertificate`;
    ///   `.unavailableOnThisPlatform` where libcrypto is missing.
    public static func load(keyFile: String, certificateFile: String) throws(PDFSigningError) -> PDFSigningIdentity {
        try PDFSigningIdentity(
            keyPEM: try readFile(keyFile), certificatePEM: try readFile(certificateFile), keySource: keyFile, certificateSource: certificateFile)
    }

    /// The identity in PEM text; `keySource` and `certificateSource` name where it came from in errors.
    /// - Throws: as `load(keyFile:certificateFile:)`, except for files.
    public init(keyPEM: Data, certificatePEM: Data, keySource: String, certificateSource: String) throws(PDFSigningError) {
        #if canImport(CCrypto)
            let key = try Self.readPrivateKey(keyPEM, source: keySource)
            defer { EVP_PKEY_free(key) }
            let certificates = try Self.readCertificates(certificatePEM, source: certificateSource)
            defer { certificates.forEach { X509_free($0) } }
            let signer = certificates[0]
            guard X509_check_private_key(signer, key) == 1 else {
                _ = Libcrypto.errors()
                throw .keyDoesNotMatchCertificate(keySource: keySource, certificateSource: certificateSource)
            }
            // Checkers refuse a signature whose certificate is not for signing: refused here, before any report is signed with it.
            let usage = X509_get_key_usage(signer)
            if usage != UInt32.max && usage & UInt32(KU_DIGITAL_SIGNATURE | KU_NON_REPUDIATION) == 0 {
                throw .invalidCertificate(source: certificateSource, problem: "its key usage allows neither digitalSignature nor nonRepudiation")
            }
            try self.init(key: key, certificates: certificates, source: certificateSource)
        #else
            throw .unavailableOnThisPlatform
        #endif
    }

    /// A new EC P-256 key and a self-signed X.509 v3 certificate for it: subject and issuer
    /// `CN=commonName[, O=organization]`, a random 127-bit serial, valid from `now` for
    /// `validity` seconds, key usage digitalSignature and nonRepudiation (critical), not a CA.
    /// - Throws: `PDFSigningError.crypto` when libcrypto fails; `.unavailableOnThisPlatform`.
    public static func selfSigned(
        commonName: String, organization: String? = nil, validity: TimeInterval = defaultValidity, now: Date = Date()
    ) throws(PDFSigningError) -> PDFSigningIdentity {
        #if canImport(CCrypto)
            guard validity > 0 else { throw .crypto(operation: "make a certificate valid for \(validity) seconds", detail: "") }
            let key = try generateP256Key()
            defer { EVP_PKEY_free(key) }
            guard let certificate = X509_new() else { throw Libcrypto.failure("make a certificate") }
            defer { X509_free(certificate) }
            var serial = [UInt8](repeating: 0, count: 16)
            guard RAND_bytes(&serial, 16) == 1 else { throw Libcrypto.failure("make a serial number") }
            serial[0] &= 0x7F  // positive, at most 20 octets (docs/pdf-signatures.md, "Who signs")
            guard let serialNumber = BN_bin2bn(serial, 16, nil) else { throw Libcrypto.failure("make a serial number") }
            defer { BN_free(serialNumber) }
            let start = time_t(now.timeIntervalSince1970.rounded(.down))
            let end = time_t((now.timeIntervalSince1970 + validity).rounded(.down))
            guard let subject = X509_NAME_new() else { throw Libcrypto.failure("make a name") }
            defer { X509_NAME_free(subject) }
            var named = X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_UTF8, commonName, -1, -1, 0) == 1
            if let organization { named = named && X509_NAME_add_entry_by_txt(subject, "O", MBSTRING_UTF8, organization, -1, -1, 0) == 1 }
            guard X509_set_version(certificate, 2) == 1, BN_to_ASN1_INTEGER(serialNumber, X509_get_serialNumber(certificate)) != nil,
                ASN1_TIME_set(X509_getm_notBefore(certificate), start) != nil, ASN1_TIME_set(X509_getm_notAfter(certificate), end) != nil,
                named, X509_set_subject_name(certificate, subject) == 1, X509_set_issuer_name(certificate, subject) == 1,
                X509_set_pubkey(certificate, key) == 1
            else { throw Libcrypto.failure("fill in the certificate") }
            var context = X509V3_CTX()
            X509V3_set_ctx(&context, certificate, certificate, nil, nil, 0)
            for (nid, value) in [
                (NID_basic_constraints, "critical,CA:FALSE"), (NID_key_usage, "critical,digitalSignature,nonRepudiation"),
                (NID_subject_key_identifier, "hash"),
            ] {
                guard let extensionValue = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                    throw Libcrypto.failure("make the certificate extension \(value)")
                }
                defer { X509_EXTENSION_free(extensionValue) }
                guard X509_add_ext(certificate, extensionValue, -1) == 1 else { throw Libcrypto.failure("add the certificate extension \(value)") }
            }
            guard X509_sign(certificate, key, EVP_sha256()) > 0 else { throw Libcrypto.failure("sign the certificate") }
            return try PDFSigningIdentity(key: key, certificates: [certificate], source: "the new certificate")
        #else
            throw .unavailableOnThisPlatform
        #endif
    }

    /// The identity in `keyFile` and `certificateFile`, made (a self-signed certificate for
    /// `commonName`, as `selfSigned`) and written there when neither exists: the key readable
    /// by its owner only (0600), both files made new (never over a file that appeared meanwhile),
    /// missing directories created.
    /// - Throws: `PDFSigningError.incompleteIdentity` when only one of the files exists; what
    ///   `load` and `selfSigned` throw; `.file` when a file cannot be written.
    public static func loadOrCreate(
        keyFile: String, certificateFile: String, commonName: String, organization: String? = nil
    ) throws(PDFSigningError) -> PDFSigningIdentity {
        let manager = FileManager.default
        switch (manager.fileExists(atPath: keyFile), manager.fileExists(atPath: certificateFile)) {
        case (true, true):
            return try load(keyFile: keyFile, certificateFile: certificateFile)
        case (true, false):
            throw .incompleteIdentity(existing: keyFile, missing: certificateFile)
        case (false, true):
            throw .incompleteIdentity(existing: certificateFile, missing: keyFile)
        case (false, false):
            let identity = try selfSigned(commonName: commonName, organization: organization)
            try writeNewFile(keyFile, contents: Data(identity.privateKeyPEM.utf8), permissions: 0o600)
            do {
                try writeNewFile(certificateFile, contents: Data(identity.certificatePEM.utf8), permissions: 0o644)
            } catch {
                // Without its certificate the key is of no use, and would block the next try.
                try? manager.removeItem(atPath: keyFile)
                throw error
            }
            return identity
        }
    }

    static func readFile(_ path: String) throws(PDFSigningError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .file(path: path, problem: FileManager.default.fileExists(atPath: path) ? "cannot be read (check its permissions)" : "does not exist")
        }
    }

    /// Writes a file that must not exist yet, with `permissions` from its creation on (so a
    /// key is never readable by others, not even for a moment).
    static func writeNewFile(_ path: String, contents: Data, permissions: mode_t) throws(PDFSigningError) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .file(path: directory.path, problem: "the directory cannot be made (\(error.localizedDescription))")
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, permissions)
        guard descriptor >= 0 else { throw .file(path: path, problem: "cannot be created: \(String(cString: strerror(errno)))") }
        var written = 0
        var problem: String?
        contents.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while written < buffer.count {
                let count = write(descriptor, base + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    problem = String(cString: strerror(errno))
                    return
                }
                written += count
            }
        }
        if problem == nil && fsync(descriptor) != 0 { problem = String(cString: strerror(errno)) }
        close(descriptor)
        if let problem {
            unlink(path)
            throw .file(path: path, problem: "cannot be written: \(problem)")
        }
    }
}

#if canImport(CCrypto)
    extension PDFSigningIdentity {
        /// The values of an identity from libcrypto's key and certificates (the signer's first).
        init(key: OpaquePointer, certificates: [OpaquePointer], source: String) throws(PDFSigningError) {
            let signer = certificates[0]
            self.certificate = try Libcrypto.der("encode the certificate") { i2d_X509(signer, $0) }
            var chain: [[UInt8]] = []
            for issuer in certificates.dropFirst() {
                let der = try Libcrypto.der("encode a certificate of the chain") { i2d_X509(issuer, $0) }
                // A certificate given twice is embedded once (libcrypto refuses to add it again).
                if der != certificate && !chain.contains(der) { chain.append(der) }
            }
            self.chain = chain
            self.commonName = Libcrypto.commonName(X509_get_subject_name(signer))
            guard let notBefore = Libcrypto.date(X509_get0_notBefore(signer)), let notAfter = Libcrypto.date(X509_get0_notAfter(signer)) else {
                throw .invalidCertificate(source: source, problem: "its validity period cannot be read")
            }
            self.notBefore = notBefore
            self.notAfter = notAfter
            let pem = try Libcrypto.writtenBytes("write the private key") { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
            self.privateKeyPEM = String(decoding: pem, as: UTF8.self)
            self.maximumSignatureSize = Int(EVP_PKEY_get_size(key))
        }

        /// A libcrypto key from this identity's PEM text (the caller frees it).
        func privateKey() throws(PDFSigningError) -> OpaquePointer {
            try Self.readPrivateKey(Data(privateKeyPEM.utf8), source: "the identity's key")
        }

        /// libcrypto certificates from this identity's DER, signer first (the caller frees them).
        func certificates() throws(PDFSigningError) -> [OpaquePointer] {
            var result: [OpaquePointer] = []
            for der in [certificate] + chain {
                let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                    var pointer = buffer.baseAddress
                    return d2i_X509(nil, &pointer, buffer.count)
                }
                guard let parsed else {
                    result.forEach { X509_free($0) }
                    throw Libcrypto.failure("read the identity's certificate")
                }
                result.append(parsed)
            }
            return result
        }

        static func generateP256Key() throws(PDFSigningError) -> OpaquePointer {
            guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { throw Libcrypto.failure("make an EC key") }
            defer { EVP_PKEY_CTX_free(context) }
            var key: OpaquePointer?
            guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
                EVP_PKEY_keygen(context, &key) == 1, let key
            else { throw Libcrypto.failure("make an EC P-256 key") }
            return key
        }

        /// A private key from PEM text: an unencrypted EC key, or an RSA key of 2048 bits or more.
        static func readPrivateKey(_ pem: Data, source: String) throws(PDFSigningError) -> OpaquePointer {
            let text = String(decoding: pem, as: UTF8.self)
            if text.contains("ENCRYPTED") {
                throw .invalidPrivateKey(source: source, problem: "it is encrypted with a passphrase; an unencrypted PEM key is needed")
            }
            let key = try Libcrypto.withReadBIO([UInt8](pem)) { (bio) throws(PDFSigningError) -> OpaquePointer? in
                // A callback that gives no passphrase, so libcrypto never asks on the terminal.
                PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
            }
            guard let key else {
                _ = Libcrypto.errors()
                throw .invalidPrivateKey(source: source, problem: "it holds no PEM private key (-----BEGIN PRIVATE KEY-----)")
            }
            switch EVP_PKEY_get_base_id(key) {
            case EVP_PKEY_EC:
                return key
            case EVP_PKEY_RSA where EVP_PKEY_get_bits(key) >= 2048:
                return key
            case EVP_PKEY_RSA:
                let bits = EVP_PKEY_get_bits(key)
                EVP_PKEY_free(key)
                throw .invalidPrivateKey(source: source, problem: "an RSA key of \(bits) bits is too weak; 2048 bits or more are needed")
            default:
                EVP_PKEY_free(key)
                throw .invalidPrivateKey(source: source, problem: "only EC and RSA keys are accepted")
            }
        }

        /// The certificates of a PEM file in order (at least one).
        static func readCertificates(_ pem: Data, source: String) throws(PDFSigningError) -> [OpaquePointer] {
            let certificates = try Libcrypto.withReadBIO([UInt8](pem)) { (bio) throws(PDFSigningError) -> [OpaquePointer] in
                var found: [OpaquePointer] = []
                while found.count < 16, let certificate = PEM_read_bio_X509(bio, nil, nil, nil) { found.append(certificate) }
                return found
            }
            // Reading stops at the end of the text with a "no start line" error: expected, dropped.
            _ = Libcrypto.errors()
            guard !certificates.isEmpty else {
                throw .invalidCertificate(source: source, problem: "it holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
            }
            return certificates
        }
    }
#endif
