import Foundation
import LoggerFormats

/// A hand-over of a lot: from `at` it is exposed to what `logger` records (or, with no
/// logger, to something unknown) until its next move or its close.
public struct LotMove: Sendable, Equatable {
    /// The logger the lot travels with from `at`; `nil` when nobody logs it.
    public var logger: String?
    public var at: Date

    public init(logger: String?, at: Date) {
        self.logger = logger
        self.at = at
    }
}

/// One leg of a lot's journey with what its logger recorded.
public struct LotLeg: Sendable {
    public var logger: String?
    public var from: Date
    public var to: Date
    /// The logger's samples around the leg (a stitched log; samples outside `from..<to` are
    /// clipped away). `nil` for a leg without a logger or a logger with nothing kept.
    public var log: TemperatureLog?
    /// True when a read of the logger that covers the leg failed its integrity check.
    public var integrityFailed: Bool

    public init(logger: String?, from: Date, to: Date, log: TemperatureLog? = nil, integrityFailed: Bool = false) {
        self.logger = logger
        self.from = from
        self.to = to
        self.log = log
        self.integrityFailed = integrityFailed
    }

    /// The legs that moves make, up to `end` (the lot's close, or the time of the status):
    /// moves sorted by time (moves at the same time keep their given order, the last one
    /// holding the lot); each leg runs to the next move. Moves at or after `end` make no leg.
    public static func legs(of moves: [LotMove], until end: Date) -> [LotLeg] {
        let ordered = moves.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        var legs: [LotLeg] = []
        for (index, move) in ordered.enumerated() where move.at < end {
            let next = index + 1 < ordered.count ? min(ordered[index + 1].at, end) : end
            guard next > move.at else { continue }
            legs.append(LotLeg(logger: move.logger, from: move.at, to: next))
        }
        return legs
    }
}
