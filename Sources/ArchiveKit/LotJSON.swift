import Archive
import ColdChain
import ColdTapBase
import Foundation
import JSONOutput

/// The JSON of products, lots and a lot's status: one schema for `coldtap lot status
/// --json`, `GET /api/v1/lots/{lot}` and the pages (docs/stability.md).
public enum LotJSON {
    /// Seconds as a whole number when they are one (they always are for whole-second data).
    static func seconds(_ value: TimeInterval) -> JSONValue {
        value == value.rounded() && abs(value) < 1e15 ? .int(Int(value)) : .number(value)
    }

    /// A lot's status, exactly: `lot`, `product`, `consumed`, `consumedBy`, `bands`,
    /// `kineticsConsumed`, `unknownSeconds`, `legs`, `discardEvents`, `decision`, `reasons`
    /// (English sentences, times in UTC).
    public static func status(_ status: LotStatus) -> JSONValue {
        .object([
            ("lot", .string(status.lot)),
            ("product", .string(status.product)),
            ("consumed", .number(status.consumed)),
            ("consumedBy", .string(status.consumedBy.rawValue)),
            (
                "bands",
                .array(
                    status.bands.map {
                        .object([("band", .string($0.band)), ("seconds", seconds($0.seconds)), ("allowanceSeconds", seconds($0.allowanceSeconds))])
                    })
            ),
            ("kineticsConsumed", .optional(status.kineticsConsumed)),
            ("unknownSeconds", seconds(status.unknownSeconds)),
            (
                "legs",
                .array(
                    status.legs.map { leg in
                        .object([
                            ("logger", .optional(leg.logger)), ("from", .string(leg.from.isoUTC)), ("to", .string(leg.to.isoUTC)),
                            ("consumed", .number(leg.consumed)), ("unknownSeconds", seconds(leg.unknownSeconds)),
                        ])
                    })
            ),
            (
                "discardEvents",
                .array(
                    status.discardEvents.map { event in
                        .object([("time", .string(event.time.isoUTC)), ("temperature", .number(event.temperature)), ("rule", .string(event.rule.description))])
                    })
            ),
            ("decision", .string(status.decision.rawValue)),
            ("reasons", .array(status.reasons.map { .string($0.english(in: utcZone)) })),
        ])
    }

    static let utcZone = TimeZone.utc

    /// A lot as kept: its product (name, version, the SHA-256 of the file it is judged by),
    /// quantity, note, who made it and when.
    public static func lot(_ lot: Lot) -> JSONValue { .object(lotMembers(lot)) }

    /// A lot as lists show it (`coldtap lot list --json`, `GET /api/v1/lots`): `lot` with
    /// the `decision` and `consumed` of `status`.
    public static func listed(_ lot: Lot, status: LotStatus) -> JSONValue {
        .object(lotMembers(lot) + [("decision", .string(status.decision.rawValue)), ("consumed", .number(status.consumed))])
    }

    static func lotMembers(_ lot: Lot) -> [(String, JSONValue)] {
        [
            ("lot", .string(lot.id)), ("product", .string(lot.productName)), ("productVersion", .int(lot.productVersion)),
            ("productSHA256", .string(lot.productSHA256)), ("quantity", lot.quantity.map { .int(Int($0)) } ?? .null), ("note", .string(lot.note)),
            ("created", .string(lot.created.isoUTC)), ("createdBy", .string(lot.createdBy)),
        ]
    }

    /// A move as recorded: what, when, where, who, through what, and when it was recorded.
    public static func move(_ move: LotMoveRecord) -> JSONValue {
        .object([
            ("move", .int(Int(move.seq))), ("kind", .string(move.kind.rawValue)), ("logger", .optional(move.loggerID)), ("at", .string(move.at.isoUTC)),
            ("reason", .optional(move.reason?.rawValue)), ("place", .string(move.place)), ("by", .string(move.by)), ("recorded", .string(move.recorded.isoUTC)),
            ("origin", .string(move.origin)),
        ])
    }

    /// A product as the archive knows it (registered or built in), its file inside.
    public static func product(_ stored: StoredProduct) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("name", .string(stored.name)), ("version", .int(stored.version)), ("builtIn", .bool(stored.version == 0)),
            ("sha256", .string(stored.sha256)),
        ]
        if stored.version > 0 { members += [("added", .string(stored.added.isoUTC)), ("addedBy", .string(stored.addedBy))] }
        members.append(("summary", .string(stored.product?.summary ?? "")))
        return .object(members)
    }
}
