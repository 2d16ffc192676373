import Archive
import ColdChain
import ColdTapKit
import Foundation
import LoggerFormats

/// How a read was decoded, kept with it (`ArchivedReads.decodeOptionsJSON`) so that
/// `archive verify` and `archive redecode` decode it again the same way. The secret is never kept.
public struct ReadDecoding: Sendable {
    public var input: LogInput.Kind
    /// A built-in logger format the reader forced.
    public var loggerName: String?
    /// The text of a descriptor the reader forced.
    public var descriptorText: String?
    public var interval: TimeInterval?
    /// The zone given for a logger's wall-clock times that carry none (a Berlinger report);
    /// kept only for a log that used it, so other reads keep their decode options as before.
    public var loggerTimeZone: TimeZone?
    /// Who gave `loggerTimeZone`, kept with it as its provenance.
    public var loggerTimeZoneSource: LoggerTimeZoneSource

    public init(
        input: LogInput.Kind = .auto, loggerName: String? = nil, descriptorText: String? = nil, interval: TimeInterval? = nil,
        loggerTimeZone: TimeZone? = nil, loggerTimeZoneSource: LoggerTimeZoneSource = .given
    ) {
        self.input = input
        self.loggerName = loggerName
        self.descriptorText = descriptorText
        self.interval = interval
        self.loggerTimeZone = loggerTimeZone
        self.loggerTimeZoneSource = loggerTimeZoneSource
    }
}

/// Where the zone of a logger's zoneless wall-clock times came from (docs/berlinger.md §7):
/// kept with the read beside the zone, and shown with it.
public enum LoggerTimeZoneSource: String, Sendable, Equatable, CaseIterable {
    /// Given with the read by whoever added it (the command line's option).
    case given
    /// Sent by the uploader with the read (a station upload's header).
    case uploader
    /// The setting of the site that uploads it, kept in the record.
    case site
}

/// Where a read for the archive comes from.
public enum ReadSource: Sendable {
    /// A file (or a URL, or standard input) the front end has loaded: its bytes and what they
    /// decoded to. `loggerID` names a log that carries no identity.
    case file(content: Data, loaded: LogInput.Loaded, origin: String, decoding: ReadDecoding, loggerID: String?)
    /// A tag just read (`coldtap read`, the demo): the NDEF message, or for a logger that
    /// answers commands the exchange transcript, or a SmarTag's memory.
    case tag(LoggerRead, origin: String, decoding: ReadDecoding, loggerID: String?)
    /// A station's upload, decoded here exactly as a file is.
    case upload(Upload)
}

extension RuleBook {
    /// The read the archive keeps from `source`, assessed against `profile`: built the same
    /// way whoever made it.
    /// - Returns: `nil` when a tag held nothing to keep.
    /// - Throws: `InputError` (or `NDEFError`) when an upload's bytes are not a read this ColdTap decodes.
    public static func newRead(from source: ReadSource, profile: Profile, timeZone: TimeZone) async throws -> NewRead? {
        switch source {
        case .file(let content, let loaded, let origin, var decoding, let loggerID):
            if loaded.log.loggerTimeZone == nil { decoding.loggerTimeZone = nil }
            return NewRead(
                raw: content, inputKind: loaded.kind.rawValue, origin: origin,
                decodeOptions: decodeOptions(decoding, tagUID: nil), log: loaded.log, loggerID: loggerID, profile: profile, timeZone: timeZone)
        case .tag(let read, let origin, let decoding, let loggerID):
            guard let (raw, input) = read.rawRead else { return nil }
            // The UID stands beside an NDEF message; a transcript carries its own (the GETNFCUID answer).
            let uid = input == .ndef ? read.result.uid.map { $0.hexString() } : nil
            var decoding = decoding
            decoding.input = input
            return NewRead(
                raw: raw, inputKind: input.rawValue, origin: origin, decodeOptions: decodeOptions(decoding, tagUID: uid), log: read.log,
                loggerID: loggerID, profile: profile, timeZone: timeZone)
        case .upload(let upload):
            var options = LogInput.Options()
            // The device's read time when it sent one; else the moment of arrival (whole
            // seconds), kept as the estimate it is.
            options.readTime = upload.readTime ?? Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            options.readTimeSource = upload.readTime == nil ? .stationArrival : upload.readTimeSource
            options.secret = upload.secret
            // The uploader's zone, else the site's setting; the source is kept with the zone.
            options.loggerTimeZone = upload.loggerTimeZone ?? upload.siteLoggerTimeZone
            let zoneSource: LoggerTimeZoneSource = upload.loggerTimeZone != nil ? .uploader : .site
            let loaded = try await LogInput.load(content: upload.raw, name: "the uploaded read", modificationTime: nil, options: options)
            let origin = "station upload by site \(upload.siteName)" + (upload.source.map { " from \($0)" } ?? "")
            let decoding = ReadDecoding(
                loggerTimeZone: loaded.log.loggerTimeZone == nil ? nil : options.loggerTimeZone, loggerTimeZoneSource: zoneSource)
            return NewRead(
                raw: upload.raw, inputKind: loaded.kind.rawValue, origin: origin, decodeOptions: decodeOptions(decoding, tagUID: nil),
                log: loaded.log, loggerID: upload.loggerID, profile: profile, timeZone: timeZone)
        }
    }

    /// An upload's read: `newRead(from: .upload(upload), …)`, which always has one.
    public static func newRead(from upload: Upload, profile: Profile, timeZone: TimeZone) async throws -> NewRead {
        guard let read = try await newRead(from: .upload(upload), profile: profile, timeZone: timeZone) else {
            throw InputError(.malformed, "the uploaded read holds nothing to keep")
        }
        return read
    }

    static func decodeOptions(_ decoding: ReadDecoding, tagUID: String?) -> String {
        ArchivedReads.decodeOptionsJSON(
            input: decoding.input, loggerName: decoding.loggerName, descriptorText: decoding.descriptorText, interval: decoding.interval, tagUID: tagUID,
            loggerTimeZone: decoding.loggerTimeZone.map { ($0, decoding.loggerTimeZoneSource) })
    }
}
