import Foundation
import Station
import Testing

/// The station's start-up check of its HTTPS certificate against the rules iOS holds server
/// certificates to, on certificates `openssl` makes for each test in a folder removed after it:
/// one that meets every rule, and one per broken rule.
@Suite struct ServerCertificateCheckTests {
    /// The README's command (README, "A certificate iPhones accept") with the given validity,
    /// key, digest and extensions; returns the certificate's PEM text.
    static func certificate(days: Int = 825, key: String = "rsa:2048", digest: String = "-sha256", extensions: [String]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-cert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "openssl", "req", "-x509", "-newkey", key, digest, "-days", "\(days)", "-nodes",
                "-keyout", folder.appendingPathComponent("key.pem").path, "-out", folder.appendingPathComponent("cert.pem").path,
                "-subj", "/CN=station.clinic.lan",
            ] + extensions.flatMap { ["-addext", $0] }
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "openssl req failed for \(extensions)")
        return try String(contentsOf: folder.appendingPathComponent("cert.pem"), encoding: .utf8)
    }

    static let names = "subjectAltName=DNS:station.clinic.lan,IP:192.168.1.20"
    static let serverAuth = "extendedKeyUsage=serverAuth"

    @Test func aCertificateMadeAsTheReadmeSaysMeetsEveryRule() throws {
        let pem = try Self.certificate(extensions: [Self.names, Self.serverAuth, "basicConstraints=critical,CA:TRUE"])
        for host in ["station.clinic.lan", "192.168.1.20", "0.0.0.0", "::"] {
            let report = ServerCertificateCheck.check(pem: pem, host: host)
            #expect(report.checked)
            #expect(report.problems == [], "listening on \(host)")
        }
        let report = ServerCertificateCheck.check(pem: pem, host: nil)
        #expect(report.names == ["DNS:station.clinic.lan", "IP Address:192.168.1.20"])
        let lines = ServerCertificateCheck.startLines(report, certificateFile: "cert.pem")
        #expect(lines.count == 1)
        #expect(lines[0].contains("DNS:station.clinic.lan, IP Address:192.168.1.20"))
    }

    @Test func noSubjectAlternativeNameIsNamed() throws {
        let report = ServerCertificateCheck.check(pem: try Self.certificate(extensions: [Self.serverAuth]), host: "0.0.0.0")
        #expect(report.problems == [.noSubjectAlternativeName])
    }

    @Test func aListeningAddressTheNamesLeaveOutIsNamed() throws {
        let pem = try Self.certificate(extensions: [Self.names, Self.serverAuth])
        let report = ServerCertificateCheck.check(pem: pem, host: "192.168.1.21")
        #expect(report.problems == [.hostNotNamed(host: "192.168.1.21", names: ["DNS:station.clinic.lan", "IP Address:192.168.1.20"])])
        // The Common Name alone never counts, as on iOS.
        let bare = try Self.certificate(extensions: ["subjectAltName=DNS:other.lan", Self.serverAuth])
        #expect(ServerCertificateCheck.check(pem: bare, host: "station.clinic.lan").problems.count == 1)
    }

    @Test func extendedKeyUsageWithoutServerAuthIsNamed() throws {
        let missing = try Self.certificate(extensions: [Self.names])
        #expect(ServerCertificateCheck.check(pem: missing, host: nil).problems == [.noServerAuthUsage(hasExtendedKeyUsage: false)])
        let clientOnly = try Self.certificate(extensions: [Self.names, "extendedKeyUsage=clientAuth"])
        #expect(ServerCertificateCheck.check(pem: clientOnly, host: nil).problems == [.noServerAuthUsage(hasExtendedKeyUsage: true)])
    }

    @Test func validityOver825DaysIsNamed() throws {
        let pem = try Self.certificate(days: 826, extensions: [Self.names, Self.serverAuth])
        #expect(ServerCertificateCheck.check(pem: pem, host: nil).problems == [.validTooLong(days: 826)])
    }

    @Test func anExpiredOrNotYetValidCertificateIsNamed() throws {
        let pem = try Self.certificate(days: 30, extensions: [Self.names, Self.serverAuth])
        let later = ServerCertificateCheck.check(pem: pem, host: nil, now: Date().addingTimeInterval(40 * 86_400))
        guard case .expired? = later.problems.first else {
            Issue.record("expected the certificate to have expired: \(later.problems)")
            return
        }
        let earlier = ServerCertificateCheck.check(pem: pem, host: nil, now: Date().addingTimeInterval(-86_400))
        guard case .notYetValid? = earlier.problems.first else {
            Issue.record("expected the certificate not to be valid yet: \(earlier.problems)")
            return
        }
    }

    @Test func aShortKeyAndASHA1SignatureAreNamed() throws {
        let pem = try Self.certificate(key: "rsa:1024", digest: "-sha1", extensions: [Self.names, Self.serverAuth])
        #expect(ServerCertificateCheck.check(pem: pem, host: nil).problems == [.shortRSAKey(bits: 1024), .weakSignatureDigest("SHA-1")])
    }

    @Test func theWarningNamesEachRuleAndTheReadmeSection() throws {
        let pem = try Self.certificate(days: 3650, extensions: ["basicConstraints=critical,CA:TRUE"])
        let report = ServerCertificateCheck.check(pem: pem, host: "0.0.0.0")
        #expect(report.problems == [.noSubjectAlternativeName, .noServerAuthUsage(hasExtendedKeyUsage: false), .validTooLong(days: 3650)])
        let lines = ServerCertificateCheck.startLines(report, certificateFile: "cert.pem")
        #expect(lines.first?.hasPrefix("warning: iPhones will refuse the HTTPS certificate cert.pem") == true)
        #expect(lines.count == 5)
        #expect(lines.last?.contains(ServerCertificateCheck.readmeSection) == true)
        #expect(lines.contains("  - it is valid for 3650 days; iOS takes at most 825"))
    }

    @Test func textThatHoldsNoCertificateIsNamedNotTrusted() {
        let report = ServerCertificateCheck.check(pem: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", host: nil)
        guard case .unreadable? = report.problems.first else {
            Issue.record("expected an unreadable certificate: \(report.problems)")
            return
        }
    }
}
