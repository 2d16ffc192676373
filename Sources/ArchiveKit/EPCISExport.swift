import Archive
import ColdChain
import ColdTapBase
import Digest
import EPCIS
import Foundation
import JSONOutput
import LoggerFormats

/// A logger's record as EPCIS 2.0 events (docs/epcis.md): one `ObjectEvent` per kept read,
/// `OBSERVE` at the read's time (`sensor_reporting`), with one sensor element over the
/// samples that read added to the record — aggregates of the valid ones, one
/// `ALARM_CONDITION` report per alarm rule that fired over them under the profile the read
/// was judged by, `ERROR_CONDITION` where the read's integrity failed — naming the raw read
/// by its SHA-256 and the profile by the SHA-256 of its JSON. Acknowledgements and
/// signatures appear as ColdTap extension members on the events of the reads they name.
public enum EPCISExport {
    /// What the export of one logger is asked for.
    public struct LoggerRequest: Sendable {
        public var loggerID: String
        public var from: Date?
        public var to: Date?
        /// Every valid sample as a report of its own besides the aggregates.
        public var samples: Bool
        /// Where the reads were made and what the logger is called (`Names.of(site:in:)`).
        public var names: Names

        public init(loggerID: String, from: Date? = nil, to: Date? = nil, samples: Bool = false, names: Names) {
            self.loggerID = loggerID
            self.from = from
            self.to = to
            self.samples = samples
            self.names = names
        }
    }

    /// The URIs an export names the place and the loggers by: those the site set for itself
    /// (`coldtap site identify`: an SGLN, a GLN's Digital Link, a GIAI, any URI), else ColdTap's.
    public struct Names: Sendable, Equatable {
        /// `readPoint` and `bizLocation`.
        public var place: String
        /// `deviceID` of the loggers the site named.
        public var devices: [String: String]

        public init(place: String, devices: [String: String] = [:]) {
            self.place = place
            self.devices = devices
        }

        /// The names of `site` (ColdTap's URI of the archive's own place without one).
        public static func of(site: StationSite?, in store: StationStore?) throws -> Names {
            guard let site, let store else { return Names(place: placeURI(site: nil)) }
            var names = Names(place: placeURI(site: site.name))
            for (subject, uri) in try store.identifiers(siteID: site.id) {
                switch subject {
                case .location: names.place = uri
                case .logger(let loggerID): names.devices[loggerID] = uri
                }
            }
            return names
        }

        /// The logger's `deviceID`: the site's name for it, else ColdTap's URI.
        public func device(_ loggerID: String) -> String { devices[loggerID] ?? loggerURI(loggerID) }
    }

    /// Names the site, or one of its loggers, by `uri` in its exports from now on (`coldtap
    /// site identify`): an EPC URN is kept as the canonical Digital Link the event hash reads
    /// it as (`EPCISIdentifier.canonical`), so that what is written is what is hashed.
    /// - Throws: `ArchiveError(.invalidRead)` naming the form to write; the store's errors.
    @discardableResult
    public static func identify(
        _ subject: SiteIdentifier.Subject, as uri: String, siteID: Int64, by: String, in store: StationStore, now: Date = Date()
    ) throws -> SiteIdentifier {
        let canonical: String
        do {
            canonical = try EPCISIdentifier.canonical(uri)
        } catch {
            throw ArchiveError(.invalidRead, error.description)
        }
        return try store.setIdentifier(siteID: siteID, subject, uri: canonical, by: by, now: now)
    }

    /// ColdTap's URI of a place that has no GS1 identifier: a site by name, or the archive's own.
    public static func placeURI(site: String?) -> String {
        EPCISVocabulary.namespace + (site.map { "site/" + uriSegment($0) } ?? "archive")
    }

