import Archive
import ArchiveKit
import ColdChain
import ColdTapKit
import Foundation
import TempChart

/// `coldtap products`: the built-in products in words, as product files, or the format.
public enum ProductsCommand: Command {
    static let jsonOption = OptionSpec.flag("--json", help: "print them as product files (a start for a product of your own)")
    static let schemaOption = OptionSpec.flag("--schema", help: "explain every field of a product .json file, with an example")

    public static let name = "products"
    public static let forms = [
        CommandForm(
            summary: "list the built-in products and their stability data, or document the product .json format",
            options: [jsonOption, schemaOption])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let json = arguments.isSet(jsonOption)
        let schema = arguments.isSet(schemaOption)
        _ = try arguments.positionals(max: 0)
        try arguments.finish()
        if json && schema { throw CommandError.usage("Give --json or --schema, not both.") }
        if schema {
            console.print(productSchema)
        } else if json {
            console.print("[\n" + Product.builtIn.map(\.jsonText).joined(separator: ",\n") + "]")
        } else {
            console.print(Product.builtIn.map(text).joined(separator: "\n\n"))
        }
    }

    /// A product in words: name, summary, and a line per piece of stability data.
    static func text(_ product: Product) -> String {
        var lines = [product.name]
        if !product.summary.isEmpty { lines.append("  " + product.summary) }
        if let gtin = product.gtin { lines.append("  GTIN \(gtin)") }
        if let storage = product.storage { lines.append("  storage: \(storage)") }
        for band in product.allowances {
            lines.append("  allows \(ColdChainFormat.duration(band.seconds)) in total at \(band.name)")
        }
        for limit in product.discard { lines.append("  DISCARD at once when a sample is \(limit)") }
        if let kinetics = product.kinetics {
            lines.append(
                "  kinetics\(kinetics.model.map { " (\($0))" } ?? ""): life \(ColdChainFormat.temperature(kinetics.hot.days)) days at \(ColdChainFormat.temperature(kinetics.hot.celsius)) °C, \(ColdChainFormat.temperature(kinetics.cold.days)) days at \(ColdChainFormat.temperature(kinetics.cold.celsius)) °C (Arrhenius between and beyond)"
            )
        }
        lines.append("  REVIEW from \(LotReason.fraction(product.reviewThreshold)) of the budget consumed, DISCARD from 1")
        return lines.joined(separator: "\n")
    }

    static let productSchema = """
        A product file is JSON (docs/stability.md explains the model):

        {
          "name": "clinic-vaccine",
          "summary": "optional text",
          "gtin": "09506000134352",
          "storage": {"min": 2, "max": 8},
          "allowances": [{"above": 8, "upTo": 25, "hours": 72}, {"above": 25, "upTo": 30, "hours": 12}],
          "discard": [{"atOrBelow": 0}, {"above": 30}],
          "kinetics": "vvm14",
          "reviewThreshold": 0.8
        }

        name             1 to 64 letters, digits, '.', '_' or '-' (not a built-in product's name)
        summary          optional text
        gtin             optional GS1 trade item number (8, 12, 13 or 14 digits, check digit checked):
                         names the product's lots in EPCIS exports ('coldtap export epcis --lot')
        storage          optional {"min": °C, "max": °C}: where the product is kept (informational)
        allowances       time allowed in bands outside storage, summed over the journey; each band has
                         a lower edge "above" (>) or "atOrAbove" (≥), an upper edge "upTo" (≤) or
                         "below" (<), either may be left out, and one of "days", "hours", "minutes",
                         "seconds". Bands must not overlap. consumed = Σ time in band ÷ its allowance.
        discard          limits that end the lot at once: each one of "above", "atOrAbove", "below",
                         "atOrBelow" with a temperature in °C
        kinetics         a built-in model (vvm30, vvm14, vvm7, vvm2) or
                         {"points": [{"celsius": 37, "days": 14}, {"celsius": 25, "days": 90}]}:
                         ln(life) linear in 1/T (kelvin); consumed = Σ Δt ÷ life(T), storage included
        reviewThreshold  the consumed fraction from which a lot needs REVIEW (0 < x ≤ 1; 0.8)

        At least one of allowances, discard, kinetics. With both allowances and kinetics the larger
        consumed fraction decides. Unknown keys are refused, naming the field.
        """
}

