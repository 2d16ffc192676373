import Foundation

#if canImport(CCrypto)
    import CCrypto
#endif

/// The rules iOS holds a server certificate to before the app may talk to the station over
/// HTTPS, even a certificate the person installed and trusted on the phone (README, "A
/// certificate iPhones accept"). `coldtap serve` checks its certificate against them at start,
/// so a station every iPhone would refuse says so then, not through an app that only says the
/// station cannot be reached.
public enum ServerCertificateCheck {
    /// Where the rules and the openssl command that makes a certificate meeting them are.
    public static let readmeSection = "README.md, \"The station\" › \"A certificate iPhones accept\""
    /// The longest validity iOS takes, in days.
    public static let maximumDays = 825

    /// One rule the certificate breaks.
    public enum Problem: Sendable, Equatable, CustomStringConvertible {
        /// The PEM text holds no certificate libcrypto can read (what it said).
        case unreadable(String)
        /// No Subject Alternative Name: iOS never looks at the Common Name.
        case noSubjectAlternativeName
        /// The Subject Alternative Name lists `names` but not `host`, the address the station listens on.
        case hostNotNamed(host: String, names: [String])
        /// No Extended Key Usage at all, or one without serverAuth.
        case noServerAuthUsage(hasExtendedKeyUsage: Bool)
        /// Valid for more than `maximumDays`.
        case validTooLong(days: Int)
        case expired(Date)
        case notYetValid(Date)
        /// An RSA key shorter than 2048 bits.
        case shortRSAKey(bits: Int)
        /// Signed with SHA-1 or MD5.
        case weakSignatureDigest(String)

        public var description: String {
            switch self {
            case .unreadable(let detail):
                return "it cannot be read as a PEM certificate (\(detail))"
            case .noSubjectAlternativeName:
                return "it has no Subject Alternative Name; iOS does not look at the Common Name, so it matches no address"
            case .hostNotNamed(let host, let names):
                return "its Subject Alternative Name (\(names.joined(separator: ", "))) does not name \(host), the address the station listens on"
            case .noServerAuthUsage(hasExtendedKeyUsage: false):
                return "it has no Extended Key Usage; iOS wants one that includes serverAuth"
            case .noServerAuthUsage(hasExtendedKeyUsage: true):
                return "its Extended Key Usage does not include serverAuth"
            case .validTooLong(let days):
                return "it is valid for \(days) days; iOS takes at most \(ServerCertificateCheck.maximumDays)"
            case .expired(let date):
                return "it expired on \(date.isoUTCWholeSeconds)"
            case .notYetValid(let date):
                return "it is valid only from \(date.isoUTCWholeSeconds)"
            case .shortRSAKey(let bits):
                return "its RSA key has \(bits) bits; iOS wants at least 2048"
            case .weakSignatureDigest(let digest):
                return "it is signed with \(digest); iOS wants SHA-256 or stronger"
            }
        }
    }

    /// What the check found.
    public struct Report: Sendable, Equatable {
        /// False when this build has no libcrypto to read certificates with (Apple platforms).
        public var checked: Bool
        public var problems: [Problem]
        /// The Subject Alternative Name's entries as libcrypto prints them ("DNS:…", "IP Address:…").
        public var names: [String]
    }

    /// Checks the first certificate of `pem` (the station's own; its issuers may follow it).
    /// - Parameters:
    ///   - host: the address the station listens on; a wildcard address (`0.0.0.0`, `::`) or
    ///     `nil` names none, and then only a Subject Alternative Name is required.
    ///   - now: the clock the validity is checked against.
    public static func check(pem: String, host: String?, now: Date = Date()) -> Report {
        #if canImport(CCrypto)
            return checkWithLibcrypto(pem: pem, host: host.flatMap { isWildcard($0) ? nil : $0 }, now: now)
        #else
            return Report(checked: false, problems: [], names: [])
        #endif
    }

    /// The lines `coldtap serve` prints at start: a warning naming each broken rule and where
    /// the fix is, or the names the certificate covers when it meets every rule.
    public static func startLines(_ report: Report, certificateFile: String) -> [String] {
        guard report.checked else { return [] }
        if report.problems.isEmpty {
            return [
                "the HTTPS certificate (\(certificateFile)) meets the rules iPhones hold it to; the station's address in the app must be one of: \(report.names.joined(separator: ", "))."
            ]
        }
        return ["warning: iPhones will refuse the HTTPS certificate \(certificateFile), even when it is trusted on the phone:"]
            + report.problems.map { "  - \($0)" }
            + ["  Make one that meets the rules with the openssl command in \(readmeSection)."]
    }

