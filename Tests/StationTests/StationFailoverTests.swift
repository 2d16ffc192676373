import Archive
import ArchiveKit
import ArchiveTestSupport
import ColdTapBase
import Digest
import Foundation
import Station
import StationClient
import StationTestSupport
import Testing
import TransparencyLog

/// A station on a PostgreSQL primary with a streaming standby, connected by a libpq
/// multi-host URI (docs/station-fleet.md): the primary is killed and the standby promoted
/// while uploads arrive. With synchronous replication nothing answered 201/200 is lost;
/// with asynchronous replication what the standby had not received is, and the station says so.
@Suite(.serialized) struct StationFailoverTests {
    /// The two clusters, the station's archive URI over both, and the files of the test.
    final class Pair {
        let primary: PostgresServer
        let standby: PostgresServer
        let folder: URL
        let token: String
        let signingKey: String
        static let database = "coldtap"

        init(synchronous: Bool) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-failover-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            primary = try PostgresServer.startPrivate()
            do {
                let admin = try PostgreSQLEngine(uri: primary.uri(database: "postgres"))
                try admin.execute("CREATE DATABASE \(Pair.database)")
                admin.close()
                // The archive, its site and token, made on the primary before the standby copies it.
                let archive = try Archive.open(primary.uri(database: Pair.database))
                defer { archive.close() }
                let store = try StationStore(archive: archive)
                token = try store.createToken(site: try store.addSite("north"), scope: .upload).token
                signingKey = folder.appendingPathComponent("signing-key").path
                _ = try RecordSigningKey.loadOrCreate(file: signingKey, origin: try archive.recordOrigin())
                standby = try PostgresServer.startStandby(of: primary)
            } catch {
                primary.stop()
                try? FileManager.default.removeItem(at: folder)
                throw error
            }
            let expected = synchronous ? "sync" : "async"
            if synchronous { try sql(primary, "ALTER SYSTEM SET synchronous_standby_names = '*'", "SELECT pg_reload_conf()") }
            try waitFor("the standby to stream (\(expected))") {
                try scalarText(primary, "SELECT string_agg(sync_state, ',') FROM pg_stat_replication") == expected
            }
        }

        /// Both servers, the primary first; libpq takes the one that accepts writes.
        var uri: String {
            let hosts = [primary.folder, standby.folder].map { $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0 }
            return "postgresql:///\(Pair.database)?host=\(hosts.joined(separator: ","))&user=postgres&target_session_attrs=read-write"
        }

        func stationConfiguration() -> Station.Configuration {
            var configuration = Station.Configuration(archive: uri)
            configuration.http.port = 0
            configuration.signingKey = signingKey
            return configuration
        }

        func stop() {
            standby.stop()
            primary.stop()
            try? FileManager.default.removeItem(at: folder)
        }

        /// The reads the standby holds, as "LOGGER SHA-256".
        func readsOnStandby() throws -> Set<String> {
            let engine = try PostgreSQLEngine(uri: standby.uri(database: Pair.database))
            defer { engine.close() }
            var kept = Set<String>()
            try engine.query("SELECT logger_id, raw_sha256 FROM reads", []) { kept.insert("\($0.text(0)) \($0.text(1))") }
            return kept
        }

