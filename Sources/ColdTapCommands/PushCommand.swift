import ColdTapBase
import ColdTapKit
import Foundation
import StationClient

/// Where uploads go: `--upload URL` / `--station URL` and `--token T`, else `COLDTAP_STATION`
/// and `COLDTAP_TOKEN`; reads that cannot be sent wait in a queue on disk
/// (`--queue DIR`, else `$XDG_STATE_HOME/coldtap/uploads`, else `~/.local/state/coldtap/uploads`).
struct StationTarget {
    static let tokenOption = OptionSpec.value(
        "--token", placeholder: "T", help: "an upload token of the station ('coldtap token create')", default: "$COLDTAP_TOKEN")
    static let queueOption = OptionSpec.value(
        "--queue", placeholder: "DIR", help: "where reads wait until the station takes them",
        default: "$XDG_STATE_HOME/coldtap/uploads, else ~/.local/state/coldtap/uploads", path: true)

    var url: URL
    var token: String
    var queue: UploadQueue

    /// The station's URL: `--station URL` for `push`, `--upload URL` for `read`.
    static let stationOption = urlOption("--station")
    static let uploadOption = urlOption("--upload")

    private static func urlOption(_ name: String) -> OptionSpec {
        .value(
            name, placeholder: "URL", help: "the station to upload to, e.g. https://station.example:8080",
            default: "$COLDTAP_STATION; none: no upload")
    }

    /// `URL-OPTION URL`, `--token T`, `--queue DIR`.
    static func optionSpecs(url: OptionSpec) -> [OptionSpec] { [url, tokenOption, queueOption] }

    /// `nil` when no station is named anywhere.
    static func parse(
        _ arguments: inout Arguments, url urlOption: OptionSpec,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> StationTarget? {
        let given = arguments.value(urlOption)
        let token = arguments.value(tokenOption) ?? environment["COLDTAP_TOKEN"]
        let queueFolder = arguments.value(queueOption)
        guard let text = given ?? environment["COLDTAP_STATION"], !text.isEmpty else {
            if given == nil, token != nil, environment["COLDTAP_TOKEN"] == nil {
                throw CommandError.usage("--token without a station: give \(urlOption.displayName) URL or set COLDTAP_STATION.")
            }
            return nil
        }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw CommandError.usage("'\(text)' is not a station URL such as https://station.example:8080.")
        }
        guard let token, !token.isEmpty else {
            throw CommandError.usage("uploading to \(text) needs a token: --token T or COLDTAP_TOKEN (coldtap token create).")
        }
        let folder = queueFolder.map { URL(fileURLWithPath: $0) } ?? defaultQueue(environment)
        do {
            return StationTarget(url: url, token: token, queue: try UploadQueue(directory: folder))
        } catch {
            throw CommandError(.failure, "cannot make the upload queue folder '\(folder.path)': \(error.localizedDescription).")
        }
    }

    static func defaultQueue(_ environment: [String: String]) -> URL {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("coldtap/uploads")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/coldtap/uploads")
    }

    /// A station's refusal in the words of `push`: the header an HTTP client sends is the
    /// option this command takes.
    static func inPushWords(_ reason: String) -> String {
        reason.replacingOccurrences(
            of: "Send \(UploadHeader.loggerID) with the logger's name.", with: "Give it with --logger-id ID and push the file again."
        )
        .replacingOccurrences(
            of: "send \(UploadHeader.loggerID) (e.g. the label on the logger).",
            with: "give it with --logger-id ID (e.g. the label on the logger) and push the file again.")
    }

    /// Sends the queue (with `attempts` passes, backing off from one second); says what
    /// happened to each read on `console`, and what still waits.
    /// - Returns: the number of reads still queued.
    @discardableResult
    func send(
        console: Console, attempts: Int, label: (String) -> String = { $0 }
    ) async -> (remaining: Int, rejected: Int, credentialsRefused: Bool, recordInconsistent: Bool) {
        let client = StationClient(baseURL: url, token: token)
        let result = await queue.drain(using: client, attempts: attempts, backoff: 1)
        if case .recordInconsistent(let what) = result.lastError {
            console.error(
                "Refusing \(url.absoluteString): its record no longer holds what it showed before (\(what)). Nothing was sent; the reads stay queued. Tell the station's operator, and keep \(queue.directory.path) as evidence."
            )
        }
        for receipt in result.sent {
            let read = receipt.value("read") as? [String: Any]
            let logger = (receipt.value("logger") as? [String: Any])?["id"] as? String ?? "?"
            let what = receipt.alreadyKept ? "already kept as read #\(read?["id"] ?? "?")" : "kept as read #\(read?["id"] ?? "?")"
            console.print(
                "\(label(receipt.sha256)): \(logger) — \(what) on \(url.absoluteString)"
                    + ((receipt.value("verdict") as? String).map { "; verdict \($0)" } ?? ""))
        }
        for rejected in result.rejected {
            console.error(
                "\(label(rejected.sha256)): \(Self.inPushWords(rejected.reason)) (kept in \(queue.directory.appendingPathComponent("rejected").path))")
        }
        if result.remaining > 0 {
            // The station's sentence ends with a full stop; the line goes on after it.
            let why = result.lastError?.description ?? "not sent"
            console.error(
                "\(result.remaining) read(s) wait in \(queue.directory.path): \(why.hasSuffix(".") ? String(why.dropLast()) : why); 'coldtap push' sends them later."
            )
        }
        if let held = result.witnessed, result.lastError == nil {
            console.error("The station's record: \(StationWitness.summary(held)), consistent with what it showed before.")
        }
        var inconsistent = false
        if case .recordInconsistent = result.lastError { inconsistent = true }
        return (result.remaining, result.rejected.count, result.lastError?.credentialsRefused == true, inconsistent)
    }
}

