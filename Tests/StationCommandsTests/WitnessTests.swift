import Archive
import ArchiveTestSupport
import CommandTestSupport
import Foundation
import StationClient
import StationTestSupport
import Testing
import TransparencyLog

/// Whoever has seen a station's checkpoint holds its record to it (docs/archive-record.md):
/// `coldtap push` and `coldtap archive witness` check, before sending or on their own, that
/// the station still holds everything it showed them, and refuse it loudly when it does not.
@Suite("Witnesses", .serialized)
struct WitnessTests {
    func push(_ station: TestStation, first: Int, queue: URL) async throws -> Run {
        let file = station.archive.path("read-\(first).ndef")
        try Reads.cold(first: first, count: 40).write(to: URL(fileURLWithPath: file))
        return await coldtap([
            "push", file, "--station", station.base.absoluteString, "--token", try #require(station.tokens["north-upload"]), "--queue", queue.path,
            "--logger-id", "fridge-w", "--read-time", Reads.readTime, "--attempts", "1",
        ])
    }

    @Test("a station whose record lost what it showed is refused, and the read stays queued", arguments: Engine.allCases)
    func aShrunkRecordIsRefused(engine: Engine) async throws {
        try await withStation(engine) { station in
            let queue = URL(fileURLWithPath: station.archive.path("queue"))
            let first = try await push(station, first: 0, queue: queue)
            #expect(first.status == 0, "\(first.err)")
            #expect(first.err.contains("The station's record:") && first.err.contains("consistent with what it showed before"), "\(first.err)")
            let uploads = try UploadQueue(directory: queue)
            let client = StationClient(baseURL: station.base, token: try #require(station.tokens["north-upload"]))
            let held = try #require(uploads.heldCheckpoint(for: client))
            let second = try await push(station, first: 40, queue: queue)
            #expect(second.status == 0, "\(second.err)")
            let heldAfter = try #require(uploads.heldCheckpoint(for: client))
            #expect(heldAfter.treeSize > held.treeSize && heldAfter.publicKey == held.publicKey)

            // The operator's witness from another machine: first sight, then consistent.
            let reader = try #require(station.tokens["north-read"])
            let elsewhere = URL(fileURLWithPath: station.archive.path("witness"))
            let firstSight = await coldtap(["archive", "witness", station.base.absoluteString, "--token", reader, "--queue", elsewhere.path])
            #expect(firstSight.status == 0 && firstSight.out.contains("held from now on"), "\(firstSight.err)")

            // The station's newest read removed with its leaves, its checkpoints and the head.
            try station.archive.removeNewestRead(2, keepingLeaves: held.treeSize)

            let refused = try await push(station, first: 80, queue: queue)
            #expect(refused.status == 65, "\(refused.err)")
            #expect(refused.err.contains("Refusing \(station.base.absoluteString): its record no longer holds what it showed before"), "\(refused.err)")
            #expect(refused.err.contains("fewer than the \(heldAfter.treeSize)"), "\(refused.err)")
            #expect(uploads.count == 1, "the read stays queued")
            #expect(uploads.heldCheckpoint(for: client) == heldAfter, "the checkpoint held stays as evidence")
            let witnessed = await coldtap(["archive", "witness", station.base.absoluteString, "--token", reader, "--queue", elsewhere.path])
            #expect(witnessed.status == 65 && witnessed.err.contains("the station's record cannot be trusted"), "\(witnessed.err)")
        }
    }

    @Test func aCheckpointFromAnotherKeyOrRecordIsRefused() throws {
        let origin = "coldtap/archive/00000000000000000000000000000001"
        let key = try NoteSigner(name: origin, privateKey: .generate())
        let other = try NoteSigner(name: origin, privateKey: .generate())
        func answer(_ signer: NoteSigner, size: Int, root: [UInt8], proof: [String]? = nil, from: Int = 0) throws -> Data {
            let note = try Checkpoint(origin: signer.name, treeSize: size, rootHash: root).signed(by: [signer]).formatted
            var object: [String: Any] = ["checkpoint": note, "publicKey": signer.verifier.text]
            if let proof { object["consistency"] = ["from": from, "to": size, "proof": proof] }
            return try JSONSerialization.data(withJSONObject: object)
        }
        let leaves = InMemoryLeafHashes(leaves: (0..<5).map { Array("leaf \($0)".utf8) })
        let root3 = try MerkleProofs.root(treeSize: 3, from: leaves)
        let root5 = try MerkleProofs.root(treeSize: 5, from: leaves)
        let held = try StationWitness.check(answer: try answer(key, size: 3, root: root3), held: nil)
        let proof = try MerkleProofs.consistencyProof(oldSize: 3, newSize: 5, from: leaves).map { $0.hexString(uppercase: false) }
        #expect(try StationWitness.check(answer: try answer(key, size: 5, root: root5, proof: proof, from: 3), held: held).treeSize == 5)
        // Signed by another key (a station replaced): refused, whatever key the answer names.
        #expect(throws: StationClientError.self) {
            try StationWitness.check(answer: try answer(other, size: 5, root: root5, proof: proof, from: 3), held: held)
        }
        // No proof, or a proof for other roots: refused.
        #expect(throws: StationClientError.self) { try StationWitness.check(answer: try answer(key, size: 5, root: root5), held: held) }
        #expect(throws: StationClientError.self) {
            try StationWitness.check(answer: try answer(key, size: 5, root: root3, proof: proof, from: 3), held: held)
        }
        // Smaller than held.
        #expect(throws: StationClientError.self) { try StationWitness.check(answer: try answer(key, size: 2, root: root3), held: held) }
    }
}