/// `coldtap product add|list`: the products registered in the archive.
public enum ProductCommand: Command {
    static let byOption = OptionSpec.value("--by", placeholder: "NAME", help: "who registers the product", required: true)
    static let jsonOption = OptionSpec.flag("--json", help: "print them as JSON")

    public static let name = "product"
    public static let abstract = "the products whose stability data the archive keeps for its lots"
    public static let forms = [
        CommandForm(
            verb: "add", positionals: "FILE", positionalHelp: [("FILE", "a product .json file ('coldtap products --schema')")],
            summary: "register a product's stability data in the archive (a name taken gets its next version)",
            options: [byOption, ArchiveAccess.archiveOption]),
        CommandForm(
            verb: "list", summary: "list the products the archive knows: registered ones, then the built-in ones",
            options: [jsonOption, ArchiveAccess.archiveOption]),
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        if arguments.verb == "add" {
            guard let by = arguments.value(byOption), !by.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw CommandError.usage("say who registers the product with --by NAME.")
            }
            let path = try arguments.positionals(min: 1, max: 1, what: "FILE")[0]
            try arguments.finish()
            let text = String(decoding: try InputBytes.read(path, console: console), as: UTF8.self)
            do {
                _ = try Product.fromJSON(Data(text.utf8))
            } catch {
                throw CommandError(.dataError, "\(path): \(error) See 'coldtap products --schema'.")
            }
            let archive = try ArchiveAccess.open(location, create: true, console: console)
            defer { archive.close() }
            let stored = try await ArchiveAccess.mapping { try archive.addProduct(json: text, addedBy: by) }
            console.print("Registered product '\(stored.name)' v\(stored.version) (SHA-256 \(stored.sha256)).")
            return
        }
        let json = arguments.isSet(jsonOption)
        _ = try arguments.positionals(max: 0)
        try arguments.finish()
        let archive = try ArchiveAccess.open(location, create: true, console: console)
        defer { archive.close() }
        let products = try await ArchiveAccess.mapping { try archive.products() }
        if json {
            console.print(JSONValue.object([("products", .array(products.map(LotJSON.product)))]).serialized())
        } else {
            console.print(
                ReportCommand.table(
                    products.map { [$0.name, $0.version == 0 ? "built-in" : "v\($0.version)", $0.product?.summary ?? ""] },
                    header: ["name", "version", "summary"], rightAligned: []
                ).joined(separator: "\n"))
        }
    }
}

/// `coldtap lot add|move|close|status|list`: lots of product and their journeys.
public enum LotCommand: Command {
    static let productOption = OptionSpec.value("--product", placeholder: "NAME", help: "the product ('coldtap product list')")
    static let quantityOption = OptionSpec.value("--quantity", placeholder: "N", help: "how many units the lot holds").typed(
        .whole(0...Int64.max) { name, text in "\(name) '\(text)' is not a whole number of units." })
    static let noteOption = OptionSpec.value("--note", placeholder: "TEXT", help: "a note kept with the lot")
    static let byOption = OptionSpec.value("--by", placeholder: "NAME", help: "who records it")
    static let loggerOption = OptionSpec.value("--logger", placeholder: "LOGGER-ID", help: "the logger the lot travels with from --at")
    static let noneOption = OptionSpec.flag("--none", help: "from --at nobody logs the lot (unknown exposure)")
    static let atOption = OptionSpec.value("--at", placeholder: "TIME", help: "when the hand-over happened (ISO 8601)").typed(
        .time("is not an ISO 8601 time with a zone; write it like 2026-03-02T08:00:00Z."))
    static let closeAtOption = atOption.helping("when the journey ended (ISO 8601)")
    static let statusAtOption = atOption.helping("the time of the status (ISO 8601)", default: "now")
    static let placeOption = OptionSpec.value("--place", placeholder: "TEXT", help: "where it happened")
    static let reasonOption = OptionSpec.value(
        "--reason", placeholder: "REASON", help: "why the journey ends", choices: { LotMoveRecord.CloseReason.allCases.map(\.rawValue) })
    static let siteOption = OptionSpec.value(
        "--site", placeholder: "NAME", help: "the station site whose lot it is", default: "the archive's own lot, else the one site that keeps LOT")
    static let addSiteOption = siteOption.helping("the station site that keeps the lot", default: "the archive's own lots")
    static let listSiteOption = siteOption.helping("list that station site's lots", default: "the archive's own lots")
    static let jsonOption = OptionSpec.flag("--json", help: "print JSON")

