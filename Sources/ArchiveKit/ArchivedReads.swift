import Archive
import ColdChain
import ColdTapBase
import ColdTapKit
import Foundation
import JSONOutput
import LoggerFormats
import NDEF

/// Reads as the archive keeps them, built the same way whoever made them (`coldtap read`,
/// `coldtap archive add`, a station's upload), and decoded again the way they were decoded
/// when kept (`archive verify`, `archive redecode`).
public enum ArchivedReads {
    /// The decode options kept with a read, as JSON text: `input`, `logger` (a built-in name),
    /// `descriptor` (the descriptor's text), `interval`, `tagUID`, and `loggerTimeZone` with
    /// `loggerTimeZoneSource` (who gave it) where a zone was given for a logger's zoneless times
    /// (a Berlinger report, docs/berlinger.md §7). The secret is never kept.
    public static func decodeOptionsJSON(
        input: LogInput.Kind, loggerName: String?, descriptorText: String?,
        interval: TimeInterval?, tagUID: String?, loggerTimeZone: (TimeZone, LoggerTimeZoneSource)? = nil
    ) -> String {
        var members: [(String, JSONValue)] = [("input", .string(input.rawValue))]
        members.append(("logger", .optional(loggerName)))
        members.append(("descriptor", .optional(descriptorText)))
        members.append(("interval", .optional(interval)))
        members.append(("tagUID", .optional(tagUID)))
        // Only where given, so every other read keeps the bytes it always had.
        if let (zone, source) = loggerTimeZone {
            members.append(("loggerTimeZone", .string(zoneText(zone))))
            members.append(("loggerTimeZoneSource", .string(source.rawValue)))
        }
        return JSONValue.object(members).serialized(pretty: false)
    }

    /// Decodes a kept read again with this ColdTap's decoders, as it was decoded when kept
    /// (same input form, logger selection, interval and read time; no secret).
    public static let decoder: ReadDecoder = { stored in
        let object = (try? JSONSerialization.jsonObject(with: Data(stored.decodeOptions.utf8))) as? [String: Any] ?? [:]
        var options = LogInput.Options()
        options.input = (object["input"] as? String).flatMap(LogInput.Kind.init(rawValue:)) ?? .auto
        options.readTime = stored.readTime
        options.interval = object["interval"] as? Double
        options.loggerTimeZone = (object["loggerTimeZone"] as? String).flatMap(zone(fromText:))
        if let name = object["logger"] as? String {
            options.logger = .named(name)
        } else if let descriptor = object["descriptor"] as? String {
            options.logger = .descriptor(try LoggerDescriptor.parse(Data(descriptor.utf8), source: "the descriptor kept with read #\(stored.id)"))
        }
        if let uid = object["tagUID"] as? String, stored.inputKind == "ndef" {
            // A read from a tag keeps its NDEF message; the UID came from the tag.
            let message = try NDEFParser.message(from: stored.raw)
            return try LogInput.decode(message, options: options, readTime: stored.readTime, readTimeSource: .tagRead, tagUID: uid)
        }
        return try await LogInput.load(
            content: stored.raw, name: "read #\(stored.id)", modificationTime: stored.readTime,
            options: options
        ).log
    }
}

extension ArchivedReads {
    /// The zone a kept read's zoneless times were read in and who gave it, from its decode
    /// options (`nil` for a read that needed none). A read kept before the source was kept
    /// says `given`.
    public static func loggerTimeZone(ofDecodeOptions text: String) -> (zone: String, source: LoggerTimeZoneSource)? {
        let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        guard let zone = object["loggerTimeZone"] as? String else { return nil }
        return (zone, (object["loggerTimeZoneSource"] as? String).flatMap(LoggerTimeZoneSource.init(rawValue:)) ?? .given)
    }

    /// A zone as kept: its identifier, or `±HH:MM` for a fixed offset.
    public static func zoneText(_ zone: TimeZone) -> String {
        // A fixed offset is named `GMT+0100` on some platforms: kept as `+01:00` everywhere.
        if zone.identifier == "UTC" || zone.identifier == "GMT" || TimeZone.knownTimeZoneIdentifiers.contains(zone.identifier) {
            return zone.identifier
        }
        let seconds = zone.secondsFromGMT()
        return String(format: "%@%02d:%02d", seconds < 0 ? "-" : "+", abs(seconds) / 3600, abs(seconds) % 3600 / 60)
    }

    /// The zone kept as `zoneText` wrote it (or as an uploader sends it): an IANA name or `±HH:MM`.
    public static func zone(fromText text: String) -> TimeZone? {
        guard !text.isEmpty, text.count <= 64 else { return nil }
        if let sign = text.first, sign == "+" || sign == "-" {
            let parts = text.dropFirst().split(separator: ":")
            guard parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]) else { return nil }
            return TimeZone(secondsFromGMT: (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60))
        }
        return TimeZone(identifier: text)
    }
}

/// A read uploaded to a station: the body and the headers that say how to decode it.
public struct Upload: Sendable {
    public var raw: Data
    /// The device's read time, when it sent one.
    public var readTime: Date?
    /// Where the read was made (an app, a desk reader), as the uploader says.
    public var source: String?
    /// The identity for a log that carries none.
    public var loggerID: String?
    /// The logger's decode secret kept on the station (never sent by phones).
    public var secret: String?
    /// Where a sent read time came from: the uploader's own (`givenByUploader`), or a file's
    /// modification time it stands in with (`fileModificationTime`).
    public var readTimeSource: DecodeOptions.ReadTimeSource = .givenByUploader
    /// The site that uploads, for the origin kept with the read.
    public var siteName: String
    /// The zone of the logger's wall-clock times that carry none (a Berlinger report): the
    /// uploader's; `nil` takes `siteLoggerTimeZone`.
    public var loggerTimeZone: TimeZone?
    /// The zone the uploading site set for its loggers' zoneless times, used when the uploader
    /// sent none; with neither such a report is refused.
    public var siteLoggerTimeZone: TimeZone?

    public init(raw: Data, readTime: Date?, source: String?, loggerID: String?, secret: String?, siteName: String) {
        self.raw = raw
        self.readTime = readTime
        self.source = source
        self.loggerID = loggerID
        self.secret = secret
        self.siteName = siteName
    }
}
