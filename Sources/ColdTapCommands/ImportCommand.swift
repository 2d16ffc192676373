import Archive
import ArchiveKit
import ColdChain
import ColdTapKit
import Foundation
import LoggerFormats

/// `coldtap import DIR`: every read in a folder into the archive, each once — the reports a
/// Berlinger Fridge-tag or Q-tag writes to its USB drive (docs/berlinger.md), or any file
/// `archive add` takes. One line per file; the files that fail do not stop the others.
public enum ImportCommand: Command {
    public static let name = "import"
    public static let forms = [
        CommandForm(
            positionals: "DIR",
            positionalHelp: [
                ("DIR", "a folder of reads, e.g. a Fridge-tag's USB drive (its files, not its subfolders; PDFs and hidden files are passed over)")
            ],
            summary: "keep every read in a folder (Berlinger reports, dumps, NDEF messages) in the archive; a file kept before adds nothing",
            options: [ArchiveAccess.archiveOption, LogInput.loggerTZOption.spec, ReportCommand.profileOption, ReportCommand.tzOption.spec])
    ]

    /// What became of one file.
    enum Outcome {
        case added, alreadyKept, passedOver, failed
    }

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        let profile = try ReportCommand.resolveProfile(arguments.value(ReportCommand.profileOption))
        let timeZone = try arguments.value(ReportCommand.tzOption) ?? .current
        var options = LogInput.Options()
        options.loggerTimeZone = try arguments.value(LogInput.loggerTZOption)
        let folder = try arguments.positionals(min: 1, max: 1, what: "DIR")[0]
        try arguments.finish()
        let files = try filesToImport(in: folder)
        let archive = try ArchiveAccess.open(location, create: true, console: console)
        defer { archive.close() }
        var outcomes: [Outcome] = []
        var firstFailure: CommandError?
        for file in files {
            let shown = file.name.count > 60 ? String(file.name.prefix(57)) + "…" : file.name
            guard file.imported else {
                console.print("\(shown): passed over (a PDF; its report is the .txt beside it)")
                outcomes.append(.passedOver)
                continue
            }
            do {
                let (line, outcome) = try await importFile(
                    file.path, options: options, profile: profile, timeZone: timeZone, archive: archive, console: console)
                console.print("\(shown): \(line)")
                outcomes.append(outcome)
            } catch let error as CommandError {
                console.error("coldtap import: \(file.name): \(error.message)")
                outcomes.append(.failed)
                firstFailure = firstFailure ?? error
            }
        }
        func count(_ outcome: Outcome) -> Int { outcomes.filter { $0 == outcome }.count }
        console.print(
            "\(folder): \(files.count) file\(files.count == 1 ? "" : "s"): \(count(.added)) kept as new reads, \(count(.alreadyKept)) kept before, \(count(.passedOver)) passed over, \(count(.failed)) failed."
        )
        if let firstFailure {
            throw CommandError(
                firstFailure.status,
                "\(count(.failed)) of \(files.count) file(s) in \(folder) were not imported (see above); the others were kept. Fix them and import the folder again: what is kept is not added twice."
            )
        }
    }

    /// The folder's files in name order: hidden files and subfolders left out, PDFs listed to
    /// be passed over (a Berlinger logger writes one beside each text report).
    /// - Throws: `CommandError` (66) for a folder that is not there or cannot be listed.
    static func filesToImport(in folder: String) throws -> [(name: String, path: String, imported: Bool)] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else {
            throw CommandError(.noInput, "there is no folder '\(folder)'.")
        }
        guard isFolder.boolValue else {
            throw CommandError(.noInput, "'\(folder)' is a file, not a folder; keep one file with 'coldtap archive add \(folder)'.")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw CommandError(.noInput, "the folder '\(folder)' cannot be listed (\(error.localizedDescription)).")
        }
        return names.filter { !$0.hasPrefix(".") }.sorted().compactMap { name in
            let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
            var isSubfolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isSubfolder), !isSubfolder.boolValue else { return nil }
            return (name, path, !name.lowercased().hasSuffix(".pdf"))
        }
    }

    /// Decodes one file through the rule book's `newRead` and keeps it.
    /// - Returns: the file's line and what became of it.
    /// - Throws: `CommandError` naming what is wrong with the file, or with the archive.
    static func importFile(
        _ path: String, options: LogInput.Options, profile: Profile, timeZone: TimeZone, archive: Archive, console: Console
    ) async throws -> (String, Outcome) {
        let loaded = try await LogInput.load(path: path, options: options, console: console)
        let content = loaded.sourceBytes
        let decoding = ReadDecoding(loggerTimeZone: options.loggerTimeZone, loggerTimeZoneSource: .given)
        guard
            let read = try await RuleBook.newRead(
                from: .file(content: content, loaded: loaded, origin: "file \(path)", decoding: decoding, loggerID: nil), profile: profile,
                timeZone: timeZone)
        else { return ("nothing to keep", .passedOver) }
        let result: AddResult
        do {
            result = try archive.add(read)
        } catch let error as ArchiveError {
            throw ArchiveAccess.commandError(error)
        }
        if result.alreadyKept { return ("\(result.loggerID) — already kept as read #\(result.readID); nothing added", .alreadyKept) }
        let days = read.log.dailySummaries.map { ", \($0.count) daily summar\($0.count == 1 ? "y" : "ies")" } ?? ""
        return (
            "\(result.loggerID) — read #\(result.readID): \(ArchiveAccess.addLine(result))\(days)"
                + ArchiveAccess.zoneNote(read.decodeOptions) + (result.verdict.map { "; \(profile.name): \($0.rawValue)" } ?? ""),
            .added
        )
    }
}