/// `coldtap push FILE...`: uploads reads to a station; with no FILE, sends what waits in the queue.
public enum PushCommand: Command {
    static let loggerIDOption = OptionSpec.value("--logger-id", placeholder: "ID", help: "the logger the reads belong to, for reads that name none")
    static let readTimeOption = OptionSpec.value(
        "--read-time", placeholder: "ISO8601", help: "when the reads were made", default: "the file's modification time"
    ).typed(.time("is not an ISO 8601 date-time with a time zone, e.g. 2024-04-09T08:35:00Z."))
    static let sourceOption = OptionSpec.value(
        "--source", placeholder: "S", help: "where the reads came from, as the station records it", default: "coldtap push")
    static let attemptsOption = OptionSpec.value("--attempts", placeholder: "N", help: "tries per read before it stays in the queue (1–100)", default: "3")
        .typed(
            OptionValueParser.count(1...100).complaining { name, _ in "\(name) takes 1 to 100." })

    public static let name = "push"
    public static let forms = [
        CommandForm(
            positionals: "[FILE...]",
            positionalHelp: [
                ("FILE", "reads to upload (dumps, NDEF messages, Flipper files, cuplTag URLs, NHS31xx transcripts); none: send what waits in the queue")
            ],
            summary: "upload reads to a station; what cannot be sent now waits in the queue on disk",
            options: StationTarget.optionSpecs(url: StationTarget.stationOption) + [
                loggerIDOption,
                readTimeOption.spec,
                sourceOption,
                attemptsOption.spec,
            ])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let loggerID = arguments.value(loggerIDOption)
        let source = arguments.value(sourceOption) ?? "coldtap push"
        let readTime = try arguments.value(readTimeOption)
        let attempts = try arguments.value(attemptsOption) ?? 3
        guard let target = try StationTarget.parse(&arguments, url: StationTarget.stationOption) else {
            throw CommandError.usage("say where to upload: --station URL (or COLDTAP_STATION) and --token T (or COLDTAP_TOKEN).")
        }
        let paths = try arguments.positionals()
        try arguments.finish()
        var names: [String: String] = [:]
        for path in paths {
            let content: Data
            if LogInput.isURLArgument(path) {
                content = Data(path.utf8)
            } else {
                content = try InputBytes.read(path, console: console, format: .raw)
            }
            let modified =
                path == "-" || LogInput.isURLArgument(path)
                ? nil
                : (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
            // A file's modification time stands in for an unknown read time, and says so.
            let upload = PendingUpload(
                raw: content, readTime: readTime ?? modified, source: source, loggerID: loggerID,
                readTimeFromFile: readTime == nil && modified != nil)
            do {
                try target.queue.enqueue(upload)
            } catch {
                throw CommandError(.failure, "cannot keep '\(path)' in the upload queue \(target.queue.directory.path): \(error.localizedDescription).")
            }
            names[upload.sha256] = path
        }
        let outcome = await target.send(console: console, attempts: attempts) { names[$0] ?? "queued read \($0.prefix(12))" }
        if outcome.recordInconsistent {
            throw CommandError(
                .dataError, "the station's record no longer holds what it showed before (above); \(outcome.remaining) read(s) wait in the queue.")
        }
        if outcome.credentialsRefused {
            throw CommandError(
                .noPermission,
                "the station refused the token; \(outcome.remaining) read(s) wait in the queue: give a live upload token (--token, COLDTAP_TOKEN) and run 'coldtap push' again."
            )
        }
        if outcome.remaining > 0 {
            throw CommandError(
                .temporaryFailure, "the station did not take every read; \(outcome.remaining) wait in the queue and are sent by the next 'coldtap push'.")
        }
        if outcome.rejected > 0 {
            throw CommandError(.dataError, "the station refused \(outcome.rejected) read(s) (see above).")
        }
    }
}