    /// The document of a logger's record.
    /// - Throws: `ArchiveError` (an unknown logger, a failing archive).
    public static func loggerDocument(_ request: LoggerRequest, archive: Archive, signatures: [SignatureRecord] = [], now: Date = Date())
        throws -> JSONValue
    {
        EPCISDocument.json(events: try loggerEvents(request, archive: archive, signatures: signatures), created: now)
    }

    /// The events of a logger's record, one per read in the period, oldest first.
    public static func loggerEvents(_ request: LoggerRequest, archive: Archive, signatures: [SignatureRecord] = []) throws -> [EPCISObjectEvent] {
        let history = try archive.history(loggerID: request.loggerID, from: request.from, to: request.to)
        let kept = try archive.keptAssessments(loggerID: request.loggerID)
        var added: [Int64: [TemperatureLog.Sample]] = [:]
        for stitched in history.samples { added[stitched.readID, default: []].append(stitched.sample) }
        return history.reads.sorted { $0.id < $1.id }.map { read in
            event(
                for: read, added: added[read.id] ?? [], history: history, assessment: kept[read.id],
                signatures: signatures.filter { $0.signedReadIDs.contains(read.id) }, request: request)
        }
    }

    private static func event(
        for read: ReadSummary, added: [TemperatureLog.Sample], history: History, assessment: KeptAssessment?,
        signatures: [SignatureRecord], request: LoggerRequest
    ) -> EPCISObjectEvent {
        let zone = assessment.flatMap { TimeZone(identifier: $0.timeZone) } ?? .utc
        var event = EPCISObjectEvent(eventTime: read.readTime, offsetSeconds: zone.secondsFromGMT(for: read.readTime))
        event.bizStep = "sensor_reporting"
        event.readPoint = request.names.place
        event.bizLocation = request.names.place
        let valid = added.filter { $0.temperature != nil && !$0.flags.contains(.outOfRange) }
        var element = EPCISSensorElement(reports: [])
        // The standard wants startTime < endTime ≤ eventTime; samples a logger's clock put
        // after the read time are named in ColdTap's members instead of bending the rule.
        if let first = valid.first?.time, let last = valid.last?.time {
            if last > read.readTime {
                element.metadataExtensions.append(.init("firstSample", .text(EPCISTime.text(first))))
                element.metadataExtensions.append(.init("lastSample", .text(EPCISTime.text(last))))
            } else if first < last {
                element.startTime = first
                element.endTime = last
            } else {
                element.time = first
            }
        }
        element.deviceID = request.names.device(history.logger.id)
        element.deviceMetadata = EPCISVocabulary.namespace + "format/" + uriSegment(history.logger.format)
        element.rawData = niURI(hex: read.sha256)
        element.dataProcessingMethod = EPCISVocabulary.namespace + "method/coldtap-" + ColdTapVersion.current
        if let assessment { element.bizRules = niURI(hex: SHA256Digest.hex(text: assessment.profileJSON)) }
        element.metadataExtensions += [
            .init("read", .number(Double(read.id))), .init("newSamples", .number(Double(added.count))),
            .init("readTimeSource", .text(read.readTimeSource)),
        ]
        if let assessment { element.metadataExtensions.append(.init("profile", .text(assessment.profileName))) }
        if readTimeIsEstimated(read) { element.metadataExtensions.append(.init("readTime", .text("estimated"))) }
        // A logger without a clock: its samples' times were counted back from the read time.
        if read.timeBase == TemperatureLog.TimeBase.readTime.rawValue {
            element.metadataExtensions.append(.init("sampleTimes", .text("estimated from the read time")))
        }

        element.reports.append(aggregate(valid.compactMap(\.temperature), type: "Temperature", uom: "CEL"))
        let humidities = valid.compactMap(\.humidity)
        if !humidities.isEmpty { element.reports.append(aggregate(humidities, type: "RelativeHumidity", uom: "P1")) }
        if let assessment, let profile = try? Profile.fromJSON(Data(assessment.profileJSON.utf8)), !valid.isEmpty {
            let log = TemperatureLog(
                format: TemperatureLog.Format(name: history.logger.format), logger: .init(serial: history.logger.serial), samples: added,
                interval: read.interval, timeBase: TemperatureLog.TimeBase(rawValue: read.timeBase) ?? .loggerHeader,
                integrity: .init(status: .unverified, detail: .archiveNotAllVerified(reads: 1)), readTime: read.readTime)
            let judged = Assessor.assess(log, profile: profile, timeZone: zone)
            var seen: Set<Rule> = []
            for alarm in judged.alarms where seen.insert(alarm.rule).inserted {
                element.reports.append(
                    EPCISSensorReport(
                        type: "Temperature", exception: "ALARM_CONDITION",
                        extensions: [.init("rule", .text(alarm.rule.description)), .init("firedAt", .text(EPCISTime.text(alarm.firedAt)))]))
            }
        }
        if read.integrity.hasPrefix("failed") {
            element.reports.append(
                EPCISSensorReport(type: "Temperature", exception: "ERROR_CONDITION", extensions: [.init("integrity", .text(read.integrity))]))
        }
        if request.samples {
            element.reports += valid.map { EPCISSensorReport(type: "Temperature", time: $0.time, value: $0.temperature, uom: "CEL") }
        }
        event.sensorElements = [element]

        let spanStart = added.first?.time ?? .distantFuture
        let spanEnd = added.last?.time ?? .distantPast
        let acknowledgements = history.acknowledgements.filter { $0.excursionStart >= spanStart && $0.excursionStart <= spanEnd }
        if !acknowledgements.isEmpty {
            event.extensions.append(
                .init(
                    "acknowledgement",
                    .list(
                        acknowledgements.map { ack in
                            .object([
                                .init("excursionStart", .text(EPCISTime.text(ack.excursionStart))), .init("by", .text(ack.by)),
                                .init("at", .text(EPCISTime.text(ack.at))), .init("comment", .text(ack.comment)),
                            ])
                        })))
        }
        if !signatures.isEmpty {
            event.extensions.append(
                .init(
                    "signature",
                    .list(
                        signatures.map { signature in
                            .object([
                                .init("signer", .text(signature.printedName)), .init("user", .text(signature.userName)),
                                .init("role", .text(signature.role.rawValue)), .init("meaning", .text(signature.meaning.rawValue)),
                                .init("signed", .text(EPCISTime.text(signature.signed))),
                                .init("statementSHA256", .text(signature.statementSHA256)),
                            ])
                        })))
        }
        return event
    }

