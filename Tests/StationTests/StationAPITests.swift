import Archive
import ArchiveTestSupport
import ColdTapBase
import Foundation
import LoggerFormats
import Station
import StationTestSupport
import Testing

/// The whole API over loopback, on SQLite and on PostgreSQL.
@Suite("Station API", .serialized)
struct StationAPITests {
    @Test("upload, re-upload, loggers, samples, reports, acknowledgement", arguments: Engine.allCases)
    func wholeAPI(engine: Engine) async throws {
        try await withStation(engine) { station in
            let upload = try #require(station.tokens["north-upload"])
            let reader = try #require(station.tokens["north-read"])
            let reads = station.base.appendingPathComponent("api/v1/reads")
            let headers = [
                "Content-Type": "application/octet-stream", UploadHeader.readTime: Reads.readTime,
                UploadHeader.loggerID: "fridge-1", UploadHeader.source: "test phone",
            ]
            let first = try await request(reads, method: "POST", token: upload, headers: headers, body: try Reads.alarm())
            #expect(first.status == 201, "\(first.text)")
            let document = try first.json()
            #expect(
                Array((try JSONSerialization.jsonObject(with: first.body) as? [String: Any])?.keys.sorted() ?? [])
                    == ["conflicts", "duplicates", "logger", "newSamples", "read", "reasons", "verdict"])
            #expect(document["newSamples"] as? Int == 144)
            #expect(document["duplicates"] as? Int == 0)
            #expect(document["verdict"] as? String == "ALARM")
            #expect(!((document["reasons"] as? [String]) ?? []).isEmpty)
            let read = try #require(document["read"] as? [String: Any])
            #expect((read["origin"] as? String)?.contains("north") == true)
            #expect((document["logger"] as? [String: Any])?["id"] as? String == "fridge-1")

            // The same bytes again: 200 and the same read, nothing added.
            let before = try station.archive.fingerprint()
            let again = try await request(reads, method: "POST", token: upload, headers: headers, body: try Reads.alarm())
            #expect(again.status == 200, "\(again.text)")
            let againRead = try #require(try again.json()["read"] as? [String: Any])
            #expect(againRead["id"] as? Int == read["id"] as? Int)
            #expect(againRead["sha256"] as? String == read["sha256"] as? String)
            #expect(try station.archive.fingerprint() == before)

            // A later overlapping read stitches: duplicates counted.
            let later = try await request(reads, method: "POST", token: upload, headers: headers, body: try Reads.cold(first: 144, count: 72))
            #expect(later.status == 201, "\(later.text)")

            let list = try await request(station.base.appendingPathComponent("api/v1/loggers"), token: reader)
            #expect(list.status == 200)
            let loggers = try #require(try list.json()["loggers"] as? [[String: Any]])
            #expect(loggers.map { $0["id"] as? String } == ["fridge-1"])
            #expect(loggers.first?["reads"] as? Int == 2)

            let one = try await request(station.base.appendingPathComponent("api/v1/loggers/fridge-1"), token: reader)
            #expect(one.status == 200)
            #expect(try one.json()["lastVerdict"] as? String != nil)

            // Samples, paged with a Link header, JSON and CSV.
            var url = try #require(URL(string: "\(station.base)/api/v1/loggers/fridge-1/samples?limit=100"))
            var seen = 0
            var pages = 0
            while true {
                let page = try await request(url, token: reader)
                #expect(page.status == 200, "\(page.text)")
                seen += (try page.json()["samples"] as? [Any])?.count ?? 0
                pages += 1
                guard let link = page.header("Link") else { break }
                let target = try #require(link.split(separator: ">").first.map { String($0.dropFirst()) })
                url = try #require(URL(string: "\(station.base)\(target)"))
                if pages > 10 { break }
            }
            #expect(seen == 216)
            #expect(pages == 3)
            let csv = try await request(
                try #require(URL(string: "\(station.base)/api/v1/loggers/fridge-1/samples?from=2026-01-01T00:00:00Z&to=2026-01-01T01:00:00Z")),
                token: reader, headers: ["Accept": "text/csv"])
            #expect(csv.status == 200)
            #expect(csv.header("Content-Type")?.hasPrefix("text/csv") == true)
            #expect(csv.text.split(separator: "\r\n").count == 1 + 7)
            #expect(csv.text.hasPrefix("time,temperature_c,humidity_pct,flags,read\r\n2026-01-01T00:00:00Z,5,,,1\r\n"))

            // Reports in each kind.
            for (kind, magic) in [("pdf", "%PDF"), ("png", "\u{89}PNG"), ("svg", "<svg"), ("html", "<!DOCTYPE html")] {
                let report = try await request(station.base.appendingPathComponent("api/v1/loggers/fridge-1/report.\(kind)"), token: reader)
                #expect(report.status == 200, "\(kind): \(report.text.prefix(300))")
                let head = String(decoding: report.body.prefix(200), as: UTF8.self)
                let bytes = [UInt8](report.body.prefix(4))
                #expect(kind == "png" ? bytes == [0x89, 0x50, 0x4E, 0x47] : head.contains(magic), "\(kind) starts \(head.prefix(40))")
            }
            let badProfile = try await request(try #require(URL(string: "\(station.base)/api/v1/loggers/fridge-1/report.html?profile=nonsense")), token: reader)
            #expect(badProfile.status == 400, "\(badProfile.text)")

            // Acknowledging the excursion: with a read token refused, with an upload token kept.
            let ackURL = station.base.appendingPathComponent("api/v1/loggers/fridge-1/acknowledgements")
            let ackBody = Data(#"{"excursion": "2026-01-01T08:20:00Z", "by": "Dr Who", "comment": "moved the vaccines"}"#.utf8)
            let refused = try await request(ackURL, method: "POST", token: reader, headers: ["Content-Type": "application/json"], body: ackBody)
            #expect(refused.status == 403)
            let wrongStart = try await request(
                ackURL, method: "POST", token: upload, headers: ["Content-Type": "application/json"],
                body: Data(#"{"excursion": "2026-01-01T02:00:00Z", "by": "A", "comment": "B"}"#.utf8))
            #expect(wrongStart.status == 422, "\(wrongStart.text)")
            let ack = try await request(ackURL, method: "POST", token: upload, headers: ["Content-Type": "application/json"], body: ackBody)
            #expect(ack.status == 201, "\(ack.text)")
            let kept = try #require(try ack.json()["acknowledgement"] as? [String: Any])
            #expect(kept["excursionStart"] as? String == "2026-01-01T08:20:00Z")
            // The same excursion again: 409 saying who acknowledged it; "again": true records a follow-up.
            let twice = try await request(ackURL, method: "POST", token: upload, headers: ["Content-Type": "application/json"], body: ackBody)
            #expect(twice.status == 409 && twice.text.contains("Dr Who"), "\(twice.text)")
            let followUp = try await request(
                ackURL, method: "POST", token: upload, headers: ["Content-Type": "application/json"],
                body: Data(#"{"excursion": "2026-01-01T08:20:00Z", "by": "QA", "comment": "stock released", "again": true}"#.utf8))
            #expect(followUp.status == 201, "\(followUp.text)")
            #expect(kept["by"] as? String == "Dr Who")
        }
    }

    @Test("uploads at once share write transactions: each answered after its commit, a refused one alone rolled back", arguments: Engine.allCases)
    func concurrentUploads(engine: Engine) async throws {
        // The slow-client timeout of 3 s: uploads waiting for a handler are suspended, never timed out.
        try await withStation(engine) { station in
            let reads = station.base.appendingPathComponent("api/v1/reads")
            let north = try #require(station.tokens["north-upload"])
            let south = try #require(station.tokens["south-upload"])
            // South's logger first, so that north uploading it later is another site's (404).
            let southHeaders = [UploadHeader.readTime: Reads.readTime, UploadHeader.loggerID: "south-fridge"]
            #expect(try await request(reads, method: "POST", token: south, headers: southHeaders, body: try Reads.cold()).status == 201)
            let before = try station.archive.fingerprint()
            // 12 new loggers, each uploaded twice at once (one 201, one 200 with the same read),
            // and 6 uploads of south's logger by north (404), all at the same time.
            let answers = try await withThrowingTaskGroup(of: (String, Int, Int?).self) { group in
                for index in 0..<12 {
                    for _ in 0..<2 {
                        group.addTask {
                            let headers = [UploadHeader.readTime: Reads.readTime, UploadHeader.loggerID: "fridge-\(index)"]
                            let answer = try await request(reads, method: "POST", token: north, headers: headers, body: try Reads.cold(first: index))
                            return ("fridge-\(index)", answer.status, (try? answer.json()["read"] as? [String: Any])?["id"] as? Int)
                        }
                    }
                }
                for index in 0..<6 {
                    group.addTask {
                        let answer = try await request(reads, method: "POST", token: north, headers: southHeaders, body: try Reads.cold(first: 100 + index))
                        return ("south-fridge", answer.status, nil)
                    }
                }
                var all: [(String, Int, Int?)] = []
                for try await answer in group { all.append(answer) }
                return all
            }
            #expect(answers.filter { $0.0 == "south-fridge" }.allSatisfy { $0.1 == 404 })
            for index in 0..<12 {
                let mine = answers.filter { $0.0 == "fridge-\(index)" }
                #expect(mine.map(\.1).sorted() == [200, 201], "fridge-\(index): \(mine)")
                #expect(mine[0].2 != nil && mine[0].2 == mine[1].2, "the same read both times: \(mine)")
            }
            #expect(Set(answers.compactMap(\.2)).count == 12)
            #expect(try station.archive.fingerprint() != before)
            let verified = try await station.archive.verify()
            #expect(verified.problems.isEmpty, "\(verified.problems)")
            let opened = try station.archive.open()
            let listed = try opened.loggers()
            opened.close()
            #expect(listed.count == 13)
            #expect(listed.first { $0.logger.id == "south-fridge" }?.readCount == 1)
            // Every upload went through a write transaction; under load several share one.
            let metrics = try await request(station.base.appendingPathComponent("metrics"), token: station.tokens["operator"]).text
            func counter(_ name: String) -> Int? {
                metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ")[1]) }
            }
            let writes = try #require(counter("coldtap_upload_writes_total"))
            let transactions = try #require(counter("coldtap_upload_write_transactions_total"))
            // Another site's logger is refused before any write: 1 + 24 writes, not the 6 refused.
            #expect(writes == 25 && transactions >= 1 && transactions <= writes, "\(transactions) transactions for \(writes) uploads")
        }
    }

    @Test("tokens, scopes, revocation and site isolation", arguments: Engine.allCases)
    func tokensAndSites(engine: Engine) async throws {
        try await withStation(engine) { station in
            let reads = station.base.appendingPathComponent("api/v1/reads")
            let headers = [UploadHeader.readTime: Reads.readTime, UploadHeader.loggerID: "north-fridge"]
            let north = try #require(station.tokens["north-upload"])
            let south = try #require(station.tokens["south-upload"])
            #expect(try await request(reads, method: "POST", token: north, headers: headers, body: try Reads.cold()).status == 201)
            let logger = station.base.appendingPathComponent("api/v1/loggers/north-fridge")
            // No token, a bad one, a made-up one: 401.
            #expect(try await request(logger).status == 401)
            #expect(try await request(logger, headers: ["Authorization": "Basic Zm9vOmJhcg=="]).status == 401)
            #expect(try await request(logger, token: "ct_1_" + String(repeating: "0", count: 64)).status == 401)
            #expect(try await request(logger, token: north + "x").status == 401)
            // Another site's logger answers as an unknown one.
            let foreign = try await request(logger, token: south)
            #expect(foreign.status == 404)
            let unknown = try await request(station.base.appendingPathComponent("api/v1/loggers/nothing-here"), token: south)
            #expect(unknown.status == 404)
            #expect(try foreign.json()["error"] as? String == unknown.json()["error"] as? String)
            #expect(try await request(station.base.appendingPathComponent("api/v1/loggers/north-fridge/samples"), token: south).status == 404)
            let southList = try await request(station.base.appendingPathComponent("api/v1/loggers"), token: south)
            #expect((try southList.json()["loggers"] as? [Any])?.isEmpty == true)
            // South uploading north's logger is refused; nothing changes.
            let before = try station.archive.fingerprint()
            #expect(try await request(reads, method: "POST", token: south, headers: headers, body: try Reads.cold(first: 10)).status == 404)
            #expect(try station.archive.fingerprint() == before)
            // A read token cannot upload; metrics need the operator's token (a site's admin gets 403).
            #expect(try await request(reads, method: "POST", token: station.tokens["north-read"], headers: headers, body: try Reads.cold()).status == 403)
            #expect(try await request(station.base.appendingPathComponent("metrics"), token: north).status == 403)
            #expect(try await request(station.base.appendingPathComponent("metrics"), token: station.tokens["south-admin"]).status == 403)
            // The operator's token reaches no site's loggers.
            #expect(try await request(station.base.appendingPathComponent("api/v1/loggers"), token: station.tokens["operator"]).status == 403)
            let metrics = try await request(station.base.appendingPathComponent("metrics"), token: station.tokens["operator"])
            #expect(metrics.status == 200)
            #expect(metrics.text.contains("coldtap_http_requests_total{route=\"/api/v1/reads\",method=\"POST\",status=\"201\"} 1"))
            #expect(metrics.text.contains("coldtap_upload_duration_seconds_count"))
            #expect(metrics.text.contains("coldtap_archive_reads 1"))
            // Revoked: 401 from then on.
            let tokens = try station.archive.withStore { try $0.tokens() }
            #expect(tokens.count == 7)
            #expect(tokens.filter { $0.scope == .operator }.allSatisfy { $0.site == nil })
            let id = try #require(tokens.first { $0.site?.name == "north" && $0.scope == .upload }?.id)
            #expect(try station.archive.withStore { try $0.revokeToken(id: id) })
            #expect(try await request(logger, token: north).status == 401)
            #expect(try await request(logger, token: station.tokens["north-read"]).status == 200)
            // No log line holds a token.
            let lines = station.logLines.all
            #expect(lines.count > 10)
            #expect(!lines.contains { line in station.tokens.values.contains { line.contains($0) } })
            #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) is [String: Any] })
        }
    }

    /// Issue 44 item 5: a Flipper file cut short on its way (its header says 135 pages were
    /// read, it holds 6) is answered as cut off, with where, as the command line says it; the
    /// tag is not blamed and nothing is kept.
    @Test("a cut-off dump is named as cut off")
    func aCutOffDumpIsNamedAsCutOff() async throws {
        try await withStation(.sqlite) { station in
            let token = try #require(station.tokens["north-upload"])
            let before = try station.archive.fingerprint()
            let pages = ["04 11 22 BF", "33 44 55 66", "00 48 00 00", "E1 10 3E 00", "03 40 D1 01", "3C 54 02 65"]
            let header =
                "Filetype: Flipper NFC device\nVersion: 4\nDevice type: NTAG/Ultralight\nUID: 04 11 22 33 44 55 66\n"
                + "NTAG/Ultralight type: NTAG215\nPages total: 135\nPages read: 135\n"
            let file = header + pages.enumerated().map { "Page \($0.offset): \($0.element)\n" }.joined() + "Page 6: 6E 2D"
            let answer = try await request(
                station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: token,
                headers: ["Content-Type": "application/octet-stream", UploadHeader.readTime: Reads.readTime, UploadHeader.loggerID: "fridge-cut"],
                body: Data(file.utf8))
            #expect(answer.status == 422, "\(answer.text)")
            let detail = try answer.json()["detail"] as? String ?? ""
            #expect(
                detail.contains("the file is cut off: it ends inside line 14, after page 5 though its header says 135 pages were read"), "\(detail)")
            #expect(!detail.contains("refused") && !detail.contains("unread when it was made"), "\(detail)")
            #expect(try station.archive.fingerprint() == before)
        }
    }

    @Test("every error status, and the archive unchanged by each", arguments: Engine.allCases)
    func errorStatuses(engine: Engine) async throws {
        try await withStation(engine, maxBody: 4096) { station in
            let reads = station.base.appendingPathComponent("api/v1/reads")
            let token = try #require(station.tokens["north-upload"])
            let before = try station.archive.fingerprint()
            func expectStatus(
                _ status: Int, method: String = "POST", url: URL? = nil, headers: [String: String] = [:], body: Data?,
                _ comment: Comment
            ) async throws {
                let answer = try await request(url ?? reads, method: method, token: token, headers: headers, body: body)
                #expect(answer.status == status, comment)
                let object = try answer.json()
                #expect(object["error"] is String, comment)
                #expect(object["detail"] is String, comment)
            }
            try await expectStatus(400, headers: [UploadHeader.readTime: "yesterday"], body: try Reads.cold(), "bad read time")
            try await expectStatus(400, body: Data(), "empty body")
            try await expectStatus(413, body: Data(repeating: 0x41, count: 5000), "over --max-body")
            try await expectStatus(415, headers: ["Content-Type": "image/png"], body: try Reads.cold(), "not a read's type")
            try await expectStatus(422, headers: ["Content-Type": "application/octet-stream"], body: Data([0xD1, 0x01, 0x40]), "truncated NDEF")
            try await expectStatus(422, body: try Reads.cold(), "no logger id")
            try await expectStatus(422, body: Data("https://example.com/not-a-logger".utf8), "a URL that is no cuplTag")
            try await expectStatus(404, method: "GET", url: station.base.appendingPathComponent("api/v2/reads"), body: nil, "unknown path")
            try await expectStatus(405, method: "GET", body: nil, "GET on reads")
            try await expectStatus(
                404, url: station.base.appendingPathComponent("api/v1/loggers/x/acknowledgements"),
                headers: ["Content-Type": "application/json"], body: Data("{}".utf8), "an unknown logger's acknowledgement")
            try await expectStatus(
                401, method: "GET", url: station.base.appendingPathComponent("api/v1/loggers"),
                headers: ["Authorization": "Bearer nope"], body: nil, "bad token")
            #expect(try station.archive.fingerprint() == before)
        }
    }
}

/// HMAC loggers are checked with the secret kept on the station; phones never send it.
@Suite("Station logger secrets")
struct StationSecretTests {
    @Test("a cuplTag URL signed with HMAC-MD5 verifies once the station holds its secret")
    func loggerSecret() async throws {
        try await withStation(.sqlite) { station in
            let token = try #require(station.tokens["north-upload"])
            let encoder = CuplTagEncoder(variant: .temperatureOnly, serial: "CTSECRET", intervalMinutes: 10, secret: "k3y")
            func url(_ count: Int) throws -> Data { try Reads.cuplTagURL(encoder, count: count, wave: 7) }
            let reads = station.base.appendingPathComponent("api/v1/reads")
            let headers = ["Content-Type": "text/plain", UploadHeader.readTime: Reads.readTime]
            let unsigned = try await request(reads, method: "POST", token: token, headers: headers, body: try url(40))
            #expect(unsigned.status == 201, "\(unsigned.text)")
            let unsignedRead = try #require(try unsigned.json()["read"] as? [String: Any])
            #expect((unsignedRead["integrity"] as? String)?.hasPrefix("failed") == true, "\(unsignedRead)")
            let loggerID = try #require((try unsigned.json()["logger"] as? [String: Any])?["id"] as? String)
            try station.archive.withStore { try $0.setSecret("k3y", loggerID: loggerID) }
            let signed = try await request(reads, method: "POST", token: token, headers: headers, body: try url(50))
            #expect(signed.status == 201, "\(signed.text)")
            let signedRead = try #require(try signed.json()["read"] as? [String: Any])
            #expect(signedRead["integrity"] as? String == "verified (HMAC-MD5)", "\(signedRead)")
            #expect(!station.logLines.all.contains { $0.contains("k3y") })
        }
    }

    @Test("a logger named at its first upload keeps its record and its secret when later uploads do not name it", arguments: Engine.allCases)
    func namedLoggerKeepsItsRecord(engine: Engine) async throws {
        try await withStation(engine) { station in
            let token = try #require(station.tokens["north-upload"])
            let encoder = CuplTagEncoder(variant: .temperatureOnly, serial: "CTNAMED1", intervalMinutes: 10, secret: "s3cr")
            func url(_ count: Int) throws -> Data { try Reads.cuplTagURL(encoder, count: count, wave: 5) }
            let reads = station.base.appendingPathComponent("api/v1/reads")
            let headers = ["Content-Type": "text/plain", UploadHeader.readTime: Reads.readTime]
            let named = try await request(
                reads, method: "POST", token: token, headers: headers.merging([UploadHeader.loggerID: "fridge-9"]) { $1 },
                body: try url(40))
            #expect(named.status == 201, "\(named.text)")
            let firstRead = try #require(try named.json()["read"] as? [String: Any])
            try station.archive.withStore { try $0.setSecret("s3cr", loggerID: "fridge-9") }
            // The same bytes without the name: the same read of fridge-9, nothing added.
            let again = try await request(reads, method: "POST", token: token, headers: headers, body: try url(40))
            #expect(again.status == 200, "\(again.text)")
            #expect((try again.json()["read"] as? [String: Any])?["id"] as? Int == firstRead["id"] as? Int)
            // A new read without the name: fridge-9's record, checked with fridge-9's secret.
            let later = try await request(reads, method: "POST", token: token, headers: headers, body: try url(50))
            #expect(later.status == 201, "\(later.text)")
            #expect((try later.json()["logger"] as? [String: Any])?["id"] as? String == "fridge-9", "\(later.text)")
            #expect((try later.json()["read"] as? [String: Any])?["integrity"] as? String == "verified (HMAC-MD5)", "\(later.text)")
            let list = try await request(station.base.appendingPathComponent("api/v1/loggers"), token: token)
            #expect((try list.json()["loggers"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["fridge-9"], "\(list.text)")
        }
    }
}
