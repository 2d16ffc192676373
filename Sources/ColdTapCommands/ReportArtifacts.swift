import ColdChain
import ColdTapKit
import Foundation
import LoggerFormats
import TempChart

/// The files `coldtap report` writes (chart PNG and SVG, report PDF and HTML, samples CSV)
/// and the chart it draws in a terminal.
public enum ReportArtifacts {
    static let outOption = OptionSpec.value(
        "--out", placeholder: "DIR", help: "write the report files into DIR (made when missing), named after the logger",
        default: "no files; with a kind flag alone, the current directory", path: true)
    static let outputOption = OptionSpec.value(
        "-o", "--output", placeholder: "FILE", help: "write one file, FILE; its kind from the one kind flag or FILE's extension",
        path: true)
    static let forceOption = OptionSpec.flag("--force", help: "overwrite existing files (otherwise --out picks a free name and -o refuses)")
    static let pngOption = OptionSpec.flag("--png", help: "write the chart as PNG")
    static let pdfOption = OptionSpec.flag("--pdf", help: "write the audit report as PDF (A4: verdict, chart, then rules, warnings, per day, input)")
    static let svgOption = OptionSpec.flag("--svg", help: "write the chart as SVG")
    static let htmlOption = OptionSpec.flag("--html", help: "write the audit report as one self-contained HTML file")
    static let csvOption = OptionSpec.flag("--csv", help: "the samples as CSV: printed, or a file with --out or -o")
    static let themeOption = OptionSpec.value(
        "--theme", placeholder: "THEME", help: "colours of charts and reports", default: "light", choices: { ["light", "dark"] })
    static let sizeOption = OptionSpec.value(
        "--size", placeholder: "WxH", help: "chart size in pixels for PNG and SVG (200x150 to 8000x8000)", default: "1200x600"
    ).typed(
        OptionValueParser<ChartSize>(
            convert: { text in
                let parts = text.lowercased().split(separator: "x")
                guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
                    (200...8000).contains(width), (150...8000).contains(height)
                else { return nil }
                return ChartSize(width: width, height: height)
            },
            complaint: { name, text in "\(name) '\(text)' is not WIDTHxHEIGHT in pixels (200x150 to 8000x8000), e.g. 1200x600." }))

    /// A chart's size in pixels, as `--size WxH` gives it.
    struct ChartSize: Sendable {
        var width: Int
        var height: Int
    }
    static let langOption = OptionSpec.value(
        "--lang", placeholder: "LANG", help: "language of the report files", default: "en",
        choices: { ReportLanguage.allCases.map(\.rawValue) })

    /// A file kind `coldtap report` can write (ColdTapKit draws them).
    public typealias Kind = ReportFileKind

    /// The chart/report options of `coldtap report`.
    public struct Options: Sendable {
        /// `--out DIR`; nil when not given.
        public var outDirectory: String?
        /// The kinds named (`--png --pdf ...`); empty = all of them.
        public var kinds: Set<Kind>
        public var theme: ChartTheme
        /// Chart size for PNG and SVG, in pixels (`--size WxH`).
        public var width: Int
        public var height: Int
        public var language: ReportLanguage
        /// `-o FILE`: the one file to write (its kind from the one kind flag or its extension).
        public var outputFile: String?
        /// `--force`: overwrite existing files instead of choosing a free name (`--out`) or refusing (`-o`).
        public var force: Bool
        /// The zone of the CSV's times (`--tz`); `nil` writes UTC.
        public var csvTimeZone: TimeZone?
        /// `--sign-with KEY.pem --cert CERT.pem`: the PDF is signed (its identity loaded by `validate()`).
        var signing: ReportSigning?

        public init(
            outDirectory: String? = nil, kinds: Set<Kind> = [], theme: ChartTheme = .light, width: Int = 1200,
            height: Int = 600, language: ReportLanguage = .english, outputFile: String? = nil, force: Bool = false,
            csvTimeZone: TimeZone? = nil
        ) {
            self.outDirectory = outDirectory
            self.kinds = kinds
            self.theme = theme
            self.width = width
            self.height = height
            self.language = language
            self.outputFile = outputFile
            self.force = force
            self.csvTimeZone = csvTimeZone
        }

        /// True when files are wanted: `--out`, `-o` or any kind flag given.
        public var writesFiles: Bool { outDirectory != nil || outputFile != nil || !kinds.isEmpty }