    /// Minimum, maximum, mean and population standard deviation, rounded to a thousandth
    /// (finer than any logger resolves); a report with the type alone when there is no value.
    static func aggregate(_ values: [Double], type: String, uom: String) -> EPCISSensorReport {
        guard !values.isEmpty else { return EPCISSensorReport(type: type) }
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
        func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
        return EPCISSensorReport(
            type: type, minValue: rounded(values.min() ?? mean), maxValue: rounded(values.max() ?? mean), meanValue: rounded(mean),
            sDev: rounded(variance.squareRoot()), uom: uom)
    }

    /// Whether the read's time was estimated (the decoding's moment, a file's modification
    /// time, a station's arrival) rather than given or read off a clock.
    static func readTimeIsEstimated(_ read: ReadSummary) -> Bool {
        switch DecodeOptions.ReadTimeSource(stored: read.readTimeSource) {
        case .now, .fileModificationTime, .stationArrival: return true
        default: return false
        }
    }

    /// `ni:///sha-256;…` (RFC 6920: the digest in base64url without padding).
    static func niURI(hex: String) -> String {
        let bytes = Hex.decode(hex) ?? []
        let base64 = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return "ni:///sha-256;" + base64
    }

    /// A name as one URI path segment: unreserved characters kept, the rest percent-encoded.
    static func uriSegment(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~:@")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
