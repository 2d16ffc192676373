import ColdTapBase
import Digest
import Foundation
import TransparencyLog

/// What a client holds of a station's record (docs/archive-record.md): the newest checkpoint
/// it was shown, and the key that signed the first one it saw (trusted from then on).
public struct HeldCheckpoint: Codable, Sendable, Equatable {
    /// The signed note, as the station sent it.
    public var note: String
    /// The station's key as a signed-note verifier key (`ORIGIN+KEYID+BASE64`).
    public var publicKey: String
    public var origin: String
    public var treeSize: Int
    /// Hex.
    public var rootHash: String
}

/// The client's side of the record: checks what a station shows against what it showed
/// before. A station whose record no longer holds what a checkpoint it signed covered is
/// refused, with both checkpoints named.
public enum StationWitness {
    /// Checks the station's answer to `GET /api/v1/checkpoint[?since=]` against `held`.
    /// - Returns: the checkpoint to hold from now on.
    /// - Throws: `StationClientError.recordInconsistent` naming both checkpoints.
    public static func check(answer: Data, held: HeldCheckpoint?) throws -> HeldCheckpoint {
        guard let object = (try? JSONSerialization.jsonObject(with: answer)) as? [String: Any], let note = object["checkpoint"] as? String,
            let shownKey = object["publicKey"] as? String
        else { throw StationClientError.recordInconsistent("the station's checkpoint answer is not one ColdTap reads") }
        // The key seen first is the station's; a different one now is not trusted.
        let keyText = held?.publicKey ?? shownKey
        let checkpoint: Checkpoint
        do {
            checkpoint = try Checkpoint.verified(Array(note.utf8), keys: [try NoteVerifierKey(text: keyText)])
        } catch {
            throw StationClientError.recordInconsistent(
                "its checkpoint is not signed by the key it showed first (\(keyText.prefix(60))…): \(error)" + (held.map { "; held: \(summary($0))" } ?? ""))
        }
        let shown = HeldCheckpoint(
            note: note, publicKey: keyText, origin: checkpoint.origin, treeSize: checkpoint.treeSize,
            rootHash: checkpoint.rootHash.hexString(uppercase: false))
        guard let held else { return shown }
        guard checkpoint.origin == held.origin else {
            throw StationClientError.recordInconsistent("it now shows the record \(checkpoint.origin), not \(held.origin); held: \(summary(held))")
        }
        guard checkpoint.treeSize >= held.treeSize else {
            throw StationClientError.recordInconsistent("its record shrank: held \(summary(held)), shown \(summary(shown))")
        }
        let consistency = object["consistency"] as? [String: Any]
        let proof = (consistency?["proof"] as? [String])?.compactMap { Hex.decode($0) } ?? []
        guard consistency?["from"] as? Int == held.treeSize, let oldRoot = Hex.decode(held.rootHash),
            MerkleProofs.verifyConsistency(
                oldSize: held.treeSize, newSize: checkpoint.treeSize, oldRoot: oldRoot, newRoot: checkpoint.rootHash, proof: proof)
        else {
            throw StationClientError.recordInconsistent(
                "its record no longer holds what it showed before (no consistency proof): held \(summary(held)), shown \(summary(shown))")
        }
        return shown
    }

    /// "12 leaves, root 3f2a…" for messages.
    public static func summary(_ checkpoint: HeldCheckpoint) -> String {
        "\(checkpoint.treeSize) leaves, root \(checkpoint.rootHash)"
    }
}

extension StationClient {
    /// Asks the station for its signed checkpoint and the consistency proof from `held`, and
    /// checks them.
    /// - Returns: the checkpoint to hold now; `nil` when the station signs none (an older
    ///   station, or one without a signing key), which is no reason to stop uploading.
    /// - Throws: `StationClientError` (`.recordInconsistent` when the station's record no
    ///   longer holds what it showed before).
    public func witness(_ held: HeldCheckpoint?) async throws -> HeldCheckpoint? {
        var components = URLComponents(url: baseURL.appendingPathComponent("api/v1/checkpoint"), resolvingAgainstBaseURL: false)
        if let held { components?.queryItems = [URLQueryItem(name: "since", value: String(held.treeSize))] }
        guard let url = components?.url else { throw StationClientError.unreachable("the station's address does not make a URL") }
        let (data, status) = try await get(url)
        switch status {
        case 200: return try StationWitness.check(answer: data, held: held)
        case 404, 503: return nil
        case 409:
            let detail = ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?["detail"] as? String ?? ""
            throw StationClientError.recordInconsistent("\(detail) Held: \(held.map(StationWitness.summary) ?? "nothing").")
        default:
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
            throw StationClientError.refused(
                status: status, error: object?["error"] as? String ?? "HTTP \(status)", detail: object?["detail"] as? String ?? "")
        }
    }
}
