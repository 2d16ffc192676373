#if canImport(CCrypto)
    import CCrypto
    import Foundation

    /// CMS SignedData detached signatures as PAdES B-B wants them, made and checked
    /// by libcrypto (docs/pdf-signatures.md, "The CMS signature").
    enum CMSSignature {
        /// A detached SignedData over `content` by `identity` (SHA-256), DER: the signer's
        /// certificate and its chain embedded, signed attributes content-type, message-digest
        /// and ESS signing-certificate-v2, and no signing-time (PAdES puts the time in /M).
        /// - Throws: `PDFSigningError.crypto` when libcrypto fails.
        static func sign(_ content: [UInt8], identity: PDFSigningIdentity) throws(PDFSigningError) -> [UInt8] {
            let key = try identity.privateKey()
            defer { EVP_PKEY_free(key) }
            let certificates = try identity.certificates()
            defer { certificates.forEach { X509_free($0) } }
            _ = Libcrypto.errors()

            // CMS_CADES adds signing-certificate-v2; CMS_NOSMIMECAP leaves out S/MIME capabilities, which say nothing about a PDF.
            let flags = UInt32(CMS_DETACHED | CMS_BINARY | CMS_PARTIAL | CMS_NOSMIMECAP | CMS_CADES)
            guard let cms = CMS_sign(nil, nil, nil, nil, flags) else { throw Libcrypto.failure("start a CMS signature") }
            defer { CMS_ContentInfo_free(cms) }
            guard let signerInfo = CMS_add1_signer(cms, certificates[0], key, EVP_sha256(), flags) else {
                throw Libcrypto.failure("add the signer to the CMS signature")
            }
            for issuer in certificates.dropFirst() where CMS_add1_cert(cms, issuer) != 1 {
                throw Libcrypto.failure("add a chain certificate to the CMS signature")
            }
            try Libcrypto.withReadBIO(content) { (bio) throws(PDFSigningError) in
                guard CMS_final(cms, bio, nil, flags) == 1 else { throw Libcrypto.failure("sign the PDF's bytes") }
            }
            try removeSigningTime(signerInfo, key: key)
            guard CMS_SignerInfo_verify(signerInfo) == 1 else { throw Libcrypto.failure("verify the signature just made") }
            return try Libcrypto.der("encode the CMS signature") { i2d_CMS_ContentInfo(cms, $0) }
        }

        /// libcrypto's `CMS_SignerInfo_sign` always adds a signing-time attribute, which PAdES
        /// baseline signatures must not carry (docs/pdf-signatures.md, "The CMS signature"):
        /// it is removed and the signed attributes signed again here, over their DER as a SET
        /// OF sorted by encoding, the order libcrypto writes them in.
        static func removeSigningTime(_ signerInfo: OpaquePointer, key: OpaquePointer) throws(PDFSigningError) {
            let index = CMS_signed_get_attr_by_NID(signerInfo, NID_pkcs9_signingTime, -1)
            guard index >= 0 else { return }
            X509_ATTRIBUTE_free(CMS_signed_delete_attr(signerInfo, index))
            var encodings: [[UInt8]] = []
            for position in 0..<CMS_signed_get_attr_count(signerInfo) {
                guard let attribute = CMS_signed_get_attr(signerInfo, position) else { throw Libcrypto.failure("read a signed attribute") }
                encodings.append(try Libcrypto.der("encode a signed attribute") { i2d_X509_ATTRIBUTE(attribute, $0) })
            }
            encodings.sort { $0.lexicographicallyPrecedes($1) }
            let body = encodings.flatMap { $0 }
            let signedAttributes = [0x31] + derLength(body.count) + body
            let signature = try signSHA256(signedAttributes, key: key)
            guard let slot = CMS_SignerInfo_get0_signature(signerInfo), ASN1_STRING_set(slot, signature, Int32(signature.count)) == 1 else {
                throw Libcrypto.failure("store the signature")
            }
        }

        /// A DER length field.
        static func derLength(_ length: Int) -> [UInt8] {
            if length < 0x80 { return [UInt8(length)] }
            var octets: [UInt8] = []
            var rest = length
            while rest > 0 {
                octets.insert(UInt8(rest & 0xFF), at: 0)
                rest >>= 8
            }
            return [0x80 | UInt8(octets.count)] + octets
        }

        /// `key`'s signature of SHA-256(`message`): ECDSA as DER Ecdsa-Sig-Value, RSA PKCS #1 v1.5,
        /// as CMS has them.
        static func signSHA256(_ message: [UInt8], key: OpaquePointer) throws(PDFSigningError) -> [UInt8] {
            guard let context = EVP_MD_CTX_new() else { throw Libcrypto.failure("start a signature") }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { throw Libcrypto.failure("start a signature") }
            var length = 0
            guard message.withUnsafeBufferPointer({ EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) }) == 1 else {
                throw Libcrypto.failure("size a signature")
            }
            var signature = [UInt8](repeating: 0, count: length)
            guard message.withUnsafeBufferPointer({ EVP_DigestSign(context, &signature, &length, $0.baseAddress, $0.count) }) == 1 else {
                throw Libcrypto.failure("sign")
            }
            return Array(signature.prefix(length))
        }

        /// What a CMS signature over `content` shows when checked.
        struct Verification {
            /// The message-digest attribute equals the digest of `content`.
            var digestMatches: Bool
            /// The signed attributes' signature holds under the signer certificate's key.
            var signatureIsValid: Bool
            /// The signer's certificate, DER, and its subject's common name.
            var signerCertificate: [UInt8]
            var signerCommonName: String?
            /// A signing-certificate-v2 attribute is there and names the signer's certificate.
            var signingCertificateMatches: Bool
            /// A signing-time attribute is there (PAdES baseline signatures have none).
            var hasSigningTime: Bool
            /// The digest algorithm, as libcrypto names it (`SHA256`).
            var digestAlgorithm: String
        }

        /// Checks the one SignerInfo of a detached SignedData against `content`, with the
        /// certificate the signature carries (whether to trust it is the caller's question).
        /// - Throws: `PDFSigningError.crypto` for DER that is not such a signature.
        static func verify(_ der: [UInt8], content: [UInt8]) throws(PDFSigningError) -> Verification {
            _ = Libcrypto.errors()
            let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                var pointer = buffer.baseAddress
                return d2i_CMS_ContentInfo(nil, &pointer, buffer.count)
            }
            guard let cms = parsed else { throw Libcrypto.failure("read the CMS signature") }
            defer { CMS_ContentInfo_free(cms) }
            guard OBJ_obj2nid(CMS_get0_type(cms)) == NID_pkcs7_signed, let signerInfos = CMS_get0_SignerInfos(cms),
                OPENSSL_sk_num(signerInfos) == 1, let first = OPENSSL_sk_value(signerInfos, 0)
            else { throw .crypto(operation: "read the CMS signature", detail: "it is not SignedData with exactly one signer") }
            let signerInfo = OpaquePointer(first)
            _ = CMS_set1_signers_certs(cms, nil, 0)
            var signer: OpaquePointer?
            var digestAlgorithm: UnsafeMutablePointer<X509_ALGOR>?
            CMS_SignerInfo_get0_algs(signerInfo, nil, &signer, &digestAlgorithm, nil)
            guard let signer else { throw .crypto(operation: "find the signer's certificate", detail: "the signature does not carry it") }
            var algorithmObject: OpaquePointer?
            X509_ALGOR_get0(&algorithmObject, nil, nil, digestAlgorithm)
            let digestNID = OBJ_obj2nid(algorithmObject)
            guard digestNID != NID_undef else { throw .crypto(operation: "read the digest algorithm", detail: "not one libcrypto knows") }
            let digest = try Libcrypto.digest(content, nid: digestNID)
            let messageDigest = CMS_signed_get0_data_by_OBJ(signerInfo, OBJ_nid2obj(NID_pkcs9_messageDigest), -3, V_ASN1_OCTET_STRING)
                .map { value in
                    let octets = value.assumingMemoryBound(to: ASN1_STRING.self)
                    return Array(UnsafeBufferPointer(start: ASN1_STRING_get0_data(octets), count: Int(ASN1_STRING_length(octets))))
                }
            let signatureIsValid = CMS_SignerInfo_verify(signerInfo) == 1
            let signerCertificate = try Libcrypto.der("encode the signer's certificate") { i2d_X509(signer, $0) }
            let verification = Verification(
                digestMatches: messageDigest == digest, signatureIsValid: signatureIsValid, signerCertificate: signerCertificate,
                signerCommonName: Libcrypto.commonName(X509_get_subject_name(signer)),
                signingCertificateMatches: signingCertificateV2Matches(signerInfo, signer: signer),
                hasSigningTime: CMS_signed_get_attr_by_NID(signerInfo, NID_pkcs9_signingTime, -1) >= 0,
                digestAlgorithm: String(cString: OBJ_nid2sn(digestNID)))
            _ = Libcrypto.errors()
            return verification
        }

        /// True when the signing-certificate-v2 attribute is there and its first certificate
        /// identifier is the signer's certificate (libcrypto's own ESS check).
        static func signingCertificateV2Matches(_ signerInfo: OpaquePointer, signer: OpaquePointer) -> Bool {
            guard
                let value = CMS_signed_get0_data_by_OBJ(
                    signerInfo, OBJ_nid2obj(NID_id_smime_aa_signingCertificateV2), -3, V_ASN1_SEQUENCE)
            else { return false }
            let sequence = value.assumingMemoryBound(to: ASN1_STRING.self)
            var pointer = ASN1_STRING_get0_data(sequence)
            guard let attribute = d2i_ESS_SIGNING_CERT_V2(nil, &pointer, Int(ASN1_STRING_length(sequence))) else { return false }
            defer { ESS_SIGNING_CERT_V2_free(attribute) }
            guard let chain = OPENSSL_sk_new_null() else { return false }
            defer { OPENSSL_sk_free(chain) }
            guard OPENSSL_sk_push(chain, UnsafeRawPointer(signer)) > 0 else { return false }
            return OSSL_ESS_check_signing_certs(nil, attribute, chain, 1) == 1
        }
    }
#endif
