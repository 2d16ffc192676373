import ColdChain
import Foundation
import LoggerFormats

/// The lot report: page 1 with the decision, the stability budget, the journey over the
/// loggers' curves, the reasons and the discard events; then each leg with its logger's
/// chain of reads, the record, and a signature block for the reviewer. Laid out for A4 and
/// drawn on any `Canvas`; `html()` gives the same as one HTML file.
public struct LotReportPage: Sendable {
    public var content: LotReportContent
    public var theme: ChartTheme
    /// Excursions highlighted on the journey as the largest consumers.
    public var highlightedExcursions = LotEvaluation.excursionsInReasons

    public init(content: LotReportContent, theme: ChartTheme = .light) {
        self.content = content
        self.theme = theme
    }

    var language: ReportLanguage { content.language }
    var strings: ReportStrings { language.strings }
    var lot: LotReportStrings { language.lot }
    var formatter: ChartFormatter { ChartFormatter(timeZone: content.timeZone, language: language) }
    var status: LotStatus { content.status }

    // MARK: Text blocks shared with the HTML report

    /// `USABLE`; in Chinese and Japanese the word with the code beside it: `可用 (USABLE)`.
    public func decisionText(_ decision: LotDecision) -> String {
        let word = lot.decisions[decision] ?? decision.rawValue
        return word == decision.rawValue ? word : "\(word) (\(decision.rawValue))"
    }

    public var decisionText: String { decisionText(status.decision) }

    public var decisionColor: ChartColor {
        switch status.decision {
        case .usable: return theme.pass
        case .review: return theme.limit
        case .discard: return theme.fail
        case .inconclusive: return theme.inconclusive
        }
    }

    /// A fraction in a table: up to four decimals (`0.0833`, `0.5`, `0`).
    public static func fraction(_ value: Double) -> String { ColdChainFormat.temperature(value, decimals: 4) }

    /// "Lot L-0302 · Product clinic-vaccine".
    public var heading: String { "\(lot.lot) \(content.lot) · \(lot.product) \(content.productName)" }

    /// Lot, product (with its summary), quantity, note.
    public var lotRows: [(String, String)] {
        var rows = [(lot.lot, content.lot), (lot.product, content.productName)]
        if !content.productSummary.isEmpty { rows[1].1 += " — " + content.productSummary }
        if let quantity = content.quantity { rows.append((lot.quantity, quantity)) }
        if let note = content.note { rows.append((lot.note, note)) }
        rows.append((strings.timeZone, formatter.zoneDescription(from: status.at, to: status.at)))
        return rows
    }

    /// "Consumed 0.5 by the allowances".
    public var consumedText: String {
        "\(lot.consumed) \(LotReason.fraction(status.consumed)) \(lot.measures[status.consumedBy] ?? status.consumedBy.rawValue)"
    }

    /// Consumed, kinetics (when the product has them), unknown time, worst case.
    public var figureRows: [(String, String)] {
        var rows = [(lot.consumed, "\(Self.fraction(status.consumed)) (\(lot.measures[status.consumedBy] ?? status.consumedBy.rawValue))")]
        if let kinetics = status.kineticsConsumed { rows.append((lot.kineticsConsumed, Self.fraction(kinetics))) }
        rows.append((lot.unknownTime, formatter.duration(status.unknownSeconds)))
        if status.unknownSeconds > 0 {
            rows.append((lot.worstCase, Self.fraction(status.worstCaseConsumed)))
        }
        return rows
    }

    /// A band's name in the report's language (its edges stay symbols).
    public func bandName(_ name: String) -> String { name.replacingOccurrences(of: " and ", with: lot.bandJoin) }

    /// Band, time in it, its allowance, the fraction used.
    public var bandRows: [[String]] {
        status.bands.map { band in
            [
                bandName(band.band), formatter.duration(band.seconds), formatter.duration(band.allowanceSeconds),
                Self.fraction(band.allowanceSeconds > 0 ? band.seconds / band.allowanceSeconds : 0),
            ]
        }
    }

    /// "Leg 2 · depot-fridge", "Leg 2 · no logger".
    public func legTitle(_ index: Int) -> String {
        let logger = index < status.legs.count ? status.legs[index].logger : content.legs[index].logger
        return lot.leg.filled(["number": "\(index + 1)"]) + " · " + (logger ?? lot.noLogger)
    }

    /// "leg 2 (logger depot-fridge)" as the reasons name a leg.
    func legPhrase(_ index: Int, _ logger: String?) -> String {
        (logger == nil ? lot.legWithoutLogger : lot.legWithLogger).filled(["number": "\(index + 1)", "logger": logger ?? ""])
    }

    /// Leg, time, temperature, limit.
    public var discardRows: [[String]] {
        status.discardEvents.map { event in
            [
                legTitle(event.leg), formatter.dateTime(event.time, seconds: true), formatter.temperature(event.temperature, decimals: 2),
                event.rule.description,
            ]
        }
    }

    /// The reasons in the report's language.
    public var reasonTexts: [String] { status.reasons.map(reasonText) }

