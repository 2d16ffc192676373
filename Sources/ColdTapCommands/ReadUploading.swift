import ColdTapKit
import Foundation
import StationClient

/// `coldtap read --upload URL --token T` (or `COLDTAP_STATION`, `COLDTAP_TOKEN`) sends each
/// read to a station after it is made: the NDEF message read from the tag, with the read
/// time. A read the station cannot take now waits in the upload queue (`coldtap push`).
struct ReadUploading {
    var target: StationTarget?

    static let optionSpecs = StationTarget.optionSpecs(url: StationTarget.uploadOption)

    static func parse(_ arguments: inout Arguments) throws -> ReadUploading {
        ReadUploading(target: try StationTarget.parse(&arguments, url: StationTarget.uploadOption))
    }

    func upload(_ outcome: LoggerRead, origin: String, loggerID: String?, console: Console) async throws {
        // A logger that answers commands is uploaded as its exchange transcript, a SmarTag as
        // its memory: the raw read that decodes to its log.
        guard let target, let raw = outcome.rawRead?.bytes else { return }
        let upload = PendingUpload(raw: raw, readTime: outcome.readTime, source: origin, loggerID: loggerID)
        do {
            try target.queue.enqueue(upload)
        } catch {
            throw CommandError(.failure, "cannot keep the read in the upload queue \(target.queue.directory.path): \(error.localizedDescription).")
        }
        // Output goes to standard error so that --json and --csv stay the log alone.
        let errors = Console.capturing()
        await target.send(console: errors, attempts: 2) { $0 == upload.sha256 ? "Uploaded" : "Queued read \($0.prefix(12))" }
        for line in (errors.output + errors.errorOutput).split(separator: "\n") { console.error(String(line)) }
    }
}