        /// The kinds to write: the ones named, or all when none is named.
        public var chosenKinds: [Kind] { Kind.allCases.filter { kinds.isEmpty || kinds.contains($0) } }

        /// Checks, before anything is read or printed, that the files can go where asked: `--out`
        /// is a directory or can be made one, `-o FILE` names one kind and does not exist
        /// (unless `--force`). Settles the kind of `-o FILE`. Loads the signing key and certificate.
        /// - Throws: `CommandError` (usage) for `-o` with `--out` or without one kind, or signing
        ///   without a PDF; (failure) for a destination that is a file, is not writable, or exists;
        ///   what `ReportSigning.load` throws.
        public mutating func validate() throws {
            if let file = outputFile {
                if outDirectory != nil { throw CommandError.usage("Give --out DIR or -o FILE, not both.") }
                if kinds.isEmpty, let kind = Kind(rawValue: URL(fileURLWithPath: file).pathExtension.lowercased()) {
                    kinds = [kind]
                }
                guard kinds.count == 1 else {
                    throw CommandError.usage("-o FILE writes one file: name one of --png, --pdf, --svg, --html, --csv, or give FILE one of those extensions.")
                }
                if FileManager.default.fileExists(atPath: file) && !force {
                    throw CommandError(.failure, "'\(file)' exists; give --force to overwrite it, or another name.")
                }
                try ReportArtifacts.checkWritableDirectory(URL(fileURLWithPath: file).deletingLastPathComponent().path, what: "the directory of -o")
            } else if writesFiles {
                try ReportArtifacts.checkWritableDirectory(outDirectory ?? ".", what: "the output directory")
            }
            if var signing {
                try signing.requirePDF(writesFiles && chosenKinds.contains(.pdf))
                try signing.load()
                self.signing = signing
            }
        }
    }

    /// A directory that exists and is writable, or that can be made (its nearest existing
    /// ancestor is a writable directory).
    /// - Throws: `CommandError` (failure) saying what is wrong with the path.
    static func checkWritableDirectory(_ path: String, what: String) throws {
        let manager = FileManager.default
        var candidate = URL(fileURLWithPath: path.isEmpty ? "." : path, isDirectory: true).standardizedFileURL
        var isDirectory: ObjCBool = false
        while !manager.fileExists(atPath: candidate.path, isDirectory: &isDirectory) {
            let parent = candidate.deletingLastPathComponent()
            if parent.path == candidate.path { break }
            candidate = parent
        }
        guard isDirectory.boolValue else {
            throw CommandError(
                .failure,
                "\(what.prefix(1).uppercased() + what.dropFirst()) '\(path)' is not a directory ('\(candidate.path)' is a file); give a directory (it is created when missing)."
            )
        }
        guard manager.isWritableFile(atPath: candidate.path) else {
            throw CommandError(
                .failure,
                "\(what.prefix(1).uppercased() + what.dropFirst()) '\(path)' cannot be written ('\(candidate.path)' is not writable); check the permissions.")
        }
    }

    /// The report file options of `report` and `read`.
    public static let optionSpecs: [OptionSpec] =
        [
            outOption,
            outputOption,
            forceOption,
            pngOption,
            pdfOption,
            svgOption,
            htmlOption,
            csvOption,
            themeOption,
            sizeOption.spec,
            langOption,
        ] + ReportSigning.optionSpecs

    /// Each kind of file and the flag that asks for it.
    static let kindOptions: [(Kind, OptionSpec)] = [(.png, pngOption), (.pdf, pdfOption), (.svg, svgOption), (.html, htmlOption), (.csv, csvOption)]

    /// Takes `--out DIR --png --pdf --svg --html --csv --theme light|dark --size WxH
    /// --lang en|zh-Hans|ja --sign-with KEY.pem --cert CERT.pem --sign-reason TEXT` from `arguments`.
    /// - Throws: `CommandError` (usage) for an unknown theme or language, a bad size, or a
    ///   signing key without its certificate (or the other way round).
    public static func parseOptions(_ arguments: inout Arguments) throws -> Options {
        var options = Options()
        options.outDirectory = arguments.value(outOption)
        for (kind, option) in kindOptions where arguments.isSet(option) { options.kinds.insert(kind) }
        if let name = arguments.value(themeOption) {
            guard let theme = ChartTheme.named(name) else {
                throw CommandError.usage("--theme '\(name)' is unknown; use light or dark.")
            }
            options.theme = theme
        }
        if let size = try arguments.value(sizeOption) {
            options.width = size.width
            options.height = size.height
        }
        if let code = arguments.value(langOption) {
            guard let language = ReportLanguage(languageTag: code) else {
                throw CommandError.usage("--lang '\(code)' is unknown; use en, zh-Hans or ja (or a tag of one of them: en-GB, zh, zh-CN, ja-JP).")
            }
            options.language = language
        }
        options.outputFile = arguments.value(outputOption)
        options.force = arguments.isSet(forceOption)
        options.signing = try ReportSigning.parse(&arguments)
        return options
    }

