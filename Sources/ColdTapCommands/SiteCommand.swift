import Archive
import ArchiveKit
import ColdTapBase
import Foundation
import JSONOutput
import Station

/// `coldtap site add|list|set|identify`.
public enum SiteCommand: Command {
    static let jsonOption = OptionSpec.flag("--json", help: "with list: print the sites as JSON")
    static let loggerTZOption = OptionSpec.value(
        "--logger-tz", placeholder: "ZONE",
        help:
            "with set: the zone of the site's loggers' clocks whose dates carry none (Berlinger reports); an upload without \(UploadHeader.loggerTimeZone) is read in it"
    ).typed(.strictZone)
    static let locationOption = OptionSpec.value(
        "--location", placeholder: "URI", help: "with identify: the site as a place in EPCIS exports (an SGLN, a GLN's Digital Link, any URI)")
    static let loggerOption = OptionSpec.value("--logger", placeholder: "ID", help: "with identify: the site's logger that --device names")
    static let deviceOption = OptionSpec.value("--device", placeholder: "URI", help: "with identify: the logger as a device in EPCIS exports (a GIAI, any URI)")
    static let byOption = OptionSpec.value("--by", placeholder: "NAME", help: "with identify: who sets it")

    public static let name = "site"
    public static let forms = [
        CommandForm(
            positionals: "add NAME | list | set NAME | identify NAME", positionalHelp: [("NAME", "the site's name, e.g. clinic-north")],
            summary:
                "add a site of the station, or list them; loggers join a site on their first upload by it. set: the zone of its loggers' clocks (Berlinger reports). identify: the URIs EPCIS exports name the site and its loggers by (without options, print them)",
            options: [jsonOption, loggerTZOption.spec, locationOption, loggerOption, deviceOption, byOption, ArchiveAccess.archiveOption])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        let json = arguments.isSet(jsonOption)
        let loggerZone = try arguments.value(loggerTZOption)
        let place = arguments.value(locationOption)
        let logger = arguments.value(loggerOption)
        let device = arguments.value(deviceOption)
        let by = arguments.value(byOption)
        let words = try arguments.positionals(min: 1, max: 2, what: "add NAME, list, set NAME or identify NAME")
        try arguments.finish()
        if words[0] != "set", loggerZone != nil { throw CommandError.usage("--logger-tz applies to 'site set NAME' only.") }
        if words[0] == "identify", words.count == 2 {
            try await identify(words[1], place: place, logger: logger, device: device, by: by, location: location, console: console)
            return
        }
        if place != nil || logger != nil || device != nil || by != nil {
            throw CommandError.usage("--location, --logger, --device and --by belong to 'site identify NAME'.")
        }
        try await StationAdmin.with(location, create: words[0] == "add", console: console) { store in
            switch (words[0], words.count) {
            case ("add", 2):
                let name = words[1]
                guard !name.isEmpty, name.count <= 100, !name.contains(where: { $0.isNewline }) else {
                    throw CommandError.usage("a site name is 1 to 100 characters on one line.")
                }
                let site = try store.addSite(name)
                console.print("Added site '\(site.name)' (#\(site.id)); make its tokens with 'coldtap token create --site \(site.name) --scope upload'.")
            case ("set", 2):
                guard let loggerZone else { throw CommandError.usage("say what to set: 'site set \(words[1]) --logger-tz ZONE'.") }
                guard let site = try store.site(named: words[1]) else {
                    throw CommandError(.failure, "there is no site '\(words[1])'; add it with 'coldtap site add \(words[1])'.")
                }
                let kept = try store.setLoggerTimeZone(
                    ArchivedReads.zoneText(loggerZone), siteID: site.id, setBy: SiteProfileCommand.operatingSystemUser())
                console.print(
                    "Site '\(site.name)': its loggers' clocks run in \(kept.zone) (setting #\(kept.setting), by \(kept.setBy)); uploads without \(UploadHeader.loggerTimeZone) are read in it from now on."
                )
            case ("list", 1):
                let sites = try store.sites()
                let zones = try Dictionary(uniqueKeysWithValues: sites.map { ($0.id, try store.loggerTimeZone(siteID: $0.id)) })
                if json {
                    console.print(
                        JSONValue.object([
                            (
                                "sites",
                                .array(
                                    sites.map { site in
                                        var members: [(String, JSONValue)] = [
                                            ("id", .int(Int(site.id))), ("name", .string(site.name)), ("created", .string(site.created.isoUTC)),
                                        ]
                                        if let zone = zones[site.id] ?? nil {
                                            members.append(
                                                (
                                                    "loggerTimeZone",
                                                    .object([("zone", .string(zone.zone)), ("set", .string(zone.set.isoUTC)), ("setBy", .string(zone.setBy))])
                                                ))
                                        }
                                        return .object(members)
                                    })
                            )
                        ]).serialized())
                } else if zones.values.contains(where: { $0 != nil }) {
                    console.print(
                        ReportCommand.table(
                            sites.map { [String($0.id), $0.name, $0.created.isoUTC, (zones[$0.id] ?? nil)?.zone ?? "-"] },
                            header: ["id", "name", "created", "logger zone"], rightAligned: [0]
                        ).joined(separator: "\n"))
                } else {
                    console.print(
                        ReportCommand.table(
                            sites.map { [String($0.id), $0.name, $0.created.isoUTC] },
                            header: ["id", "name", "created"], rightAligned: [0]
                        ).joined(separator: "\n"))
                }
            default:
                throw CommandError.usage("say 'site add NAME', 'site list', 'site set NAME --logger-tz ZONE' or 'site identify NAME'.")
            }
        }
    }

    /// `site identify NAME [--location URI] [--logger ID --device URI] --by NAME`: sets what
    /// is given, then prints what the site's exports name it and its loggers by.
    static func identify(
        _ siteName: String, place: String?, logger: String?, device: String?, by: String?, location: String, console: Console
    ) async throws {
        guard (logger == nil) == (device == nil) else { throw CommandError.usage("give --logger ID and --device URI together.") }
        let setting = place != nil || device != nil
        if setting, by?.trimmingCharacters(in: .whitespaces).isEmpty ?? true { throw CommandError.usage("say who sets it with --by NAME.") }
        let archive = try ArchiveAccess.open(location, create: false)
        defer { archive.close() }
        try await ArchiveAccess.mapping {
            let store = try StationStore(archive: archive)
            guard let site = try store.site(named: siteName) else {
                throw ArchiveError(.notFound, "the archive \(archive.engine.location) has no site '\(siteName.prefix(100))'.", hint: .listSites)
            }
            if let place { try EPCISExport.identify(.location, as: place, siteID: site.id, by: by ?? "", in: store) }
            if let logger, let device { try EPCISExport.identify(.logger(logger), as: device, siteID: site.id, by: by ?? "", in: store) }
            let names = try EPCISExport.Names.of(site: site, in: store)
            var lines = ["Site '\(site.name)' in EPCIS exports: \(names.place)"]
            lines += names.devices.sorted { $0.key < $1.key }.map { "  logger \($0.key): \($0.value)" }
            if names.place == EPCISExport.placeURI(site: site.name) {
                lines.append("  (ColdTap's URI; give the site's own with 'coldtap site identify \(site.name) --location URI --by NAME')")
            }
            console.print(lines.joined(separator: "\n"))
        }
    }
}