    /// One reason in the report's language: `LotReason.english(in:)` for English, else the
    /// language's sentence made from the same values.
    public func reasonText(_ reason: LotReason) -> String {
        let zone = content.timeZone
        guard let r = lot.reasons else { return reason.english(in: zone) }
        let f = formatter
        func time(_ date: Date) -> String { ColdChainFormat.time(date, in: zone) }
        func temperature(_ value: Double) -> String { "\(ColdChainFormat.temperature(value, decimals: 2)) °C" }
        switch reason {
        case .noJourney:
            return r.noJourney
        case .integrityFailed(let logger):
            return r.integrityFailed.filled(["logger": logger])
        case .discardLimit(let event, let logger):
            return r.discardLimit.filled([
                "leg": legPhrase(event.leg, logger), "rule": event.rule.description, "time": time(event.time),
                "temperature": temperature(event.temperature),
            ])
        case .moreDiscardEvents(let count):
            return r.moreDiscardEvents.filled(["count": "\(count)"])
        case .consumed(let fraction, let measure, let review):
            return r.consumed.filled([
                "measure": r.measures[measure] ?? measure.rawValue, "fraction": LotReason.fraction(fraction), "review": LotReason.fraction(review),
            ])
        case .legConsumedMost(let leg, let logger, let consumed):
            return r.legConsumedMost.filled(["leg": legPhrase(leg, logger), "fraction": LotReason.fraction(consumed)])
        case .excursion(let excursion, let logger):
            return r.excursion.filled([
                "leg": legPhrase(excursion.leg, logger), "start": time(excursion.start), "end": time(excursion.end),
                "duration": f.duration(excursion.seconds), "peak": temperature(excursion.peak), "fraction": LotReason.fraction(excursion.consumed),
            ])
        case .unknownTime(let seconds, let legs, let counting, let worst, let decides):
            var sentence = r.unknown.filled(["duration": f.duration(seconds)])
            if !legs.isEmpty {
                let shares = legs.map { r.unknownLeg.filled(["leg": legPhrase($0.leg, $0.logger), "duration": f.duration($0.seconds)]) }
                sentence += r.unknownLegs.filled(["legs": shares.joined(separator: lot.listSeparator)])
            }
            switch counting {
            case .band(let band, _, _)?: sentence += r.unknownBand.filled(["band": bandName(band)])
            case .temperature(let celsius)?: sentence += r.unknownTemperature.filled(["temperature": "\(ColdChainFormat.temperature(celsius)) °C"])
            case nil: break
            }
            if counting != nil { sentence += r.unknownWorst.filled(["fraction": LotReason.fraction(worst)]) }
            if let decides { sentence += r.unknownDecides.filled(["decision": decisionText(decides)]) }
            return sentence + r.sentenceEnd
        }
    }

    /// Logger, period, consumed, kinetics, unknown time, integrity of leg `index`.
    public func legRows(_ index: Int) -> [(String, String)] {
        let f = formatter
        let leg = content.legs[index]
        var rows = [
            (lot.logger, leg.logger ?? lot.noLogger),
            (lot.period, "\(f.dateTime(leg.from)) – \(f.dateTime(leg.to)) (\(f.duration(leg.to.timeIntervalSince(leg.from))))"),
        ]
        guard index < status.legs.count else { return rows }
        let judged = status.legs[index]
        rows.append((lot.consumed, "\(Self.fraction(judged.consumed)) (\(lot.measures[status.consumedBy] ?? status.consumedBy.rawValue))"))
        if let kinetics = judged.kineticsConsumed, status.consumedBy != .kinetics { rows.append((lot.kineticsConsumed, Self.fraction(kinetics))) }
        rows.append((lot.unknownTime, f.duration(judged.unknownSeconds)))
        if judged.logger != nil { rows.append((lot.integrity, judged.integrityFailed ? lot.integrityFailed : lot.integrityPassed)) }
        return rows
    }

    /// Read id, time, read-time source, SHA-256 of the raw bytes, chain hash.
    public func readRows(_ index: Int) -> [[String]] {
        content.legs[index].reads.map { read in
            ["#\(read.id)", formatter.dateTime(read.readTime, seconds: true), language.readTimeSourceName(read.readTimeSource), read.sha256, read.chainHash]
        }
    }

    /// What a leg without reads says instead of its table.
    public func noReadsText(_ index: Int) -> String { content.legs[index].logger == nil ? lot.unlogged : lot.noReads }

    /// The decisions the reviewer ticks, in the report's language.
    public var signatureDecisions: [String] { LotDecision.allCases.map(decisionText) }

    /// The excursions that consumed the most, highlighted on the journey.
    public var largestConsumers: [BudgetExcursion] {
        Array(status.excursions.sorted { ($0.consumed, $1.start) > ($1.consumed, $0.start) }.prefix(highlightedExcursions))
    }
}

extension LotReportPage {
    /// `status`'s reasons in `language`, worded as the lot report words them, for a page that
    /// shows a status without drawing a report (the station's lot page).
    public static func reasonTexts(of status: LotStatus, language: ReportLanguage, timeZone: TimeZone) -> [String] {
        let content = LotReportContent(
            lot: status.lot, productName: status.product, status: status, legs: [], chainHead: "", timeZone: timeZone, language: language)
        return LotReportPage(content: content).reasonTexts
    }
}
