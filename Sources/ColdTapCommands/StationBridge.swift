import Archive
import ColdChain
import ColdTapKit
import Foundation
import LoggerFormats
import NDEF
import Station
import TempChart

/// The station's decoding and reports, done by the code of `coldtap archive add` and
/// `coldtap report --logger-id`, so that an upload and a file given to the command line
/// decode and report the same.
struct StationBridge: StationServices {
    var defaultProfile: Profile
    var timeZone: TimeZone

    func decode(_ upload: Upload) async throws -> NewRead {
        var options = LogInput.Options()
        // The device's read time when it sent one; else the moment of arrival (whole seconds),
        // kept as the estimate it is.
        options.readTime = upload.readTime ?? Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        options.readTimeSource = upload.readTime == nil ? .stationArrival : .givenByUploader
        options.secret = upload.secret
        let loaded: LogInput.Loaded
        do {
            loaded = try await LogInput.load(content: upload.raw, name: "the uploaded read", modificationTime: nil, options: options)
        } catch let error as InputError {
            throw UploadRejection(CommandError(error).message)
        } catch let error as NDEFError {
            throw UploadRejection("the uploaded read is malformed NDEF at \(error).")
        }
        let origin = "station upload by site \(upload.siteName)" + (upload.source.map { " from \($0)" } ?? "")
        return NewRead(raw: upload.raw, inputKind: loaded.kind.rawValue, origin: origin,
                       decodeOptions: ArchiveSupport.decodeOptionsJSON(input: .auto, loggerName: nil, descriptorText: nil, interval: nil, tagUID: nil),
                       log: loaded.log, loggerID: upload.loggerID, profile: defaultProfile, timeZone: timeZone)
    }

    func report(_ kind: ReportKind, history: History, options: ReportQuery) throws -> Data {
        let profile = options.profile ?? defaultProfile
        let zone = options.timeZone ?? timeZone
        var artifacts = ReportArtifacts.Options(kinds: [ReportArtifacts.Kind(rawValue: kind.rawValue) ?? .html])
        if let code = options.language {
            guard let language = ReportLanguage(languageTag: code) else {
                throw HTTPFailure.badRequest("lang '\(code.prefix(32))' is unknown; use en, zh-Hans or ja (or a tag of one of them: en-GB, zh, zh-CN, ja-JP).")
            }
            artifacts.language = language
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-station-report-\(UUID().uuidString)")
        artifacts.outDirectory = folder.path
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = history.temperatureLog()
        let assessment = Assessor.assess(log, profile: profile, timeZone: zone, acknowledgements: history.excursionAcknowledgements)
        let written = try ReportArtifacts.write(log: log, assessment: assessment, options: artifacts,
                                                console: .capturing())
        guard let file = written.first else { throw CommandError(.failure, "no report was drawn") }
        return try Data(contentsOf: file)
    }
}
