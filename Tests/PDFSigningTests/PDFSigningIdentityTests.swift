import Foundation
import Testing

@testable import PDFSigning

/// Loading an operator's PEM key and certificate, making the station's own self-signed
/// identity, and every refusal naming the file and what is wrong with it.
@Suite struct PDFSigningIdentityTests {
    #if os(Linux)
        @Test func aSelfSignedIdentityIsForSigningAndReadsBack() throws {
            let now = Date(timeIntervalSince1970: 1_780_000_000)
            let identity = try PDFSigningIdentity.selfSigned(commonName: "Station Nord", organization: "Cold Store Ltd", validity: 86400, now: now)
            #expect(identity.commonName == "Station Nord")
            #expect(identity.notBefore == now)
            #expect(identity.notAfter == now.addingTimeInterval(86400))
            #expect(identity.chain.isEmpty)
            #expect(identity.certificatePEM.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
            #expect(identity.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
            #expect(identity.certificateFingerprint.split(separator: ":").count == 32)
            // What it prints leaves the key out.
            #expect(!"\(identity)".contains("PRIVATE"))
            // Loaded back from its PEM text it is the same identity; loading also checks key usage.
            let loaded = try PDFSigningIdentity(
                keyPEM: Data(identity.privateKeyPEM.utf8), certificatePEM: Data(identity.certificatePEM.utf8), keySource: "k", certificateSource: "c")
            #expect(loaded == identity)
            // Two identities never share a key or a serial.
            let other = try PDFSigningIdentity.selfSigned(commonName: "Station Nord", validity: 86400, now: now)
            #expect(other.certificate != identity.certificate)
        }

        @Test func loadOrCreateMakesTheFilesOnceWithAPrivateKey() throws {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let key = folder.path("station/signing/key.pem")
            let certificate = folder.path("station/signing/certificate.pem")
            let made = try PDFSigningIdentity.loadOrCreate(keyFile: key, certificateFile: certificate, commonName: "ColdTap station")
            let attributes = try FileManager.default.attributesOfItem(atPath: key)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            #expect(made.commonName == "ColdTap station")
            let again = try PDFSigningIdentity.loadOrCreate(keyFile: key, certificateFile: certificate, commonName: "another name")
            #expect(again == made)
        }

