import Archive
import ArchiveKit
import Foundation

/// `coldtap export epcis`: a logger's record, or a lot's journey, as one GS1 EPCIS 2.0
/// document (docs/epcis.md).
public enum ExportCommand: Command {
    static let loggerOption = OptionSpec.value("--logger-id", placeholder: "ID", help: "the logger whose record is exported")
    static let lotOption = OptionSpec.value("--lot", placeholder: "LOT", help: "the lot whose journey is exported (instead of --logger-id)")
    static let siteOption = LotCommand.siteOption
    static let samplesOption = OptionSpec.flag(
        "--samples", help: "add every valid sample as a report of its own (default: aggregates per read, the raw read named by its hash)")
    static let outOption = OptionSpec.value("--out", placeholder: "FILE", help: "write the document to FILE instead of standard output", path: true)

    public static let name = "export"
    public static let forms = [
        CommandForm(
            verb: "epcis",
            summary:
                "a logger's record or a lot's journey as a GS1 EPCIS 2.0 JSON-LD document: one ObjectEvent per kept read with its sensor aggregates (alarms as ALARM_CONDITION), or per hand-over of the lot with its decision as disposition and per leg with the leg's aggregates; the event hash as eventID",
            options: [loggerOption] + ArchiveAccess.periodOptions + [samplesOption, lotOption, siteOption, outOption, ArchiveAccess.archiveOption])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        guard arguments.verb == "epcis" else { throw CommandError.usage("say 'export epcis --logger-id ID' or 'export epcis --lot LOT'.") }
        let location = try ArchiveAccess.location(&arguments)
        let named = arguments.value(loggerOption)
        let lot = arguments.value(lotOption)
        let siteName = arguments.value(siteOption)
        let period = try ArchiveAccess.period(&arguments)
        let samples = arguments.isSet(samplesOption)
        let out = arguments.value(outOption)
        try arguments.finish()
        switch (named, lot) {
        case (nil, nil): throw CommandError.usage("name the logger with --logger-id ID ('coldtap loggers' lists them) or the lot with --lot LOT.")
        case (.some, .some): throw CommandError.usage("export a logger (--logger-id) or a lot (--lot), not both at once.")
        case (nil, .some):
            if period.from != nil || period.to != nil || samples {
                throw CommandError.usage("--from, --to and --samples belong to a logger's export; a lot's export is its whole journey.")
            }
        case (.some, nil):
            if siteName != nil { throw CommandError.usage("--site names a lot's site; a logger is named by its id alone.") }
        }
        let archive = try ArchiveAccess.open(location, create: false)
        defer { archive.close() }
        let document: JSONValue
        if let lot {
            document = try await ArchiveAccess.mapping { () -> JSONValue in
                let siteID = try LotCommand.siteID(siteName, lot: lot, in: archive)
                let store = siteID == 0 ? nil : try StationStore(archive: archive)
                let names = try EPCISExport.Names.of(site: try store?.site(id: siteID), in: store)
                return try EPCISExport.lotDocument(.init(lotID: lot, siteID: siteID, names: names), archive: archive)
            }
        } else {
            let loggerID = try await ArchiveAccess.loggerID(named ?? "", in: archive)
            document = try await ArchiveAccess.mapping { () -> JSONValue in
                guard try archive.loggerSummary(loggerID) != nil else {
                    throw ArchiveError(.notFound, "the archive holds no logger '\(loggerID)'.", hint: .listLoggers(count: nil))
                }
                // A station's archive knows each logger's site and its signatures; a plain one has neither.
                let store = try? StationStore(archive: archive)
                let site = try store?.siteID(ofLogger: loggerID).flatMap { try store?.site(id: $0) }
                let signatures = (try? store?.signatures(loggerID: loggerID)) ?? []
                let request = EPCISExport.LoggerRequest(
                    loggerID: loggerID, from: period.from, to: period.to, samples: samples, names: try EPCISExport.Names.of(site: site, in: store))
                return try EPCISExport.loggerDocument(request, archive: archive, signatures: signatures)
            }
        }
        let text = Data((document.serialized() + "\n").utf8)
        if let out {
            try OutputFile.write(text, to: out, what: "the EPCIS document")
        } else {
            console.write(text)
        }
    }
}
