import Archive
import ColdChain
import ColdTapBase
import Digest
import EPCIS
import Foundation
import JSONOutput
import LoggerFormats

/// A lot's journey as EPCIS 2.0 events (docs/epcis.md, "A lot's journey"): one `ObjectEvent`
/// per recorded hand-over or close, with the lot in its `quantityList` and its decision as of
/// that moment as `disposition`; and per leg with a logger one `sensor_reporting` event with
/// the leg's sensor aggregates from that logger's record, its discard events as
/// `ALARM_CONDITION`. Every time is one the record holds; the moves carry no zone, so the
/// events are written in UTC.
extension EPCISExport {
    /// What the export of one lot is asked for.
    public struct LotRequest: Sendable {
        public var lotID: String
        public var siteID: Int64
        /// Where the lot is kept and what its loggers are called (`Names.of(site:in:)`).
        public var names: Names

        public init(lotID: String, siteID: Int64 = 0, names: Names) {
            self.lotID = lotID
            self.siteID = siteID
            self.names = names
        }
    }

    /// The document of a lot's journey.
    /// - Throws: `ArchiveError` (an unknown lot, a failing archive).
    public static func lotDocument(_ request: LotRequest, archive: Archive, now: Date = Date()) throws -> JSONValue {
        EPCISDocument.json(events: try lotEvents(request, archive: archive, now: now), created: now)
    }

    /// The lot's class as EPCIS names it: a GS1 Digital Link LGTIN
    /// (`https://id.gs1.org/01/GTIN-14/10/LOT`) when the product gives a GTIN and the lot's
    /// name fits GS1's batch/lot field (at most 20 characters), else ColdTap's URI of the
    /// product and lot.
    public static func lotClass(lot: String, product: Product) -> String {
        if let gtin = product.gtin14, lot.unicodeScalars.count <= 20 {
            return "https://id.gs1.org/01/\(gtin)/10/\(uriSegment(lot))"
        }
        return EPCISVocabulary.namespace + "product/" + uriSegment(product.name) + "/lot/" + uriSegment(lot)
    }

    /// The CBV disposition of a lot's decision: USABLE is `conformant`, DISCARD
    /// `non_conformant`; REVIEW and INCONCLUSIVE have no CBV disposition and are named by
    /// `coldtap:decision` alone.
    public static func disposition(of decision: LotDecision) -> String? {
        switch decision {
        case .usable: return "conformant"
        case .discard: return "non_conformant"
        case .review, .inconclusive: return nil
        }
    }

