import Archive
import ArchiveKit
import ArchiveTestSupport
import ColdTapBase
import Digest
import Foundation
import Station
import StationTestSupport
import Testing
import TransparencyLog

/// The station serves the record's checkpoint (docs/archive-record.md), signed with its key,
/// and the consistency proof from an older one a witness holds.
@Suite("Station record", .serialized)
struct StationRecordTests {
    func checkpoint(_ station: TestStation, since: Int? = nil, token: String? = nil) async throws -> Answer {
        var components = URLComponents(url: station.base.appendingPathComponent("api/v1/checkpoint"), resolvingAgainstBaseURL: false)!
        if let since { components.queryItems = [URLQueryItem(name: "since", value: String(since))] }
        return try await request(components.url!, token: token ?? station.tokens["north-read"])
    }

    func upload(_ station: TestStation, first: Int, logger: String) async throws {
        let answer = try await request(
            station.base.appendingPathComponent("api/v1/reads"), method: "POST", token: station.tokens["north-upload"],
            headers: ["Content-Type": "application/octet-stream", UploadHeader.readTime: Reads.readTime, UploadHeader.loggerID: logger],
            body: try Reads.cold(first: first, count: 40))
        #expect(answer.status == 201, "\(answer.text)")
    }

    @Test("a witness's older checkpoint is proved a prefix of the newer one", arguments: Engine.allCases)
    func checkpointsAndConsistency(engine: Engine) async throws {
        try await withStation(engine) { station in
            try await upload(station, first: 0, logger: "fridge-1")
            let first = try await checkpoint(station)
            #expect(first.status == 200, "\(first.text)")
            let firstJSON = try first.json()
            let key = try NoteVerifierKey(text: try #require(firstJSON["publicKey"] as? String))
            let old = try Checkpoint.verified(Array(try #require(firstJSON["checkpoint"] as? String).utf8), keys: [key])
            #expect(old.treeSize == firstJSON["treeSize"] as? Int)
            #expect(old.rootHash.hexString(uppercase: false) == firstJSON["rootHash"] as? String)
            // The site's tokens and sites are leaves too, kept before the read.
            #expect(old.treeSize > 3)

            try await upload(station, first: 40, logger: "fridge-1")
            let newer = try await checkpoint(station, since: old.treeSize)
            #expect(newer.status == 200, "\(newer.text)")
            let newerJSON = try newer.json()
            let new = try Checkpoint.verified(Array(try #require(newerJSON["checkpoint"] as? String).utf8), keys: [key])
            // The read, its assessment, and who uploaded it (the token).
            #expect(new.treeSize == old.treeSize + 3)
            let consistency = try #require(newerJSON["consistency"] as? [String: Any])
            let proof = try #require(consistency["proof"] as? [String]).compactMap { Hex.decode($0) }
            #expect(consistency["from"] as? Int == old.treeSize && consistency["to"] as? Int == new.treeSize)
            #expect(
                MerkleProofs.verifyConsistency(oldSize: old.treeSize, newSize: new.treeSize, oldRoot: old.rootHash, newRoot: new.rootHash, proof: proof))
            // Asked again at the same size: the same signed checkpoint.
            #expect(try await checkpoint(station).json()["checkpoint"] as? String == newerJSON["checkpoint"] as? String)

            // A checkpoint larger than the record: the station no longer holds what it showed.
            let beyond = try await checkpoint(station, since: new.treeSize + 5)
            #expect(beyond.status == 409, "\(beyond.text)")
            #expect(beyond.text.contains("fewer than the \(new.treeSize + 5)"))
            #expect(try await checkpoint(station, since: -1).status == 400)
            #expect(try await request(station.base.appendingPathComponent("api/v1/checkpoint")).status == 401)
            // The operator's token is the station's, not a site's.
            #expect(try await checkpoint(station, token: station.tokens["operator"]).status == 403)
            // The logger's report carries the checkpoint and its reads' proofs, and names no
            // server path.
            let html = try await request(
                station.base.appendingPathComponent("api/v1/loggers/fridge-1/report.html"), token: station.tokens["north-read"])
            #expect(html.status == 200)
            #expect(!html.text.contains(station.archive.location))
            #expect(html.text.contains("the station&apos;s archive"), "\(html.text.prefix(300))")
            let opening = "<script type=\"application/json\" id=\"coldtap-record\">"
            let start = try #require(html.text.range(of: opening))
            let end = try #require(html.text.range(of: "</script>", range: start.upperBound..<html.text.endIndex))
            let evidence = html.text[start.upperBound..<end.lowerBound].replacingOccurrences(of: "<\\/", with: "</")
            let check = RecordEvidence.check(json: Data(evidence.utf8), keys: [key], readSHA256: [:])
            #expect(check.problems.isEmpty, "\(check.problems)")
            #expect(check.proved.count == 2)
            // What the station signed, the archive's own verify accepts with the same key.
            let opened = try station.archive.open()
            defer { opened.close() }
            let since = try firstJSON["checkpoint"] as? String
            let report = try await opened.verify(decoder: ArchivedReads.decoder, record: RecordCheck(keys: [key], since: since))
            #expect(report.problems.isEmpty, "\(report.problems)")
        }
    }
}