    static func isWildcard(_ host: String) -> Bool {
        host.isEmpty || host == "0.0.0.0" || host == "::" || host == "[::]"
    }

    #if canImport(CCrypto)
        private static func checkWithLibcrypto(pem: String, host: String?, now: Date) -> Report {
            ERR_clear_error()
            let bytes = Array(pem.utf8)
            let certificate: OpaquePointer? = bytes.withUnsafeBytes { buffer in
                guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
                defer { BIO_free(bio) }
                return PEM_read_bio_X509(bio, nil, nil, nil)
            }
            guard let certificate else {
                let reason = ERR_reason_error_string(ERR_get_error()).map { String(cString: $0) } ?? "no certificate found"
                ERR_clear_error()
                return Report(checked: true, problems: [.unreadable(reason)], names: [])
            }
            defer { X509_free(certificate) }
            var problems: [Problem] = []

            let names = subjectAlternativeNames(certificate)
            if names.isEmpty {
                problems.append(.noSubjectAlternativeName)
            } else if let host, !covers(certificate, host: host) {
                problems.append(.hostNotNamed(host: host, names: names))
            }

            // X509_get_extension_flags caches the extensions it decodes; EXFLAG_XKUSAGE says an
            // Extended Key Usage is present (without one, the usage reads as "any").
            let hasUsage = X509_get_extension_flags(certificate) & UInt32(EXFLAG_XKUSAGE) != 0
            if !hasUsage || X509_get_extended_key_usage(certificate) & UInt32(XKU_SSL_SERVER) == 0 {
                problems.append(.noServerAuthUsage(hasExtendedKeyUsage: hasUsage))
            }

            if let start = date(X509_get0_notBefore(certificate)), let end = date(X509_get0_notAfter(certificate)) {
                let seconds = end.timeIntervalSince(start)
                if seconds > Double(maximumDays) * 86_400 {
                    problems.append(.validTooLong(days: Int((seconds / 86_400).rounded(.up))))
                }
                if end < now { problems.append(.expired(end)) }
                if start > now { problems.append(.notYetValid(start)) }
            }

            if let key = X509_get0_pubkey(certificate), EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA {
                let bits = Int(EVP_PKEY_get_bits(key))
                if bits < 2048 { problems.append(.shortRSAKey(bits: bits)) }
            }
            var digest: Int32 = 0
            if OBJ_find_sigid_algs(X509_get_signature_nid(certificate), &digest, nil) == 1, digest == NID_sha1 || digest == NID_md5 {
                problems.append(.weakSignatureDigest(digest == NID_sha1 ? "SHA-1" : "MD5"))
            }
            ERR_clear_error()
            return Report(checked: true, problems: problems, names: names)
        }

        /// The Subject Alternative Name's entries, as libcrypto prints the extension.
        private static func subjectAlternativeNames(_ certificate: OpaquePointer) -> [String] {
            let index = X509_get_ext_by_NID(certificate, NID_subject_alt_name, -1)
            guard index >= 0, let ext = X509_get_ext(certificate, index), let bio = BIO_new(BIO_s_mem()) else { return [] }
            defer { BIO_free(bio) }
            guard X509V3_EXT_print(bio, ext, 0, 0) == 1 else { return [] }
            var pointer: UnsafeMutablePointer<CChar>?
            // BIO_get_mem_data is a macro over BIO_ctrl(BIO_CTRL_INFO).
            let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &pointer)
            guard length > 0, let pointer else { return [] }
            let text = pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
                String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
            }
            return text.components(separatedBy: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        }

        /// True when the Subject Alternative Name names `host` (an IP address, or a DNS name
        /// with wildcards as TLS matches them); the Common Name is never looked at, as iOS does.
        private static func covers(_ certificate: OpaquePointer, host: String) -> Bool {
            let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            var address = [UInt8](repeating: 0, count: 16)
            if inet_pton(AF_INET, bare, &address) == 1 || inet_pton(AF_INET6, bare, &address) == 1 {
                return X509_check_ip_asc(certificate, bare, 0) == 1
            }
            return X509_check_host(certificate, bare, bare.utf8.count, UInt32(X509_CHECK_FLAG_NEVER_CHECK_SUBJECT), nil) == 1
        }

        private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
            guard let time else { return nil }
            var parts = tm()
            guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
            return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
        }
    #endif
}