    /// Writes the chosen files into `options.outDirectory` (created if needed; the current
    /// directory when only kind flags are given), named after `inputName`, and prints each
    /// path (to standard error when `pathsToStandardError`, so JSON output stays clean).
    /// The files are drawn by ColdTapKit's `ReportRendering`; the PDF is signed at `now` when
    /// `options.signing` says so.
    /// - Returns: the files written, in the order of `Kind.allCases`.
    /// - Throws: `CommandError` (failure) when a file cannot be written; (unavailable) when
    ///   PNG/PDF are asked for on a build with neither; what `ReportSigning.sign` throws.
    @discardableResult
    public static func write(
        log: TemperatureLog, assessment: Assessment, options: Options, input: ReportAudit.InputFile? = nil,
        archive: ReportArchiveSection? = nil, signatures: [ReportSignature] = [], console: Console, pathsToStandardError: Bool = false,
        now: Date = Date()
    ) throws -> [URL] {
        let directory =
            options.outputFile.map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
            ?? URL(fileURLWithPath: options.outDirectory ?? ".", isDirectory: true)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw CommandError(.failure, "The output directory '\(directory.path)' is a file; give --out a directory (it is created when missing).")
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandError(.failure, "Cannot create the output directory '\(directory.path)': check the path and permissions.")
        }
        let stem = ReportRendering.fileStem(log)
        /// The file for a kind: `-o FILE`, or `stem` + its suffix in the directory, with `-2`, `-3`, …
        /// before the extension when that name is taken (unless `--force`).
        func destination(_ kind: Kind) -> URL {
            if let file = options.outputFile { return URL(fileURLWithPath: file) }
            let first = directory.appendingPathComponent(stem + kind.fileSuffix)
            guard !options.force else { return first }
            let ext = first.pathExtension
            let base = String((stem + kind.fileSuffix).dropLast(ext.count + 1))
            var url = first
            var number = 2
            while FileManager.default.fileExists(atPath: url.path) {
                url = directory.appendingPathComponent("\(base)-\(number).\(ext)")
                number += 1
            }
            return url
        }
        let rendering = ReportRendering(
            theme: options.theme, width: options.width, height: options.height,
            language: options.language, csvTimeZone: options.csvTimeZone)
        let subject = ReportRendering.Subject(log: log, assessment: assessment, input: input, archive: archive, signatures: signatures, generated: now)
        var written: [URL] = []
        var signing = options.signing
        for kind in options.chosenKinds {
            let url = destination(kind)
            let bytes: Data
            do {
                bytes = try rendering.render(kind, of: subject)
            } catch let error as ReportRenderingUnavailable {
                throw CommandError(.unavailable, "\(error); use \(kind == .png ? "--svg or --html" : "--html").")
            } catch {
                throw CommandError(.failure, "Cannot draw the \(kind.rawValue.uppercased()) file: \(error).")
            }
            let file = kind == .pdf ? try signing?.sign(bytes, at: now) ?? bytes : bytes
            try OutputFile.write(file, to: url.path, what: "the \(kind.rawValue.uppercased()) file")
            written.append(url)
            if pathsToStandardError { console.error(url.path) } else { console.print(url.path) }
        }
        return written
    }

    /// Draws the curve with its limits in braille, fitting `console.terminalColumns`
    /// (80 when unknown), when standard output is a terminal; does nothing otherwise.
    public static func drawTerminalChart(log: TemperatureLog, assessment: Assessment, console: Console) {
        guard console.outputIsTerminal else { return }
        let columns = max(24, console.terminalColumns ?? 80)
        let text = TerminalChart.render(
            series: ChartSeries(log: log), lower: assessment.band.low?.limit,
            upper: assessment.band.high?.limit,
            excursions: assessment.excursions.map(ChartExcursion.init), width: columns,
            rows: columns >= 100 ? 14 : 10, timeZone: assessment.timeZone, color: true)
        console.write(Data(text.utf8))
    }
}