    /// The events of a lot's journey in time order; at one moment the report of the leg that
    /// ends comes before the hand-over that starts the next.
    public static func lotEvents(_ request: LotRequest, archive: Archive, now: Date = Date()) throws -> [EPCISObjectEvent] {
        let journey = try archive.lotJourney(request.lotID, siteID: request.siteID, now: now)
        guard let product = journey.lot.product else {
            throw ArchiveError(.corrupt, "the lot '\(request.lotID)' keeps a product that no longer reads as one.", hint: .verify)
        }
        let lotClass = lotClass(lot: journey.lot.id, product: product)
        let quantity = EPCISObjectEvent.Quantity(epcClass: lotClass, quantity: journey.lot.quantity.map(Double.init))
        let rules = niURI(hex: journey.lot.productSHA256)
        func status(at time: Date) throws -> LotStatus {
            try archive.lotJourney(request.lotID, siteID: request.siteID, at: time, now: now).status
        }
        func lotEvent(at time: Date, bizStep: String, decision: LotStatus) -> EPCISObjectEvent {
            var event = EPCISObjectEvent(eventTime: time, offsetSeconds: 0)
            event.quantities = [quantity]
            event.bizStep = bizStep
            event.disposition = disposition(of: decision.decision)
            event.readPoint = request.names.place
            event.bizLocation = request.names.place
            event.extensions = [
                .init("lot", .text(journey.lot.id)), .init("product", .text(product.name)),
                .init("decision", .text(decision.decision.rawValue)), .init("consumed", .number(rounded(decision.consumed))),
            ]
            return event
        }

        var events: [(time: Date, order: Int, event: EPCISObjectEvent)] = []
        let ordered = journey.moves.sorted { ($0.at, $0.seq) < ($1.at, $1.seq) }
        for (index, move) in ordered.enumerated() {
            let decision = try status(at: move.at)
            var event: EPCISObjectEvent
            switch move.kind {
            case .close:
                event = lotEvent(
                    at: move.at, bizStep: move.reason == .discarded ? "destroying" : move.reason == .used ? "dispensing" : "shipping", decision: decision)
                if move.reason == .discarded { event.disposition = "destroyed" }
                event.extensions.append(.init("closed", .text(move.reason?.rawValue ?? "closed")))
            case .logger, .none:
                event = lotEvent(at: move.at, bizStep: index == 0 ? "arriving" : move.kind == .logger ? "storing" : "shipping", decision: decision)
                event.extensions.append(.init("logger", .text(move.loggerID.map { request.names.device($0) } ?? "none")))
            }
            event.extensions += [
                .init("move", .number(Double(move.seq))), .init("by", .text(move.by)), .init("origin", .text(move.origin)),
                .init("recorded", .text(EPCISTime.text(move.recorded))),
            ]
            if !move.place.isEmpty { event.extensions.append(.init("place", .text(move.place))) }
            events.append((move.at, 1, event))
        }

        let isOpen = !journey.moves.contains { $0.kind == .close }
        for (index, leg) in journey.status.legs.enumerated() {
            guard let loggerID = leg.logger, index < journey.histories.count, let history = journey.histories[index] else { continue }
            let inLeg = history.samples.filter { $0.sample.time >= leg.from && $0.sample.time < leg.to }
            let valid = inLeg.map(\.sample).filter { $0.temperature != nil && !$0.flags.contains(.outOfRange) }
            // A leg still under way ends, as far as the record knows, at its last sample.
            let isLast = index == journey.status.legs.count - 1
            guard let end = isLast && isOpen ? valid.last?.time : leg.to else { continue }
            var element = EPCISSensorElement(reports: [])
            if let first = valid.first?.time, let last = valid.last?.time {
                if first < last {
                    element.startTime = first
                    element.endTime = last
                } else {
                    element.time = first
                }
            }
            element.deviceID = request.names.device(loggerID)
            element.deviceMetadata = EPCISVocabulary.namespace + "format/" + uriSegment(history.logger.format)
            element.dataProcessingMethod = EPCISVocabulary.namespace + "method/coldtap-" + ColdTapVersion.current
            element.bizRules = rules
            let readIDs = Set(inLeg.map(\.readID))
            let reads = history.reads.filter { readIDs.contains($0.id) }.sorted { $0.id < $1.id }
            element.metadataExtensions = [
                .init("leg", .number(Double(index + 1))), .init("samples", .number(Double(valid.count))),
                .init("reads", .list(reads.map { .text(niURI(hex: $0.sha256)) })),
            ]
            element.reports.append(aggregate(valid.compactMap(\.temperature), type: "Temperature", uom: "CEL"))
            for discard in journey.status.discardEvents where discard.leg == index {
                element.reports.append(
                    EPCISSensorReport(
                        type: "Temperature", exception: "ALARM_CONDITION",
                        extensions: [
                            .init("rule", .text("discard when \(discard.rule)")), .init("firedAt", .text(EPCISTime.text(discard.time))),
                            .init("reached", .number(discard.temperature)),
                        ]))
            }
            if leg.integrityFailed {
                element.reports.append(
                    EPCISSensorReport(
                        type: "Temperature", exception: "ERROR_CONDITION",
                        extensions: [.init("integrity", .text("a read of the logger that covers the leg failed its integrity check"))]))
            }
            // The leg's figures as of the event, so that the same record gives the same event
            // whenever it is exported (an open leg's unknown time grows with the clock).
            let asOfEnd = try status(at: end)
            var event = lotEvent(at: end, bizStep: "sensor_reporting", decision: asOfEnd)
            event.sensorElements = [element]
            if let figures = asOfEnd.legs.indices.contains(index) ? asOfEnd.legs[index] : nil {
                event.extensions += [
                    .init("legConsumed", .number(rounded(figures.consumed))), .init("unknownSeconds", .number(figures.unknownSeconds)),
                ]
            }
            events.append((end, 0, event))
        }
        return events.enumerated().sorted { ($0.element.time, $0.element.order, $0.offset) < ($1.element.time, $1.element.order, $1.offset) }
            .map(\.element.event)
    }

    /// ColdTap's URI of a logger.
    static func loggerURI(_ loggerID: String) -> String { EPCISVocabulary.namespace + "logger/" + uriSegment(loggerID) }

    /// A fraction to a millionth: finer than a budget is ever read, and the same text in
    /// every export of the same record.
    private static func rounded(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }
}