        func verifyStandby(since note: String?) async throws -> VerifyReport {
            let archive = try Archive.open(standby.uri(database: Pair.database))
            defer { archive.close() }
            let key = try RecordSigningKey.load(file: signingKey).verifier
            return try await archive.verify(decoder: ArchivedReads.decoder, record: RecordCheck(keys: [key], since: note))
        }
    }

    static func sql(_ server: PostgresServer, _ statements: String...) throws {
        let engine = try PostgreSQLEngine(uri: server.uri(database: "postgres"))
        defer { engine.close() }
        for statement in statements { try engine.execute(statement, []) }
    }

    static func scalarText(_ server: PostgresServer, _ statement: String) throws -> String? {
        let engine = try PostgreSQLEngine(uri: server.uri(database: "postgres"))
        defer { engine.close() }
        return try engine.scalarText(statement)
    }

    struct Timeout: Error, CustomStringConvertible {
        var description: String
    }

    static func waitFor(_ what: String, seconds: Double = 60, _ done: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if (try? done()) == true { return }
            usleep(50_000)
        }
        throw Timeout(description: "waited \(Int(seconds)) s for \(what)")
    }

    /// Upload `index`: logger `failover-(index % 10)`, its reads a day each, six hours apart
    /// (each logger's temperatures its own, so that no two loggers' reads are the same bytes).
    static func upload(_ index: Int) throws -> PendingUpload {
        let first = (index / 10) * 36, logger = index % 10
        let temperatures = (first..<(first + 144)).map { ((4 + Double(logger) / 5 + sin(Double($0) / 10)) * 10).rounded() / 10 }
        return PendingUpload(
            raw: try Reads.generic(first: first, temperatures: temperatures), readTime: ISO8601Time.parse(Reads.readTime(first: first, count: 144)),
            loggerID: "failover-\(index % 10)")
    }

    static func key(_ upload: PendingUpload) -> String { "\(upload.loggerID ?? "") \(upload.sha256)" }

    /// What one upload of the burst was answered, and in which part of the run it was sent.
    struct Outcome: Sendable {
        var index: Int
        var status: Int
        var retryAfter: String?
        var afterPromotion: Bool
    }

    static func send(_ upload: PendingUpload, to station: Station, token: String) async throws -> Answer {
        var headers = ["Content-Type": "application/octet-stream", UploadHeader.loggerID: upload.loggerID ?? ""]
        if let readTime = upload.readTime { headers[UploadHeader.readTime] = readTime.isoUTCWholeSeconds }
        return try await request(
            URL(string: "http://127.0.0.1:\(station.port)/api/v1/reads")!, method: "POST", token: token, headers: headers, body: upload.raw)
    }

    @Test("synchronous standby: the primary killed mid-burst, the standby promoted; nothing answered 201/200 is lost")
    func synchronousFailover() async throws {
        let pair = try Pair(synchronous: true)
        defer { pair.stop() }
        let station = Station(configuration: pair.stationConfiguration(), logLine: { _ in })
        try station.start()
        defer { station.stop(grace: 2) }
        let client = StationClient(baseURL: URL(string: "http://127.0.0.1:\(station.port)")!, token: pair.token)
        let queue = try UploadQueue(directory: pair.folder.appendingPathComponent("queue"))

        // A phone's queue sends a few reads and holds the checkpoint that covers them.
        for index in 1000..<1003 { try queue.enqueue(try Self.upload(index)) }
        var flushed = await queue.flush(using: client)
        #expect(flushed.remaining == 0 && flushed.sent.count == 3, "\(String(describing: flushed.lastError))")
        let heldBefore = try #require(queue.heldCheckpoint(for: client))

        // 8 clients upload without pause while the primary dies and the standby takes over.
        let next = LockedValue(0)
        let promoted = LockedValue(false)
        let stop = LockedValue(false)
        let outcomes = LockedValue<[Outcome]>([])
        let token = pair.token
        let clients = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        while !stop.withLock({ $0 }) {
                            let index = next.withLock { value -> Int in
                                defer { value += 1 }
                                return value
                            }
                            let wasPromoted = promoted.withLock { $0 }
                            let answer = try await Self.send(try Self.upload(index), to: station, token: token)
                            outcomes.withLock {
                                $0.append(
                                    Outcome(index: index, status: answer.status, retryAfter: answer.header("Retry-After"), afterPromotion: wasPromoted))
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        func answered(_ matching: (Outcome) -> Bool) -> Int { outcomes.withLock { $0.filter(matching).count } }
        try Self.waitFor("40 uploads kept before the failover") { answered { $0.status == 201 } >= 40 }
        let signed = try await request(URL(string: "http://127.0.0.1:\(station.port)/api/v1/checkpoint")!, token: token)
        let signedBefore = try #require(try signed.json()["checkpoint"] as? String, "\(signed.text)")
        try pair.primary.crash()
        // While no server takes writes: the queue keeps what it cannot send.
        for index in 2000..<2005 { try queue.enqueue(try Self.upload(index)) }
        flushed = await queue.flush(using: client)
        #expect(flushed.remaining == 5)
        if case .refused(let status, _, _)? = flushed.lastError {
            #expect(status == 503)
        } else {
            Issue.record("the queue's flush during the outage: \(String(describing: flushed.lastError))")
        }
        try Self.waitFor("a 503 during the outage") { answered { $0.status == 503 } >= 1 }
        try pair.standby.promote()
        promoted.withLock { $0 = true }
        try Self.waitFor("40 uploads kept after the promotion") { answered { $0.afterPromotion && $0.status == 201 } >= 40 }
        stop.withLock { $0 = true }
        try await clients.value

        // Only 201, 200 and 503 with Retry-After; every 201/200 is on the promoted server.
        let all = outcomes.withLock { $0 }
        for outcome in all {
            #expect([200, 201, 503].contains(outcome.status), "upload \(outcome.index) answered \(outcome.status)")
            if outcome.status == 503 { #expect(outcome.retryAfter != nil, "a 503 without Retry-After") }
        }
        let kept = try pair.readsOnStandby()
        for outcome in all where outcome.status == 201 || outcome.status == 200 {
            #expect(kept.contains(Self.key(try Self.upload(outcome.index))), "upload \(outcome.index) was answered \(outcome.status) and is not kept")
        }
        // The uploads answered 503 are sent again, as a client does: each is kept now (or was).
        for outcome in all where outcome.status == 503 {
            let again = try await Self.send(try Self.upload(outcome.index), to: station, token: token)
            #expect(again.status == 201 || again.status == 200, "upload \(outcome.index) sent again: \(again.status) \(again.text)")
        }
        // The queue sends the rest, and the station proves its record still holds the checkpoint held.
        flushed = await queue.drain(using: client, attempts: 10, backoff: 0.2)
        #expect(flushed.remaining == 0, "\(String(describing: flushed.lastError))")
        #expect(flushed.lastError == nil)
        #expect((flushed.witnessed?.treeSize ?? 0) > heldBefore.treeSize)
        let expected = Set(try all.map { Self.key(try Self.upload($0.index)) } + (1000..<1003).map { Self.key(try Self.upload($0)) })
            .union(try (2000..<2005).map { Self.key(try Self.upload($0)) })
        #expect(try pair.readsOnStandby() == expected)
        let report = try await pair.verifyStandby(since: signedBefore)
        #expect(report.problems.isEmpty, "\(report.problems)")
    }

    @Test("asynchronous standby: what it had not received is lost at failover, the station stops signing, witnesses refuse the new record")
    func asynchronousFailover() async throws {
        let pair = try Pair(synchronous: false)
        defer { pair.stop() }
        let log = LockedLines()
        var station = Station(configuration: pair.stationConfiguration(), logLine: { log.append($0) })
        try station.start()
        defer { station.stop(grace: 2) }
        let client = StationClient(baseURL: URL(string: "http://127.0.0.1:\(station.port)")!, token: pair.token)
        let queue = try UploadQueue(directory: pair.folder.appendingPathComponent("queue"))

        for index in 0..<10 { #expect(try await Self.send(try Self.upload(index), to: station, token: pair.token).status == 201) }
        try Self.waitFor("the standby to replay the first reads") { try pair.readsOnStandby().count == 10 }
        // The standby stops receiving (a network cut); the primary goes on alone and answers 201.
        try Self.sql(pair.standby, "ALTER SYSTEM SET primary_conninfo = ''", "SELECT pg_reload_conf()")
        try Self.waitFor("the standby to stop streaming") { try Self.scalarText(pair.primary, "SELECT COUNT(*) FROM pg_stat_replication") == "0" }
        for index in 10..<20 { #expect(try await Self.send(try Self.upload(index), to: station, token: pair.token).status == 201) }
        for index in 20..<22 { try queue.enqueue(try Self.upload(index)) }
        var flushed = await queue.flush(using: client)
        #expect(flushed.sent.count == 2)
        let held = try #require(queue.heldCheckpoint(for: client))
        try pair.primary.crash()
        try pair.standby.promote()

        // Lost: the reads answered 201 after the standby stopped receiving.
        let kept = try pair.readsOnStandby()
        #expect(kept == Set(try (0..<10).map { Self.key(try Self.upload($0)) }), "kept on the promoted standby: \(kept.count)")
        // Uploads go on (the station reconnects to the promoted standby) ...
        var resumed: Answer?
        for _ in 0..<100 {
            let answer = try await Self.send(try Self.upload(30), to: station, token: pair.token)
            #expect([201, 503].contains(answer.status), "\(answer.status) \(answer.text)")
            if answer.status == 201 {
                resumed = answer
                break
            }
            usleep(100_000)
        }
        #expect(resumed != nil, "the station did not take uploads again after the promotion")
        // ... but the station signs no checkpoint of the shorter record, and says why.
        let checkpoint = try await request(URL(string: "http://127.0.0.1:\(station.port)/api/v1/checkpoint")!, token: pair.token)
        #expect(checkpoint.status == 503)
        #expect(checkpoint.text.contains("no longer holds what this station signed"), "\(checkpoint.text)")
        #expect(log.all.contains { $0.contains("recordNotSigned") }, "the station's log does not say it stopped signing")
        // verify, given the checkpoint a witness held, names the loss.
        let report = try await pair.verifyStandby(since: held.note)
        #expect(!report.problems.isEmpty)
        // Restarted by its operator, the station signs the record it has; the witness refuses it.
        station.stop(grace: 2)
        station = Station(configuration: pair.stationConfiguration(), logLine: { _ in })
        try station.start()
        let restarted = StationClient(baseURL: URL(string: "http://127.0.0.1:\(station.port)")!, token: pair.token)
        try queue.hold(held, for: restarted)
        try queue.enqueue(try Self.upload(40))
        flushed = await queue.flush(using: restarted)
        guard case .recordInconsistent? = flushed.lastError else {
            Issue.record("the witness did not refuse the record after the failover: \(String(describing: flushed.lastError))")
            return
        }
        #expect(flushed.remaining == 1)
    }
}
