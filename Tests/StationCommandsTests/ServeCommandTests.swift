import ArchiveTestSupport
import ColdTapCommands
import CommandTestSupport
import Foundation
import Station
import StationTestSupport
import Testing

/// `coldtap serve` itself: run in-process, asked to stop as SIGTERM would.
@Suite("coldtap serve", .serialized)
struct ServeCommandTests {
    /// Starts `coldtap serve ARGS --listen 127.0.0.1:0`, waits for its "listening on" line,
    /// runs `body` with the URL, then stops it and returns what it wrote.
    func serving(_ arguments: [String], _ body: (String) async throws -> Void) async throws -> (status: Int32, err: String) {
        let console = Console.capturing()
        let task = Task { await ColdTap.main(["serve", "--listen", "127.0.0.1:0"] + arguments, console: console) }
        var url: String?
        for _ in 0..<200 where url == nil {
            try await Task.sleep(nanoseconds: 50_000_000)
            if let range = console.errorOutput.range(of: #"https?://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) {
                url = String(console.errorOutput[range])
            }
        }
        do {
            let found = try #require(url, "serve did not say where it listens: \(console.errorOutput)")
            try await body(found)
        } catch {
            ServeCommand.requestStop()
            _ = await task.value
            throw error
        }
        ServeCommand.requestStop()
        return (await task.value, console.errorOutput)
    }

    @Test("serves on an ephemeral port, logs JSON lines, stops when asked")
    func plainHTTP() async throws {
        let archive = try TestArchive(.sqlite)
        defer { archive.remove() }
        let result = try await serving(["--archive", archive.location]) { url in
            let health = try await request(try #require(URL(string: url + "/healthz")))
            #expect(health.status == 200)
        }
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.contains("\"route\":\"/healthz\",\"status\":200"))
        #expect(result.err.contains("coldtap serve: stopped."))
        // A SQLite archive's signing key is made next to it and said.
        #expect(result.err.contains("the record's checkpoints are signed with the key in \(archive.location).signing-key"), "\(result.err)")
        #expect(FileManager.default.fileExists(atPath: archive.location + ".signing-key"))
    }

    @Test("a PostgreSQL station signs with the key it is given, and says when it has none")
    func signingKeyForPostgreSQL() async throws {
        let archive = try TestArchive(.postgresql)
        defer { archive.remove() }
        let unsigned = try await serving(["--archive", archive.location]) { _ in }
        #expect(unsigned.err.contains("the record's checkpoints are not signed: name the archive's signing key with --signing-key FILE"), "\(unsigned.err)")
        let key = archive.path("station.signing-key")
        let signed = try await serving(["--archive", archive.location, "--signing-key", key]) { _ in }
        #expect(signed.status == 0, "\(signed.err)")
        #expect(signed.err.contains("signed with the key in \(key)"))
        #expect(FileManager.default.fileExists(atPath: key))
    }

    @Test("HTTPS through GnuTLS with --tls-cert and --tls-key")
    func https() async throws {
        let archive = try TestArchive(.sqlite)
        defer { archive.remove() }
        let key = archive.path("key.pem")
        let certificate = archive.path("cert.pem")
        let made = run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                "-days", "1", "-subj", "/CN=127.0.0.1",
            ])
        #expect(made.status == 0, "\(made.output)")
        let result = try await serving(["--archive", archive.location, "--tls-cert", certificate, "--tls-key", key]) { url in
            #expect(url.hasPrefix("https://"))
            let fetched = run("/usr/bin/curl", ["-s", "--cacert", certificate, url + "/healthz"])
            #expect(fetched.status == 0, "\(fetched.output)")
            #expect(fetched.output.contains("\"status\":\"ok\""))
            // Under TLS every answer asks browsers to keep to HTTPS.
            let head = run("/usr/bin/curl", ["-s", "-D", "-", "-o", "/dev/null", "--cacert", certificate, url + "/no-such-path"])
            #expect(head.output.lowercased().contains("strict-transport-security: max-age=31536000"), "\(head.output)")
            #expect(head.output.lowercased().contains("x-content-type-options: nosniff"), "\(head.output)")
            // Plain HTTP to the HTTPS port gets no HTTP answer.
            let plain = run("/usr/bin/curl", ["-s", "-m", "3", url.replacingOccurrences(of: "https://", with: "http://") + "/healthz"])
            #expect(!plain.output.contains("\"status\":\"ok\""))
        }
        #expect(result.status == 0, "\(result.err)")
        // That certificate (no Subject Alternative Name, no serverAuth) is one iPhones refuse: serve says so at start.
        #expect(result.err.contains("coldtap serve: warning: iPhones will refuse the HTTPS certificate \(certificate)"), "\(result.err)")
        #expect(result.err.contains("coldtap serve:   - it has no Subject Alternative Name"), "\(result.err)")
        #expect(result.err.contains("coldtap serve:   - it has no Extended Key Usage"), "\(result.err)")
        #expect(result.err.contains(ServerCertificateCheck.readmeSection), "\(result.err)")
        let bad = await coldtap(["serve", "--archive", archive.location, "--tls-cert", certificate])
        #expect(bad.status == 64)
    }

    @Test("usage errors")
    func usage() async throws {
        #expect(await coldtap(["serve", "--listen", "nowhere"]).status == 64)
        #expect(await coldtap(["serve", "--max-body", "-3"]).status == 64)
        let deadline = await coldtap(["serve", "--request-deadline", "9999"])
        #expect(deadline.status == 64 && deadline.err.contains("--request-deadline takes a number of seconds from 1 to 3600, not '9999'."), "\(deadline.err)")
        #expect(await coldtap(["serve", "--connections-per-address", "0"]).status == 64)
        let archive = try TestArchive(.sqlite)
        defer { archive.remove() }
        #expect(await coldtap(["token", "create", "--site", "x", "--scope", "root", "--archive", archive.location]).status == 64)
        #expect(!FileManager.default.fileExists(atPath: archive.location), "a usage error made the archive")
    }

    func run(_ program: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (-1, "\(program): \(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