    public static let name = "lot"
    public static let abstract = "lots of product: keep them, record their hand-overs and closes, judge and report their stability budget"
    static let lotHelp = [("LOT", "the lot's name: 1 to 64 letters, digits, '.', '_' or '-'")]
    public static let forms = [
        CommandForm(
            verb: "add", positionals: "LOT", positionalHelp: lotHelp, summary: "keep a new lot of a product",
            options: [productOption, quantityOption.spec, noteOption, byOption, addSiteOption, ArchiveAccess.archiveOption]),
        CommandForm(
            verb: "move", positionals: "LOT", positionalHelp: lotHelp,
            summary: "record a hand-over: from --at the lot is exposed to what --logger records (--none: to nobody's record)",
            options: [loggerOption, noneOption, atOption.spec, placeOption, byOption, siteOption, ArchiveAccess.archiveOption]),
        CommandForm(
            verb: "close", positionals: "LOT", positionalHelp: lotHelp, summary: "end the lot's journey (used, discarded, returned)",
            options: [closeAtOption.spec, reasonOption, placeOption, byOption, siteOption, ArchiveAccess.archiveOption]),
        CommandForm(
            verb: "status", positionals: "LOT", positionalHelp: lotHelp,
            summary: "the stability budget the lot consumed over its journey and the decision: USABLE, REVIEW, DISCARD or INCONCLUSIVE",
            options: [statusAtOption.spec, jsonOption, siteOption, ReportCommand.tzOption.spec, ArchiveAccess.archiveOption]),
        CommandForm(
            verb: "list", summary: "the lots with their decision now, worst first", options: [jsonOption, listSiteOption, ArchiveAccess.archiveOption]),
        CommandForm(
            verb: "report", positionals: "LOT", positionalHelp: lotHelp,
            summary: "the lot report for the reviewer's signature: decision, budget, every leg with its logger's curve and chain of reads",
            options: [
                reportPDFOption, reportHTMLOption, ReportArtifacts.outOption, ReportArtifacts.outputOption, ReportArtifacts.forceOption,
                ReportArtifacts.langOption, ReportArtifacts.themeOption, statusAtOption.spec, siteOption, ReportCommand.tzOption.spec,
                ArchiveAccess.archiveOption,
            ] + ReportSigning.optionSpecs),
    ]
    static let reportPDFOption = OptionSpec.flag("--pdf", help: "write the PDF (A4)")
    static let reportHTMLOption = OptionSpec.flag("--html", help: "write one self-contained HTML file")

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        let siteName = arguments.value(siteOption)
        switch arguments.verb {
        case "add":
            let lot = try arguments.positionals(min: 1, max: 1, what: "LOT")[0]
            guard let product = arguments.value(productOption) else {
                throw CommandError.usage("name the lot's product with --product NAME ('coldtap product list').")
            }
            let by = try who(&arguments)
            let quantity = try arguments.value(quantityOption)
            let note = arguments.value(noteOption) ?? ""
            try arguments.finish()
            try await withArchive(location, siteName, console: console) { archive, siteID in
                let kept = try archive.addLot(lot, siteID: siteID, productName: product, quantity: quantity, note: note, by: by)
                console.print(
                    "Kept lot '\(kept.id)' of \(kept.productName) (\(kept.productVersion == 0 ? "built-in" : "v\(kept.productVersion)")); record its hand-overs with 'coldtap lot move \(kept.id) --logger LOGGER-ID --at TIME'."
                )
            }
        case "move", "close":
            let lot = try arguments.positionals(min: 1, max: 1, what: "LOT")[0]
            let by = try who(&arguments)
            guard let at = try arguments.value(atOption) else { throw CommandError.usage("say when with --at TIME (ISO 8601, e.g. 2026-03-02T08:00:00Z).") }
            var kind = LotMoveRecord.Kind.close
            var logger: String?
            var reason: LotMoveRecord.CloseReason?
            if arguments.verb == "move" {
                logger = arguments.value(loggerOption)
                let none = arguments.isSet(noneOption)
                guard (logger == nil) == none else {
                    throw CommandError.usage("give the lot's logger with --logger LOGGER-ID, or --none when nobody logs it; not both.")
                }
                kind = none ? .none : .logger
            } else {
                guard let text = arguments.value(reasonOption), let given = LotMoveRecord.CloseReason(rawValue: text) else {
                    throw CommandError.usage("say why the journey ends with --reason used, discarded or returned.")
                }
                reason = given
            }
            let place = arguments.value(placeOption) ?? ""
            try arguments.finish()
            try await withArchive(location, siteName, lot: lot, console: console) { archive, siteID in
                let named = logger
                if let named { logger = try await ArchiveAccess.loggerID(named, in: archive) }
                let request = LotMoveRequest(
                    lotID: lot, siteID: siteID, kind: kind, loggerID: logger, at: at, reason: reason, place: place, by: by, origin: "command line")
                let move: LotMoveRecord
                do {
                    move = try RuleBook.moveLot(request, archive: archive)
                } catch LotMoveError.noSuchLot(let lotID) {
                    throw ArchiveError(.notFound, "there is no lot '\(lotID.prefix(80))'.", hint: .listLots)
                } catch LotMoveError.noSuchLogger {
                    // The site may have been found from the lot's name rather than given.
                    let site = siteName ?? (try? StationStore(archive: archive).site(id: siteID)?.name) ?? "#\(siteID)"
                    throw CommandError(.dataError, "the site '\(site)' holds no logger '\(named ?? "")'.")
                }
                switch move.kind {
                case .logger: console.print("Lot '\(lot)' travels with \(move.loggerID ?? "") from \(move.at.isoUTC) (move #\(move.seq), by \(by)).")
                case .none:
                    console.print("Lot '\(lot)' is with nobody's logger from \(move.at.isoUTC): that time counts as unknown (move #\(move.seq), by \(by)).")
                case .close: console.print("Lot '\(lot)' closed at \(move.at.isoUTC): \(move.reason?.rawValue ?? "") (move #\(move.seq), by \(by)).")
                }
            }
        case "report":
            try await report(&arguments, location: location, siteName: siteName, console: console)
        case "status":
            let lot = try arguments.positionals(min: 1, max: 1, what: "LOT")[0]
            let at = try arguments.value(atOption)
            let json = arguments.isSet(jsonOption)
            let timeZone = try arguments.value(ReportCommand.tzOption) ?? .current
            try arguments.finish()
            try await withArchive(location, siteName, lot: lot, console: console) { archive, siteID in
                let journey = try archive.lotJourney(lot, siteID: siteID, at: at)
                console.print(json ? LotJSON.status(journey.status).serialized() : text(journey, timeZone: timeZone))
            }
        default:
            let json = arguments.isSet(jsonOption)
            _ = try arguments.positionals(max: 0)
            try arguments.finish()
            try await withArchive(location, siteName, console: console) { archive, siteID in
                let sorted = try RuleBook.judgedLots(site: siteID, archive: archive)
                if json {
                    console.print(
                        JSONValue.object([
                            (
                                "lots",
                                .array(
                                    sorted.map { LotJSON.listed($0.lot, status: $0.status) })
                            )
                        ]).serialized())
                } else {
                    console.print(
                        ReportCommand.table(
                            sorted.map {
                                [$0.lot.id, $0.lot.productName, $0.status.decision.rawValue, LotReason.fraction($0.status.consumed), "\($0.status.legs.count)"]
                            },
                            header: ["lot", "product", "decision", "consumed", "legs"], rightAligned: [3, 4]
                        ).joined(separator: "\n"))
                    if siteID == 0, let note = try siteLotsNote(in: archive) { console.print("\n" + note) }
                }
            }
        }
    }

    /// `lot report`: the files asked for (both kinds when neither flag is given), into `--out`
    /// (the current directory) named after the lot, or `-o FILE`.
    static func report(_ arguments: inout Arguments, location: String, siteName: String?, console: Console) async throws {
        let lot = try arguments.positionals(min: 1, max: 1, what: "LOT")[0]
        var kinds = [(LotReportFileKind.pdf, reportPDFOption), (.html, reportHTMLOption)].filter { arguments.isSet($0.1) }.map(\.0)
        let output = arguments.value(ReportArtifacts.outputOption)
        if kinds.isEmpty {
            if let output, let kind = LotReportFileKind(rawValue: URL(fileURLWithPath: output).pathExtension.lowercased()) {
                kinds = [kind]
            } else {
                kinds = output == nil ? LotReportFileKind.allCases : []
            }
        }
        if output != nil && kinds.count != 1 { throw CommandError.usage("-o FILE writes one file: give --pdf or --html, or a FILE ending in .pdf or .html.") }
        let directory = URL(fileURLWithPath: arguments.value(ReportArtifacts.outOption) ?? ".", isDirectory: true)
        let force = arguments.isSet(ReportArtifacts.forceOption)
        let languageText = arguments.value(ReportArtifacts.langOption) ?? "en"
        guard let language = ReportLanguage(rawValue: languageText) else { throw CommandError.usage("--lang '\(languageText)' is not a report language.") }
        let theme: ChartTheme = arguments.value(ReportArtifacts.themeOption) == "dark" ? .dark : .light
        let at = try arguments.value(atOption)
        let timeZone = try arguments.value(ReportCommand.tzOption) ?? .current
        var signing = try ReportSigning.parse(&arguments)
        try arguments.finish()
        try signing?.requirePDF(kinds.contains(.pdf))
        try signing?.load()
        try await withArchive(location, siteName, lot: lot, console: console) { archive, siteID in
            let journey = try archive.lotJourney(lot, siteID: siteID, at: at)
            let content = try LotReportContent.fromArchive(journey, archive: archive, timeZone: timeZone, language: language)
            let now = Date()
            for kind in kinds {
                var url = output.map { URL(fileURLWithPath: $0) } ?? directory.appendingPathComponent(LotReportRendering.fileStem(lot: lot) + kind.fileSuffix)
                if FileManager.default.fileExists(atPath: url.path), !force {
                    guard output == nil else { throw CommandError(.failure, "'\(url.path)' exists; give --force to overwrite it.") }
                    let base = url.deletingPathExtension().path
                    var number = 2
                    while FileManager.default.fileExists(atPath: url.path) {
                        url = URL(fileURLWithPath: "\(base)-\(number).\(kind.rawValue)")
                        number += 1
                    }
                }
                do {
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    let bytes = try LotReportRendering(theme: theme).render(kind, content)
                    try OutputFile.write(
                        kind == .pdf ? try signing?.sign(bytes, at: now) ?? bytes : bytes, to: url.path, what: "the \(kind.rawValue.uppercased()) file")
                } catch let error as ReportRenderingUnavailable {
                    throw CommandError(.unavailable, "\(error); use --html.")
                } catch let error as CommandError {
                    throw error
                } catch {
                    throw CommandError(.failure, "Cannot write '\(url.path)': \(error). Check the directory and free space.")
                }
                console.print(url.path)
            }
        }
    }

    static func who(_ arguments: inout Arguments) throws -> String {
        guard let by = arguments.value(byOption), !by.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw CommandError.usage("say who records it with --by NAME.")
        }
        return by
    }

    /// Opens the archive and finds the site (0 for the archive's own lots); archive errors
    /// become the command line's. Without `--site`, a `lot` the archive's own lots do not
    /// hold but exactly one site's do is that site's lot (issue 44 item 1).
    static func withArchive(
        _ location: String, _ siteName: String?, lot: String? = nil, console: Console, _ body: (Archive, Int64) async throws -> Void
    ) async throws {
        let archive = try ArchiveAccess.open(location, create: true, console: console)
        defer { archive.close() }
        try await ArchiveAccess.mapping { try await body(archive, try siteID(siteName, lot: lot, in: archive)) }
    }

    /// The site named by `--site` (0 for the archive's own lots); without one, a `lot` the
    /// archive's own lots do not hold but exactly one site's do is that site's lot.
    static func siteID(_ siteName: String?, lot: String?, in archive: Archive) throws -> Int64 {
        if let siteName {
            guard let site = try StationStore(archive: archive).site(named: siteName) else {
                throw ArchiveError(.notFound, "the archive \(archive.engine.location) has no site '\(siteName)'.", hint: .listSites)
            }
            return site.id
        }
        if let lot, try archive.lot(lot, siteID: 0) == nil { return try siteKeeping(lot, in: archive) ?? 0 }
        return 0
    }

    /// The one site whose lots hold `lot`; `nil` when none does (the archive then says there
    /// is no such lot).
    /// - Throws: a usage error naming the sites when more than one does.
    static func siteKeeping(_ lot: String, in archive: Archive) throws -> Int64? {
        let sites = try StationStore(archive: archive).sites().filter { try archive.lot(lot, siteID: $0.id) != nil }
        guard sites.count > 1 else { return sites.first?.id }
        let names = sites.map { "'\($0.name)'" }
        throw CommandError.usage(
            "the sites \(names.dropLast().joined(separator: ", ")) and \(names.last ?? "") each keep a lot '\(lot)'; say which with --site NAME.")
    }

    /// The line under an archive's own lots that says which sites keep lots of their own,
    /// so that a station's lots are found without guessing; `nil` when no site keeps any.
    static func siteLotsNote(in archive: Archive) throws -> String? {
        let counts = try StationStore(archive: archive).sites().compactMap { site -> String? in
            let count = try archive.lots(siteID: site.id).count
            return count == 0 ? nil : "\(site.name) (\(count))"
        }
        guard !counts.isEmpty else { return nil }
        return "Sites keep lots too: \(counts.joined(separator: ", ")); 'coldtap lot list --site NAME' lists a site's."
    }

    /// The status in words, times in `timeZone`.
    static func text(_ journey: LotJourney, timeZone: TimeZone) -> String {
        let status = journey.status
        let lot = journey.lot
        var lines = [
            "Lot \(lot.id) of \(lot.productName) (\(lot.productVersion == 0 ? "built-in" : "v\(lot.productVersion)"))\(lot.quantity.map { ", \($0) units" } ?? ""), as of \(ColdChainFormat.time(status.at, in: timeZone)): \(status.decision.rawValue)"
        ]
        lines.append(
            "Consumed \(LotReason.fraction(status.consumed)) of the stability budget (by the \(status.consumedBy == .kinetics ? "kinetic model" : "allowances")); "
                + "\(ColdChainFormat.duration(status.unknownSeconds)) unknown, at worst \(LotReason.fraction(status.worstCaseConsumed)).")
        if !status.bands.isEmpty {
            lines.append("")
            lines += ReportCommand.table(
                status.bands.map {
                    [
                        $0.band, ColdChainFormat.duration($0.seconds), ColdChainFormat.duration($0.allowanceSeconds),
                        LotReason.fraction($0.seconds / $0.allowanceSeconds),
                    ]
                }, header: ["band", "time", "allowed", "consumed"], rightAligned: [1, 2, 3])
        }
        if let kinetics = status.kineticsConsumed { lines.append("Kinetics: \(LotReason.fraction(kinetics)) of the product's life consumed.") }
        lines.append("")
        lines += ReportCommand.table(
            status.legs.enumerated().map { index, leg in
                [
                    "\(index + 1)", leg.logger ?? "(no logger)", ColdChainFormat.time(leg.from, in: timeZone), ColdChainFormat.time(leg.to, in: timeZone),
                    LotReason.fraction(leg.consumed), ColdChainFormat.duration(leg.unknownSeconds),
                ]
            }, header: ["leg", "logger", "from", "to", "consumed", "unknown"], rightAligned: [0, 4, 5])
        lines.append("")
        lines += status.reasons.map { "- " + $0.english(in: timeZone) }
        lines.append("")
        lines.append("Chain head: \(journey.chainHead)")
        return lines.joined(separator: "\n")
    }
}
