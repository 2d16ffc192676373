import Archive
import ArchiveKit
import ColdChain
import ColdTapBase
import ColdTapKit
import Foundation
import NDEF
import TempChart

/// An upload that is not a read: 422 with the sentence that says why, or 415.
public struct UploadRejection: Error, Sendable {
    public var status: Int
    public var message: String
    /// The read's times carry no zone and none was given (a Berlinger report).
    public var needsLoggerTimeZone = false

    public init(status: Int = 422, _ message: String) {
        self.status = status
        self.message = message
    }
}

/// `?profile=&lang=&tz=` of a report, resolved by the station (a profile by name, a zone
/// from the system's list): `nil` for the station's own.
public struct ReportQuery: Sendable {
    public var profile: Profile?
    public var language: String?
    public var timeZone: TimeZone?
}

extension Station {
    /// Decodes an upload as `coldtap archive add` decodes a file (ColdTapKit), into the read
    /// to keep. Nothing a decoder says names a command-line option: the problem alone is told.
    /// - Throws: `UploadRejection` (422) when the bytes are not a read this ColdTap decodes.
    static func decode(_ upload: Upload, profile: Profile, timeZone: TimeZone) async throws -> NewRead {
        do {
            return try await RuleBook.newRead(from: upload, profile: profile, timeZone: timeZone)
        } catch let error as InputError {
            let needsZone = error.hint == .needsLoggerTimeZone
            let advice =
                needsZone
                ? " Send \(UploadHeader.loggerTimeZone) with the zone the logger's clock ran in, or have the station's operator set the site's zone for its loggers."
                : ""
            var rejection = UploadRejection(error.description + advice)
            rejection.needsLoggerTimeZone = needsZone
            throw rejection
        } catch let error as NDEFError {
            throw UploadRejection("the uploaded read is malformed NDEF at \(error).")
        }
    }

    /// A report over a stitched record, drawn into bytes (ColdTapKit's `ReportRendering`).
    /// - Throws: `HTTPFailure` (400) for an unknown language; the renderer's error otherwise.
    /// The archive part names no server path: it is "the station's archive".
    static func report(_ kind: ReportFileKind, _ report: LoggerReport, language code: String?, record: ReportArchiveSection.RecordEvidence?) throws -> Data {
        var rendering = ReportRendering()
        if let code {
            guard let language = ReportLanguage(languageTag: code) else {
                throw HTTPFailure.badRequest("lang '\(code.prefix(32))' is unknown; use en, zh-Hans or ja (or a tag of one of them: en-GB, zh, zh-CN, ja-JP).")
            }
            rendering.language = language
        }
        return try rendering.render(
            kind, of: report.renderingSubject(archive: "the station's archive", record: record, language: rendering.language))
    }
}
