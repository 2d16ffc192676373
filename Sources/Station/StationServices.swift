import Archive
import ColdChain
import Foundation
import LoggerFormats

/// What the station needs from the layers above it: decoding an uploaded read exactly as
/// `coldtap archive add` would, and drawing a report. The command layer provides these
/// (ColdTapCommands' `StationBridge`), so that the station and the command line decode and
/// report with one piece of code.
public protocol StationServices: Sendable {
    /// Decodes `upload` into the read to keep, assessed against the station's profile.
    /// - Throws: `UploadRejection` when the bytes are not a read this ColdTap decodes.
    func decode(_ upload: Upload) async throws -> NewRead
    /// A report over a stitched record.
    /// - Throws: `HTTPFailure` for a bad profile or language (400), anything else for a
    ///   report that cannot be drawn.
    func report(_ kind: ReportKind, history: History, options: ReportQuery) throws -> Data
    /// The profile an acknowledgement's excursion is looked up under when the logger has no
    /// assessment yet, and the reads are assessed against.
    var defaultProfile: Profile { get }
    /// The zone the web pages show times in (`coldtap serve --tz`, else the system's).
    var timeZone: TimeZone { get }
}

/// An upload as received: the body and the headers that say how to decode it.
public struct Upload: Sendable {
    public var raw: Data
    /// `X-ColdTap-Read-Time`.
    public var readTime: Date?
    /// `X-ColdTap-Source`: where the read was made (an app, a desk reader).
    public var source: String?
    /// `X-ColdTap-Logger-Id`: the identity for a log that carries none.
    public var loggerID: String?
    /// The logger's decode secret kept on the station (never sent by phones).
    public var secret: String?
    /// The site that uploads, for the origin kept with the read.
    public var siteName: String

    public init(raw: Data, readTime: Date?, source: String?, loggerID: String?, secret: String?, siteName: String) {
        self.raw = raw
        self.readTime = readTime
        self.source = source
        self.loggerID = loggerID
        self.secret = secret
        self.siteName = siteName
    }
}

/// An upload that is not a read: 422 with the sentence the command line would print, or 415.
public struct UploadRejection: Error, Sendable {
    public var status: Int
    public var message: String

    public init(status: Int = 422, _ message: String) {
        self.status = status
        self.message = message
    }
}

public enum ReportKind: String, Sendable, CaseIterable {
    case pdf, html, png, svg

    public var contentType: String {
        switch self {
        case .pdf: return "application/pdf"
        case .html: return "text/html; charset=utf-8"
        case .png: return "image/png"
        case .svg: return "image/svg+xml"
        }
    }
}

/// `?profile=&lang=&tz=` of a report, resolved by the station (a profile by name, a zone
/// from the system's list): `nil` for the station's own.
public struct ReportQuery: Sendable {
    public var profile: Profile?
    public var language: String?
    public var timeZone: TimeZone?
}
