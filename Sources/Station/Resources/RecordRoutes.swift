import Archive
import ColdChain
import Foundation
import JSONOutput
import TransparencyLog

/// The contract, the health check, the metrics and the record's checkpoint.
struct StationRecordRoutes: RouteCollection {
    unowned let station: Station

    func register(in router: inout StationRouter) {
        router.get("/api/v1/openapi.json", .open) { context in
            _ = try context.request.typedQuery(NoFields.self)
            return OpenAPIDocument.response
        }
        router.get("/healthz", .open) { context in
            _ = try context.request.typedQuery(NoFields.self)
            return try health()
        }
        router.get("/metrics", .stationOperator) { context in
            _ = try context.request.typedQuery(NoFields.self)
            return try metricsText()
        }
        router.get("/api/v1/checkpoint", .site(.read)) { context in
            try checkpoint(context.request.typedQuery(CheckpointQuery.self))
        }
    }
}

extension StationRecordRoutes {
    /// `GET /healthz`: says the archive answers, nothing of what it holds (no token is needed).
    func health() throws -> HTTPResponse {
        _ = try pool.with { try $0.archive.chainHead() }
        return .json(200, .object([("status", .string("ok"))]))
    }

    /// `GET /metrics`: the station's counters in Prometheus's text format.
    func metricsText() throws -> HTTPResponse {
        let counts = try pool.with { try $0.counts() }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
            body: Data(metrics.text(reads: counts.reads, loggers: counts.loggers, samples: counts.samples).utf8))
    }

    /// The record's checkpoint now, signed, and with `since=SIZE` the consistency proof from
    /// the tree of that size (a witness's older checkpoint) to it.
    func checkpoint(_ query: CheckpointQuery) throws -> HTTPResponse {
        guard let head = recordHead.withLock({ $0 }) else {
            throw HTTPFailure(503, "unavailable", "this station keeps no signing key, so it signs no checkpoints (its operator can give it one).")
        }
        var since: Int?
        if let text = query.since {
            guard let value = Int(text), value >= 0 else {
                throw HTTPFailure.badRequest("since must be the size of a checkpoint you hold, a whole number from 0, not '\(text.prefix(32))'.")
            }
            since = value
        }
        let (note, proof) = try pool.with { store -> (SignedNote, [[UInt8]]?) in
            // Refused before anything is signed: an answer that refuses changes nothing.
            let size = try store.archive.recordSize()
            if let since, since > size {
                throw HTTPFailure(
                    409, "conflict",
                    "the record holds \(size) leaves, fewer than the \(since) of the checkpoint you hold: this station no longer has everything it showed before."
                )
            }
            let note = try head.advance(store)
            try store.archive.keepCheckpoint(note)
            guard let since else { return (note, nil) }
            return (note, try store.archive.consistencyProof(from: since, to: try Checkpoint(text: note.text).treeSize))
        }
        let checkpoint = try Checkpoint(text: note.text)
        var members: [(String, JSONValue)] = [
            ("checkpoint", .string(note.formatted)), ("origin", .string(checkpoint.origin)), ("treeSize", .int(checkpoint.treeSize)),
            ("rootHash", .string(checkpoint.rootHash.hexString(uppercase: false))), ("publicKey", .string(head.signer.verifier.text)),
        ]
        if let since, let proof {
            members.append(
                (
                    "consistency",
                    .object([
                        ("from", .int(since)), ("to", .int(checkpoint.treeSize)), ("proof", .array(proof.map { .string($0.hexString(uppercase: false)) })),
                    ])
                ))
        }
        return .json(200, .object(members))
    }
}