        @Test func loadOrCreateRefusesHalfAPair() throws {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let key = folder.path("key.pem")
            let certificate = folder.path("certificate.pem")
            _ = try PDFSigningIdentity.loadOrCreate(keyFile: key, certificateFile: certificate, commonName: "ColdTap station")
            try FileManager.default.removeItem(atPath: certificate)
            #expect(throws: PDFSigningError.incompleteIdentity(existing: key, missing: certificate)) {
                try PDFSigningIdentity.loadOrCreate(keyFile: key, certificateFile: certificate, commonName: "ColdTap station")
            }
            // Nothing was made over the key that is there.
            #expect(!FileManager.default.fileExists(atPath: certificate))
        }

        @Test func aKeyOfAnotherCertificateIsRefused() throws {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let first = try PDFSigningIdentity.selfSigned(commonName: "first")
            let second = try PDFSigningIdentity.selfSigned(commonName: "second")
            try first.privateKeyPEM.write(toFile: folder.path("first-key.pem"), atomically: true, encoding: .utf8)
            try second.certificatePEM.write(toFile: folder.path("second-cert.pem"), atomically: true, encoding: .utf8)
            #expect(
                throws: PDFSigningError.keyDoesNotMatchCertificate(keySource: folder.path("first-key.pem"), certificateSource: folder.path("second-cert.pem"))
            ) {
                try PDFSigningIdentity.load(keyFile: folder.path("first-key.pem"), certificateFile: folder.path("second-cert.pem"))
            }
        }

        @Test func filesThatAreNotKeysOrCertificatesAreNamed() throws {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let identity = try PDFSigningIdentity.selfSigned(commonName: "station")
            let key = folder.path("key.pem")
            let certificate = folder.path("cert.pem")
            try identity.privateKeyPEM.write(toFile: key, atomically: true, encoding: .utf8)
            try identity.certificatePEM.write(toFile: certificate, atomically: true, encoding: .utf8)
            let garbage = folder.path("garbage.pem")
            try "-----BEGIN PRIVATE KEY-----\nnot base64 at all\n-----END PRIVATE KEY-----\n".write(toFile: garbage, atomically: true, encoding: .utf8)
            #expect(throws: PDFSigningError.file(path: folder.path("missing.pem"), problem: "does not exist")) {
                try PDFSigningIdentity.load(keyFile: folder.path("missing.pem"), certificateFile: certificate)
            }
            #expect(throws: PDFSigningError.invalidPrivateKey(source: garbage, problem: "it holds no PEM private key (-----BEGIN PRIVATE KEY-----)")) {
                try PDFSigningIdentity.load(keyFile: garbage, certificateFile: certificate)
            }
            // A key given where the certificate goes, and the other way round.
            #expect(throws: PDFSigningError.invalidCertificate(source: key, problem: "it holds no PEM certificate (-----BEGIN CERTIFICATE-----)")) {
                try PDFSigningIdentity.load(keyFile: key, certificateFile: key)
            }
            #expect(throws: PDFSigningError.invalidPrivateKey(source: certificate, problem: "it holds no PEM private key (-----BEGIN PRIVATE KEY-----)")) {
                try PDFSigningIdentity.load(keyFile: certificate, certificateFile: certificate)
            }
        }

        @Test func anOperatorsRSAKeyAndCertificateLoad() throws {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            try OpenSSL.selfSigned(
                key: folder.path("key.pem"), certificate: folder.path("cert.pem"), keyArguments: ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:3072"])
            let identity = try PDFSigningIdentity.load(keyFile: folder.path("key.pem"), certificateFile: folder.path("cert.pem"))
            #expect(identity.commonName == "Operator Test")
            #expect(identity.maximumSignatureSize == 384)
        }

        @Test func theChainAfterTheSignersCertificateIsKept() throws {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let signer = try PDFSigningIdentity.selfSigned(commonName: "signer")
            let issuer = try PDFSigningIdentity.selfSigned(commonName: "issuer")
            // The issuer given twice and the signer's own certificate again: each is kept once.
            try (signer.certificatePEM + issuer.certificatePEM + signer.certificatePEM + issuer.certificatePEM).write(
                toFile: folder.path("chain.pem"), atomically: true, encoding: .utf8)
            try signer.privateKeyPEM.write(toFile: folder.path("key.pem"), atomically: true, encoding: .utf8)
            let identity = try PDFSigningIdentity.load(keyFile: folder.path("key.pem"), certificateFile: folder.path("chain.pem"))
            #expect(identity.certificate == signer.certificate)
            #expect(identity.chain == [issuer.certificate])
            #expect(identity.certificatePEM == signer.certificatePEM + issuer.certificatePEM)
            // Both are embedded in the signature, which still names the signer's certificate.
            let signed = try PDFSigner(identity: identity).sign(
                SigningFixtures.onePagePDF(), reason: "report", name: nil, location: nil, contactInfo: nil, at: SigningFixtures.signingTime)
            let signature = try #require(try PDFSignatureCheck.signatures(in: signed).first)
            #expect(signature.isIntact && signature.signerCertificate == signer.certificate && signature.signingCertificateMatches)
        }

        @Test func keysAndCertificatesNoCheckerWouldAcceptAreRefused() throws {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            try OpenSSL.run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", folder.path("weak.pem")])
            try OpenSSL.run(["req", "-new", "-x509", "-key", folder.path("weak.pem"), "-out", folder.path("weak-cert.pem"), "-days", "3", "-subj", "/CN=weak"])
            #expect(
                throws: PDFSigningError.invalidPrivateKey(
                    source: folder.path("weak.pem"), problem: "an RSA key of 1024 bits is too weak; 2048 bits or more are needed")
            ) {
                try PDFSigningIdentity.load(keyFile: folder.path("weak.pem"), certificateFile: folder.path("weak-cert.pem"))
            }
            try OpenSSL.run([
                "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-aes-256-cbc", "-pass", "pass:secret", "-out",
                folder.path("encrypted.pem"),
            ])
            #expect(
                throws: PDFSigningError.invalidPrivateKey(
                    source: folder.path("encrypted.pem"), problem: "it is encrypted with a passphrase; an unencrypted PEM key is needed")
            ) {
                try PDFSigningIdentity.load(keyFile: folder.path("encrypted.pem"), certificateFile: folder.path("weak-cert.pem"))
            }
            try OpenSSL.selfSigned(
                key: folder.path("ca-key.pem"), certificate: folder.path("ca-cert.pem"),
                keyArguments: ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"],
                keyUsage: "critical,keyCertSign,cRLSign")
            #expect(
                throws: PDFSigningError.invalidCertificate(
                    source: folder.path("ca-cert.pem"), problem: "its key usage allows neither digitalSignature nor nonRepudiation")
            ) {
                try PDFSigningIdentity.load(keyFile: folder.path("ca-key.pem"), certificateFile: folder.path("ca-cert.pem"))
            }
            try OpenSSL.run(["genpkey", "-algorithm", "ED25519", "-out", folder.path("ed25519.pem")])
            try OpenSSL.run(["req", "-new", "-x509", "-key", folder.path("ed25519.pem"), "-out", folder.path("ed-cert.pem"), "-days", "3", "-subj", "/CN=ed"])
            #expect(throws: PDFSigningError.invalidPrivateKey(source: folder.path("ed25519.pem"), problem: "only EC and RSA keys are accepted")) {
                try PDFSigningIdentity.load(keyFile: folder.path("ed25519.pem"), certificateFile: folder.path("ed-cert.pem"))
            }
        }
    #else
        @Test func withoutLibcryptoNoIdentityIsMade() {
            #expect(throws: PDFSigningError.unavailableOnThisPlatform) { try PDFSigningIdentity.selfSigned(commonName: "station") }
        }
    #endif
}
