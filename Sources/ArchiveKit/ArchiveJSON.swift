import Archive
import ColdTapBase
import ColdTapKit
import Foundation
import JSONOutput
import LoggerFormats

/// The archive's records as JSON and CSV, one schema for the command line (`loggers --json`,
/// `history --json|--csv`) and the station's API (README, "Archive JSON"). Times are UTC with `Z`.
public enum ArchiveJSON {
    /// A kept read: `id`, `readTime`, `readTimeSource`, `origin`, `sha256`, `decoder`,
    /// `coldTapVersion`, `integrity`, `samples`, `firstSample`, `lastSample`; with `stitching`,
    /// what it added to the record: `newSamples`, `duplicates`, `conflicts`.
    public static func read(_ read: ReadSummary, stitching: Bool = false, wording: LogExport.Wording = .plain) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .int(Int(read.id))),
            ("readTime", .string(read.readTime.isoUTC)),
            ("readTimeSource", .string(wording.readTimeSource(DecodeOptions.ReadTimeSource(stored: read.readTimeSource)))),
            ("origin", .string(read.origin)),
            ("sha256", .string(read.sha256)),
            ("decoder", .string(read.decoder)),
            ("coldTapVersion", .string(read.coldTapVersion)),
            ("integrity", .string(read.integrity)),
            ("samples", .int(read.sampleCount)),
            ("firstSample", .optional(read.firstSample?.isoUTC)),
            ("lastSample", .optional(read.lastSample?.isoUTC)),
        ]
        // Only for a read whose times needed a zone, so every other read's JSON stays as it was.
        if let (zone, source) = ArchivedReads.loggerTimeZone(ofDecodeOptions: read.decodeOptions) {
            members.append(("loggerTimeZone", .object([("zone", .string(zone)), ("source", .string(source.rawValue))])))
        }
        if stitching {
            members += [("newSamples", .int(read.newSamples)), ("duplicates", .int(read.duplicates)), ("conflicts", .int(read.conflicts))]
        }
        return .object(members)
    }

    /// A logger of the archive: `id`, `format`, `serial`, `tagUID`, `site` (a station's),
    /// `firstSample`, `lastSample`, `reads`, `lastVerdict`, then `extra` members.
    public static func logger(_ summary: LoggerSummary, site: String? = nil, extra: [(String, JSONValue)] = []) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(summary.logger.id)),
            ("format", .string(summary.logger.format)),
            ("serial", .optional(summary.logger.serial)),
            ("tagUID", .optional(summary.logger.tagUID)),
        ]
        if let site { members.append(("site", .string(site))) }
        members += [
            ("firstSample", .optional(summary.firstSample?.isoUTC)),
            ("lastSample", .optional(summary.lastSample?.isoUTC)),
            ("reads", .int(summary.readCount)),
            ("lastVerdict", .optional(summary.lastVerdict)),
        ]
        return .object(members + extra)
    }

    /// A sample's values: `temperature`, `humidity`, `flags`.
    public static func values(_ sample: TemperatureLog.Sample) -> [(String, JSONValue)] {
        [
            ("temperature", .optional(sample.temperature)), ("humidity", .optional(sample.humidity)),
            ("flags", .array(sample.flags.map { .string($0.rawValue) })),
        ]
    }

    /// A sample of the stitched record: `time`, its values, and the `read` it came from.
    public static func sample(_ item: StitchedSample) -> JSONValue {
        .object([("time", .string(item.sample.time.isoUTC))] + values(item.sample) + [("read", .int(Int(item.readID)))])
    }

    /// An electronic signature: who, when, what it means and signs, and the SHA-256 of its
    /// statement; with `statement`, the statement's text too (the command line's `--json`).
    public static func signature(_ signature: SignatureRecord, statement: Bool = false) -> JSONValue {
        .object(
            [
                ("id", .int(Int(signature.id))), ("logger", .string(signature.loggerID)), ("subject", .string(signature.subject.rawValue)),
                ("meaning", .string(signature.meaning.rawValue)), ("comment", .optional(signature.comment)), ("user", .string(signature.userName)),
                ("printedName", .string(signature.printedName)), ("role", .string(signature.role.rawValue)),
                ("signed", .string(signature.signed.isoUTC)), ("timeZone", .string(signature.timeZone)), ("from", .string(signature.from.isoUTC)),
                ("to", .string(signature.to.isoUTC)), ("acknowledgement", signature.acknowledgementID.map { .int(Int($0)) } ?? .null),
                ("reads", .array(signature.signedReadIDs.map { .int(Int($0)) })), ("statementSHA256", .string(signature.statementSHA256)),
            ] + (statement ? [("statement", JSONValue.string(signature.statement))] : []))
    }

    /// An acknowledgement: `id`, `logger` (when given), `excursionStart`, `by`, `at`, `comment`.
    public static func acknowledgement(_ ack: Acknowledgement, loggerID: String? = nil) -> JSONValue {
        .object(
            [("id", .int(Int(ack.id)))] + (loggerID.map { [("logger", JSONValue.string($0))] } ?? [])
                + [
                    ("excursionStart", .string(ack.excursionStart.isoUTC)), ("by", .string(ack.by)),
                    ("at", .string(ack.at.isoUTC)), ("comment", .string(ack.comment)),
                ])
    }

    /// The stitched samples as RFC 4180 CSV: `time,temperature_c,humidity_pct,flags,read`,
    /// exact values (the JSON's), times UTC.
    public static func samplesCSV(_ items: some Sequence<StitchedSample>) -> String {
        var out = "time,temperature_c,humidity_pct,flags,read\r\n"
        for item in items {
            let sample = item.sample
            out +=
                [
                    sample.time.isoUTC, sample.temperature.map(LogExport.number) ?? "", sample.humidity.map(LogExport.number) ?? "",
                    sample.flags.map(\.rawValue).joined(separator: ";"), String(item.readID),
                ].map(LogExport.csvField).joined(separator: ",")
                + "\r\n"
        }
        return out
    }
}
