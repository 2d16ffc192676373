import Archive
import ColdChain
import ColdTapBase
import Foundation
import LoggerFormats
import TempChart

/// The words the lot pages add, in the pages' three languages. A status's reasons are worded
/// as the lot report words them (`LotReportPage.reasonTexts`): the API's and the command
/// line's English sentences, and the same values in Chinese and Japanese.
struct LotWords: LanguageTable {
    var lots: String
    var product: String
    var quantity: String
    var note: String
    var created: String
    var decision: String
    var consumed: String
    var worstCase: String
    var reviewFrom: String
    var budgetEnd: String
    var unknownTime: String
    var budget: String
    var journey: String
    var legs: String
    var leg: String
    var noLogger: String
    var bands: String
    var band: String
    var timeInBand: String
    var allowance: String
    var share: String
    var largestConsumers: String
    var largestConsumersNote: String
    var start: String
    var duration: String
    var peak: String
    var reasons: String
    var moves: String
    var kind: String
    var place: String
    var recordedBy: String
    var noLots: String
    var discardEvents: String
    var rule: String
    var storage: String
    var holder: String
    var closed: String
    var usable: String
    var review: String
    var discard: String
    var inconclusive: String

    func decisionName(_ decision: LotDecision) -> String {
        switch decision {
        case .usable: return usable
        case .review: return review
        case .discard: return discard
        case .inconclusive: return inconclusive
        }
    }

    static let english = LotWords(
        lots: "Lots", product: "Product", quantity: "Quantity", note: "Note", created: "Made", decision: "Decision", consumed: "Consumed",
        worstCase: "Worst case with the unknown time", reviewFrom: "review from", budgetEnd: "budget used up", unknownTime: "Unknown time",
        budget: "Stability budget", journey: "Journey", legs: "Legs", leg: "Leg", noLogger: "no logger", bands: "Allowance bands", band: "Band",
        timeInBand: "Time in band", allowance: "Allowance", share: "Share", largestConsumers: "Largest consumers",
        largestConsumersNote: "The excursions into the allowance bands that consumed the most, highlighted on the journey.", start: "Start",
        duration: "Duration", peak: "Peak", reasons: "Why", moves: "Moves as recorded", kind: "Kind", place: "Place", recordedBy: "Recorded by",
        noLots: "This site has no lots yet.", discardEvents: "Discard events", rule: "Limit", storage: "storage", holder: "Now with",
        closed: "closed", usable: "USABLE", review: "REVIEW", discard: "DISCARD", inconclusive: "INCONCLUSIVE")

    static let simplifiedChinese = LotWords(
        lots: "批次", product: "产品", quantity: "数量", note: "备注", created: "创建", decision: "结论", consumed: "已消耗",
        worstCase: "按最坏情况计入未知时间", reviewFrom: "复核阈值", budgetEnd: "预算耗尽", unknownTime: "未知时间", budget: "稳定性预算",
        journey: "运输历程", legs: "各段", leg: "段", noLogger: "无记录仪", bands: "允许温度区间", band: "区间", timeInBand: "区间内时间",
        allowance: "允许时长", share: "占比", largestConsumers: "消耗最多", largestConsumersNote: "消耗预算最多的偏离，在历程图中突出显示。",
        start: "开始", duration: "持续时间", peak: "峰值", reasons: "原因", moves: "交接记录", kind: "类型", place: "地点", recordedBy: "记录者",
        noLots: "本站点尚无批次。", discardEvents: "报废事件", rule: "限值", storage: "储存", holder: "当前位于", closed: "已结束",
        usable: "可用", review: "需复核", discard: "报废", inconclusive: "无法判定")

    static let japanese = LotWords(
        lots: "ロット", product: "製品", quantity: "数量", note: "メモ", created: "作成", decision: "判定", consumed: "消費",
        worstCase: "不明時間を最悪として計上", reviewFrom: "レビュー基準", budgetEnd: "予算の上限", unknownTime: "不明時間",
        budget: "安定性予算", journey: "輸送経路", legs: "区間", leg: "区間", noLogger: "ロガーなし", bands: "許容温度帯", band: "温度帯",
        timeInBand: "温度帯内の時間", allowance: "許容時間", share: "割合", largestConsumers: "消費の大きいもの",
        largestConsumersNote: "予算を最も消費した逸脱。経路図で強調表示しています。", start: "開始", duration: "継続時間", peak: "ピーク",
        reasons: "理由", moves: "記録された移動", kind: "種類", place: "場所", recordedBy: "記録者", noLots: "このサイトにはまだロットがありません。",
        discardEvents: "廃棄イベント", rule: "限界", storage: "保管", holder: "現在", closed: "終了", usable: "使用可", review: "要レビュー",
        discard: "廃棄", inconclusive: "判定不能")
}

extension Station {
    /// The CSS class key of a decision's badge: the verdicts' colours.
    static func decisionKey(_ decision: LotDecision) -> String {
        switch decision {
        case .usable: return "OK"
        case .review: return "INCONCLUSIVE"
        case .discard: return "ALARM"
        case .inconclusive: return "none"
        }
    }

    static func decisionBadge(_ decision: LotDecision, _ words: LotWords) -> String {
        "<span class=\"verdict v-\(decisionKey(decision))\">\(HTML.escape(words.decisionName(decision)))</span>"
    }

    static func lotLink(_ id: String) -> String { "/lots/\(Station.pathSegment(id))" }

    /// "Loggers | Lots" above the overview and the lots list.
    static func siteTabs(lots: Bool, _ context: WebContext) -> String {
        let words = LotWords.forLanguage(context.language)
        let loggers = HTML.escape(context.text.loggers), lotsLabel = HTML.escape(words.lots)
        return "<nav class=\"periods tabs\" aria-label=\"\(loggers) | \(lotsLabel)\">"
            + (lots ? "<a href=\"/\">\(loggers)</a><strong>\(lotsLabel)</strong>" : "<strong>\(loggers)</strong><a href=\"/lots\">\(lotsLabel)</a>")
            + "</nav>"
    }

    // MARK: Lots list

    func lotsPage(_ context: WebContext) throws -> HTTPResponse {
        guard let caller = context.caller else { return notFoundPage(context) }
        let words = LotWords.forLanguage(context.language), f = context.formatter
        let rows = try lotRows(siteID: caller.site.id)
        var body = Station.siteTabs(lots: true, context) + "<h1>\(HTML.escape(words.lots))</h1>"
        guard !rows.isEmpty else { return page(context, status: 200, title: words.lots, body: body + "<p>\(HTML.escape(words.noLots))</p>") }
        var counts: [LotDecision: Int] = [:]
        for row in rows { counts[row.status.decision, default: 0] += 1 }
        body +=
            "<p class=\"counts\">"
            + [LotDecision.discard, .inconclusive, .review, .usable].compactMap { decision in
                counts[decision].map { "\(Station.decisionBadge(decision, words)) \($0)" }
            }.joined(separator: " &nbsp; ") + "</p>"
        body += "<div class=\"scroll\"><table class=\"lots\"><thead><tr><th>\(HTML.escape(words.lots))</th>"
        body += "<th>\(HTML.escape(words.decision))</th><th class=\"num\">\(HTML.escape(words.consumed))</th><th>\(HTML.escape(words.budget))</th>"
        body += "<th>\(HTML.escape(words.holder))</th><th>\(HTML.escape(words.created))</th></tr></thead><tbody>"
        for row in rows {
            let status = row.status
            let review = row.lot.product?.reviewThreshold ?? Product.defaultReviewThreshold
            body += "<tr class=\"r-\(Station.decisionKey(status.decision))\"><td><a href=\"\(HTML.escape(Station.lotLink(row.lot.id)))\"><strong>"
            body += "\(HTML.escape(row.lot.id))</strong></a><br><span class=\"muted\">\(HTML.escape(row.lot.productName))"
            if let quantity = row.lot.quantity { body += " · \(quantity)" }
            body += "</span></td><td>\(Station.decisionBadge(status.decision, words))</td>"
            body += "<td class=\"num\">\(HTML.escape(LotReason.fraction(status.consumed)))"
            if status.worstCaseConsumed > status.consumed + 1e-9 {
                body += "<br><span class=\"muted\">≤ \(HTML.escape(LotReason.fraction(status.worstCaseConsumed)))</span>"
            }
            body += "</td><td>\(Station.budgetBar(status, review: review, words: words, width: 240, height: 22, labels: false))</td>"
            let holder = status.legs.last.map { $0.logger.map { HTML.escape($0) } ?? HTML.escape(words.noLogger) } ?? "–"
            body += "<td>\(!row.closed ? holder : "<span class=\"muted\">\(HTML.escape(words.closed))</span>")</td>"
            body += "<td>\(HTML.escape(f.dateTime(row.lot.created)))<br><span class=\"muted\">\(HTML.escape(row.lot.createdBy))</span></td></tr>"
        }
        body += "</tbody></table></div>"
        return page(context, status: 200, title: words.lots, body: body)
    }

    // MARK: Lot page

    func lotPage(_ context: WebContext, lotID: String) throws -> HTTPResponse {
        guard let caller = context.caller, Product.isValidName(lotID) else { return notFoundPage(context) }
        let journey: LotJourney
        do {
            journey = try lotJourney(lotID, siteID: caller.site.id, at: nil)
        } catch let failure as HTTPFailure where failure.status == 404 {
            return notFoundPage(context)
        }
        let page = LotPage(context: context, journey: journey, product: journey.lot.product)
        let body = page.header + page.budget + page.timeline + page.legsTable + page.consumers + page.bandsTable + page.discards + page.reasons + page.moves
        return self.page(context, status: 200, title: journey.lot.id, body: body)
    }

    /// The budget as a bar: consumed, the worst case with the unknown time (hatched), the
    /// review threshold and 1 (the budget used up) marked. Inline SVG in the pages' classes.
    static func budgetBar(_ status: LotStatus, review: Double, words: LotWords, width: Double, height: Double, labels: Bool) -> String {
        let top = max(1.1, min(2, max(status.consumed, status.worstCaseConsumed) * 1.05))
        let barTop = labels ? 18.0 : 2, barHeight = labels ? height - 50 : height - 4
        func x(_ value: Double) -> Double { min(width, max(0, value / top * width)) }
        let fill = status.consumed >= 1 || !status.discardEvents.isEmpty ? "fail" : status.consumed >= review ? "inconclusive" : "pass"
        let label =
            "\(words.consumed) \(LotReason.fraction(status.consumed)); \(words.worstCase) \(LotReason.fraction(status.worstCaseConsumed)); \(words.reviewFrom) \(LotReason.fraction(review))"
        var out =
            "<svg class=\"budget\(labels ? " wide" : "")\" viewBox=\"0 0 \(WebSVG.number(width)) \(WebSVG.number(height))\" width=\"\(WebSVG.number(width))\" role=\"img\" aria-label=\"\(HTML.escape(label))\">"
        out += "<rect x=\"0\" y=\"\(WebSVG.number(barTop))\" width=\"\(WebSVG.number(width))\" height=\"\(WebSVG.number(barHeight))\" class=\"f-plot s-grid\"/>"
        if status.worstCaseConsumed > status.consumed {
            let from = x(status.consumed), to = x(status.worstCaseConsumed)
            out +=
                "<rect x=\"\(WebSVG.number(from))\" y=\"\(WebSVG.number(barTop))\" width=\"\(WebSVG.number(max(0, to - from)))\" height=\"\(WebSVG.number(barHeight))\" class=\"f-shade s-inconclusive unknown\" stroke-dasharray=\"4 3\"/>"
        }
        out +=
            "<rect x=\"0\" y=\"\(WebSVG.number(barTop))\" width=\"\(WebSVG.number(x(status.consumed)))\" height=\"\(WebSVG.number(barHeight))\" class=\"f-\(fill) consumed\"/>"
        for (value, role) in [(review, "limit"), (1.0, "fail")] {
            out +=
                "<line x1=\"\(WebSVG.number(x(value)))\" x2=\"\(WebSVG.number(x(value)))\" y1=\"\(WebSVG.number(barTop - (labels ? 4 : 2)))\" y2=\"\(WebSVG.number(barTop + barHeight + (labels ? 4 : 2)))\" class=\"s-\(role)\" stroke-width=\"2\"/>"
        }
        if labels {
            let below = barTop + barHeight + 15
            out += "<text x=\"\(WebSVG.number(x(review)))\" y=\"12\" text-anchor=\"middle\" class=\"f-text2\" font-size=\"12\">"
            out += "\(HTML.escape(words.reviewFrom)) \(HTML.escape(LotReason.fraction(review)))</text>"
            out +=
                "<text x=\"\(WebSVG.number(x(1)))\" y=\"12\" text-anchor=\"end\" class=\"f-fail\" font-size=\"12\">1 · \(HTML.escape(words.budgetEnd))</text>"
            out += "<text x=\"\(WebSVG.number(min(width - 4, max(4, x(status.consumed)))))\" y=\"\(WebSVG.number(below))\" "
            out += "text-anchor=\"\(x(status.consumed) > width / 2 ? "end" : "start")\" class=\"f-text\" font-size=\"13\" font-weight=\"700\">"
            out += "\(HTML.escape(words.consumed)) \(HTML.escape(LotReason.fraction(status.consumed)))</text>"
            if status.worstCaseConsumed > status.consumed + 1e-9 {
                out += "<text x=\"\(WebSVG.number(min(width - 4, x(status.worstCaseConsumed))))\" y=\"\(WebSVG.number(below + 14))\" text-anchor=\"end\" "
                out += "class=\"f-text2\" font-size=\"12\">\(HTML.escape(words.worstCase)) \(HTML.escape(LotReason.fraction(status.worstCaseConsumed)))</text>"
            }
        }
        return out + "</svg>"
    }

    /// The sections of a lot's page, each its HTML.
    struct LotPage {
        let context: WebContext
        let journey: LotJourney
        let product: Product?

        private var words: LotWords { LotWords.forLanguage(context.language) }
        private var f: ChartFormatter { context.formatter }
        private var status: LotStatus { journey.status }
        private var review: Double { product?.reviewThreshold ?? Product.defaultReviewThreshold }

        /// The leg that consumed the most, when several did.
        private var topLeg: Int? {
            guard status.legs.count > 1, let index = status.legs.indices.max(by: { status.legs[$0].consumed < status.legs[$1].consumed }),
                status.legs[index].consumed > 0
            else { return nil }
            return index
        }

        /// The excursions that consumed the most, largest first.
        private var topExcursions: [BudgetExcursion] {
            Array(status.excursions.sorted { ($0.consumed, $1.start) > ($1.consumed, $0.start) }.prefix(LotEvaluation.excursionsInReasons))
        }

        var header: String {
            let lot = journey.lot
            var body = "<p class=\"noprint\"><a href=\"/lots\">← \(HTML.escape(words.lots))</a></p><h1>\(HTML.escape(lot.id))</h1>"
            var facts: [(String, String)] = [
                (words.product, "\(lot.productName)\(lot.productVersion > 0 ? " v\(lot.productVersion)" : "")"),
                (words.created, "\(f.dateTime(lot.created)) · \(lot.createdBy)"),
            ]
            if let quantity = lot.quantity { facts.append((words.quantity, "\(quantity)")) }
            if !lot.note.isEmpty { facts.append((words.note, lot.note)) }
            if let close = journey.moves.first(where: { $0.kind == .close }) {
                facts.append((words.closed, "\(f.dateTime(close.at)) · \(close.reason?.rawValue ?? "")"))
            }
            body += "<dl class=\"stats\">" + facts.map { "<div><dt>\(HTML.escape($0.0))</dt><dd>\(HTML.escape($0.1))</dd></div>" }.joined() + "</dl>"
            body += "<div class=\"banner v-\(Station.decisionKey(status.decision))\">\(HTML.escape(words.decisionName(status.decision)))"
            body += " — \(HTML.escape(words.consumed)) \(HTML.escape(LotReason.fraction(status.consumed))) (\(HTML.escape(status.consumedBy.rawValue)))</div>"
            if let summary = product?.summary, !summary.isEmpty { body += "<p class=\"muted\">\(HTML.escape(summary))</p>" }
            return body
        }

        var budget: String {
            var body = "<h2>\(HTML.escape(words.budget))</h2><div class=\"chartbox\">"
            body += Station.budgetBar(status, review: review, words: words, width: 1000, height: 96, labels: true) + "</div>"
            var notes = ["\(words.consumed) \(LotReason.fraction(status.consumed)) (\(status.consumedBy.rawValue))"]
            if let kinetics = status.kineticsConsumed, status.consumedBy != .kinetics { notes.append("kinetics \(f.number(kinetics, decimals: 4))") }
            if status.unknownSeconds > 0 {
                notes.append("\(words.unknownTime) \(f.duration(status.unknownSeconds)) → \(words.worstCase) \(LotReason.fraction(status.worstCaseConsumed))")
            }
            notes.append("\(words.reviewFrom) \(LotReason.fraction(review))")
            return body + "<p class=\"muted\">\(HTML.escape(notes.joined(separator: " · ")))</p>"
        }

        /// One time axis over the journey: each leg's logger curve clipped to the leg, unlogged
        /// legs shaded, the storage band, the largest consumers and discard events marked.
        var timeline: String {
            guard let first = status.legs.first?.from, let last = status.legs.last?.to, last > first else {
                return
                    "<h2>\(HTML.escape(words.journey))</h2><p>\(HTML.escape(LotReportPage.reasonTexts(of: status, language: context.language, timeZone: context.zone).first ?? ""))</p>"
            }
            let width = 1000.0, height = 340.0, left = 48.0, right = 990.0, top = 46.0, bottom = 290.0
            // The legs' samples, each clipped to its leg (a sample stands for its interval).
            // Each sample a step over its interval, clipped to the leg.
            var curves: [[(Date, Double)]] = []
            var low = Double.infinity, high = -Double.infinity
            for (index, leg) in status.legs.enumerated() {
                var points: [(Date, Double)] = []
                if let history = journey.histories.indices.contains(index) ? journey.histories[index] : nil {
                    let step = history.interval > 0 ? history.interval : 0
                    for stitched in history.samples {
                        let sample = stitched.sample
                        guard let value = sample.temperature, sample.time.addingTimeInterval(step) > leg.from, sample.time < leg.to else { continue }
                        points.append((max(sample.time, leg.from), value))
                        points.append((min(sample.time.addingTimeInterval(step), leg.to), value))
                        low = min(low, value)
                        high = max(high, value)
                    }
                }
                curves.append(points)
            }
            if let storage = product?.storage {
                for limit in [storage.low?.limit, storage.high?.limit].compactMap({ $0 }) {
                    low = min(low, limit)
                    high = max(high, limit)
                }
            }
            if !low.isFinite || !high.isFinite { (low, high) = (0, 10) }
            let pad = max((high - low) * 0.1, 1)
            let y = LinearScale(domain: (low - pad)...(high + pad), rangeStart: bottom, rangeEnd: top)
            let x = LinearScale(domain: first.timeIntervalSince1970...last.timeIntervalSince1970, rangeStart: left, rangeEnd: right)
            func px(_ date: Date) -> String { WebSVG.number(x.position(date.timeIntervalSince1970)) }
            func py(_ value: Double) -> String { WebSVG.number(y.position(value)) }
            var out =
                "<svg class=\"chart journey\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(HTML.escape("\(words.journey): \(journey.lot.id)"))\">"
            out +=
                "<rect x=\"\(WebSVG.number(left))\" y=\"\(WebSVG.number(top))\" width=\"\(WebSVG.number(right - left))\" height=\"\(WebSVG.number(bottom - top))\" class=\"f-plot\"/>"
            // Legs: alternate stripes, unlogged ones shaded as gaps.
            for (index, leg) in status.legs.enumerated() {
                let x0 = x.position(leg.from.timeIntervalSince1970), x1 = x.position(leg.to.timeIntervalSince1970)
                let role = leg.logger == nil ? "gap" : index % 2 == 0 ? "plot" : "stripe"
                out +=
                    "<rect x=\"\(WebSVG.number(x0))\" y=\"\(WebSVG.number(top))\" width=\"\(WebSVG.number(max(0, x1 - x0)))\" height=\"\(WebSVG.number(bottom - top))\" class=\"f-\(role)\(leg.logger == nil ? " unlogged" : "")\"/>"
            }
            // The storage band.
            if let storage = product?.storage, let lowLimit = storage.low?.limit, let highLimit = storage.high?.limit {
                out +=
                    "<rect x=\"\(WebSVG.number(left))\" y=\"\(py(highLimit))\" width=\"\(WebSVG.number(right - left))\" height=\"\(WebSVG.number(max(0, y.position(lowLimit) - y.position(highLimit))))\" class=\"f-band\"/>"
                out +=
                    "<text x=\"\(WebSVG.number(right - 4))\" y=\"\(WebSVG.number(y.position(highLimit) + 13))\" text-anchor=\"end\" class=\"f-text2\" font-size=\"11\">"
                out += "\(HTML.escape(words.storage)) \(HTML.escape(f.temperature(lowLimit)))–\(HTML.escape(f.temperature(highLimit)))</text>"
            }
            // The largest consumers: their spans highlighted and numbered.
            for (rank, excursion) in topExcursions.enumerated() {
                let x0 = x.position(excursion.start.timeIntervalSince1970), x1 = x.position(excursion.end.timeIntervalSince1970)
                out +=
                    "<rect x=\"\(WebSVG.number(x0))\" y=\"\(WebSVG.number(top))\" width=\"\(WebSVG.number(max(2, x1 - x0)))\" height=\"\(WebSVG.number(bottom - top))\" class=\"f-shade s-fail consumer\" stroke-width=\"1.5\"/>"
                out +=
                    "<text x=\"\(WebSVG.number((x0 + x1) / 2))\" y=\"\(WebSVG.number(top + 14))\" text-anchor=\"middle\" class=\"f-fail\" font-size=\"12\" font-weight=\"700\">"
                out += "#\(rank + 1) \(HTML.escape(LotReason.fraction(excursion.consumed)))</text>"
            }
            // Temperature grid and labels.
            let span = (high + pad) - (low - pad)
            let step = [1.0, 2, 5, 10, 20, 50].first { span / $0 <= 7 } ?? 100
            var tick = ((low - pad) / step).rounded(.up) * step
            while tick <= high + pad {
                out +=
                    "<line x1=\"\(WebSVG.number(left))\" x2=\"\(WebSVG.number(right))\" y1=\"\(py(tick))\" y2=\"\(py(tick))\" class=\"s-grid\" stroke-width=\"0.5\"/>"
                out +=
                    "<text x=\"\(WebSVG.number(left - 4))\" y=\"\(WebSVG.number(y.position(tick) + 4))\" text-anchor=\"end\" class=\"f-text2\" font-size=\"11\">"
                out += "\(HTML.escape(f.temperature(tick, decimals: 0)))</text>"
                tick += step
            }
            // Curves, one per leg.
            for points in curves where !points.isEmpty {
                var data = ""
                for (index, point) in points.enumerated() { data += (index == 0 ? "M" : "L") + px(point.0) + " " + py(point.1) }
                if points.count == 1 { data += "h2" }
                out += "<path d=\"\(data)\" fill=\"none\" class=\"s-curve\" stroke-width=\"2\" stroke-linejoin=\"round\"/>"
            }
            for event in status.discardEvents {
                out += "<circle cx=\"\(px(event.time))\" cy=\"\(py(event.temperature))\" r=\"5\" class=\"f-fail\"/>"
            }
            // Leg boundaries on the one time axis, their loggers above.
            for (index, leg) in status.legs.enumerated() {
                let x0 = x.position(leg.from.timeIntervalSince1970), x1 = x.position(leg.to.timeIntervalSince1970)
                out +=
                    "<line x1=\"\(WebSVG.number(x0))\" x2=\"\(WebSVG.number(x0))\" y1=\"\(WebSVG.number(top - 4))\" y2=\"\(WebSVG.number(bottom + 4))\" class=\"s-axis\"/>"
                let name = "\(index + 1) · \(leg.logger ?? words.noLogger)"
                let emphasis = index == topLeg ? " font-weight=\"700\"" : ""
                let row = index % 2 == 0 ? 16.0 : 32.0
                out +=
                    "<text x=\"\(WebSVG.number(min(x0 + 3, right - 60)))\" y=\"\(WebSVG.number(row))\" class=\"\(index == topLeg ? "f-fail" : "f-text")\" font-size=\"12\"\(emphasis)>"
                out += "\(HTML.escape(name))</text>"
                let timeRow = bottom + (index % 2 == 0 ? 16.0 : 30.0)
                out +=
                    "<text x=\"\(WebSVG.number(x0))\" y=\"\(WebSVG.number(timeRow))\" text-anchor=\"\(index == 0 ? "start" : "middle")\" class=\"f-text2\" font-size=\"11\">"
                out += "\(HTML.escape(f.dateTime(leg.from)))</text>"
                if index == status.legs.count - 1 {
                    out +=
                        "<line x1=\"\(WebSVG.number(x1))\" x2=\"\(WebSVG.number(x1))\" y1=\"\(WebSVG.number(top - 4))\" y2=\"\(WebSVG.number(bottom + 4))\" class=\"s-axis\"/>"
                    out += "<text x=\"\(WebSVG.number(x1))\" y=\"\(WebSVG.number(bottom + 44))\" text-anchor=\"end\" class=\"f-text2\" font-size=\"11\">"
                    out += "\(HTML.escape(f.dateTime(leg.to)))</text>"
                }
            }
            out += "</svg>"
            return "<h2>\(HTML.escape(words.journey))</h2><div class=\"chartbox\">\(out)</div>"
        }

        var legsTable: String {
            var body = "<h2>\(HTML.escape(words.legs))</h2><div class=\"scroll\"><table class=\"legs\"><thead><tr><th>#</th>"
            body += "<th>\(HTML.escape(context.text.report.logger))</th><th>\(HTML.escape(context.text.from))</th><th>\(HTML.escape(context.text.to))</th>"
            body += "<th class=\"num\">\(HTML.escape(words.consumed))</th><th class=\"num\">\(HTML.escape(words.unknownTime))</th></tr></thead><tbody>"
            for (index, leg) in status.legs.enumerated() {
                let top = index == topLeg
                body += "<tr\(top ? " class=\"top\"" : "")><td>\(index + 1)</td><td>"
                if let logger = leg.logger {
                    body += "<a href=\"\(HTML.escape(Station.loggerLink(logger)))\">\(HTML.escape(logger))</a>"
                } else {
                    body += "<span class=\"muted\">\(HTML.escape(words.noLogger))</span>"
                }
                if leg.integrityFailed { body += " <strong class=\"bad\">⚠</strong>" }
                body += "</td><td class=\"nowrap\">\(HTML.escape(f.dateTime(leg.from)))</td><td class=\"nowrap\">\(HTML.escape(f.dateTime(leg.to)))</td>"
                let consumed = HTML.escape(LotReason.fraction(leg.consumed))
                body += "<td class=\"num\">\(top ? "<strong class=\"bad\">\(consumed)</strong>" : consumed)</td>"
                body += "<td class=\"num\">\(leg.unknownSeconds > 0 ? HTML.escape(f.duration(leg.unknownSeconds)) : "–")</td></tr>"
            }
            return body + "</tbody></table></div>"
        }

        var consumers: String {
            let excursions = status.excursions.sorted { ($0.consumed, $1.start) > ($1.consumed, $0.start) }
            guard !excursions.isEmpty else { return "" }
            var body = "<h2>\(HTML.escape(words.largestConsumers))</h2><p class=\"muted\">\(HTML.escape(words.largestConsumersNote))</p>"
            body += "<div class=\"scroll\"><table class=\"consumers\"><thead><tr><th>#</th><th>\(HTML.escape(words.leg))</th>"
            body += "<th>\(HTML.escape(words.start))</th><th>\(HTML.escape(words.duration))</th><th class=\"num\">\(HTML.escape(words.peak))</th>"
            body += "<th class=\"num\">\(HTML.escape(words.consumed))</th></tr></thead><tbody>"
            for (rank, excursion) in excursions.prefix(10).enumerated() {
                let top = rank < LotEvaluation.excursionsInReasons
                let leg = status.legs.indices.contains(excursion.leg) ? status.legs[excursion.leg].logger ?? words.noLogger : ""
                body += "<tr\(top ? " class=\"top\"" : "")><td>\(rank + 1)</td><td>\(excursion.leg + 1) · \(HTML.escape(leg))</td>"
                body += "<td class=\"nowrap\">\(HTML.escape(f.dateTime(excursion.start)))</td><td>\(HTML.escape(f.duration(excursion.seconds)))</td>"
                body += "<td class=\"num\">\(HTML.escape(f.temperature(excursion.peak)))</td>"
                let consumed = HTML.escape(LotReason.fraction(excursion.consumed))
                body += "<td class=\"num\">\(top ? "<strong class=\"bad\">\(consumed)</strong>" : consumed)</td></tr>"
            }
            return body + "</tbody></table></div>"
        }

        var bandsTable: String {
            guard !status.bands.isEmpty else { return "" }
            var body = "<h2>\(HTML.escape(words.bands))</h2><div class=\"scroll\"><table class=\"bands\"><thead><tr><th>\(HTML.escape(words.band))</th>"
            body += "<th class=\"num\">\(HTML.escape(words.timeInBand))</th><th class=\"num\">\(HTML.escape(words.allowance))</th>"
            body += "<th class=\"num\">\(HTML.escape(words.share))</th></tr></thead><tbody>"
            for band in status.bands {
                let share = band.allowanceSeconds > 0 ? band.seconds / band.allowanceSeconds : 0
                body += "<tr><td>\(HTML.escape(band.band))</td><td class=\"num\">\(HTML.escape(f.duration(band.seconds)))</td>"
                body +=
                    "<td class=\"num\">\(HTML.escape(f.duration(band.allowanceSeconds)))</td><td class=\"num\">\(HTML.escape(LotReason.fraction(share)))</td></tr>"
            }
            return body + "</tbody></table></div>"
        }

        var discards: String {
            guard !status.discardEvents.isEmpty else { return "" }
            var body = "<h2 class=\"bad\">\(HTML.escape(words.discardEvents))</h2><div class=\"scroll\"><table><thead><tr>"
            body += "<th>\(HTML.escape(words.start))</th><th>\(HTML.escape(words.leg))</th><th class=\"num\">\(HTML.escape(words.peak))</th>"
            body += "<th>\(HTML.escape(words.rule))</th></tr></thead><tbody>"
            for event in status.discardEvents {
                let leg = status.legs.indices.contains(event.leg) ? status.legs[event.leg].logger ?? words.noLogger : ""
                body += "<tr><td class=\"nowrap\">\(HTML.escape(f.dateTime(event.time)))</td><td>\(event.leg + 1) · \(HTML.escape(leg))</td>"
                body += "<td class=\"num bad\">\(HTML.escape(f.temperature(event.temperature)))</td><td>\(HTML.escape(event.rule.description))</td></tr>"
            }
            return body + "</tbody></table></div>"
        }

        var reasons: String {
            "<h2>\(HTML.escape(words.reasons))</h2><ul class=\"reasons\">"
                + LotReportPage.reasonTexts(of: status, language: context.language, timeZone: context.zone).map { "<li>\(HTML.escape($0))</li>" }
                .joined() + "</ul>"
        }

        var moves: String {
            guard !journey.moves.isEmpty else { return "" }
            var body = "<h2>\(HTML.escape(words.moves))</h2><div class=\"scroll\"><table class=\"moves\"><thead><tr><th>#</th>"
            body += "<th>\(HTML.escape(words.kind))</th><th>\(HTML.escape(context.text.report.logger))</th><th>\(HTML.escape(words.start))</th>"
            body += "<th>\(HTML.escape(words.place))</th><th>\(HTML.escape(words.recordedBy))</th></tr></thead><tbody>"
            for move in journey.moves {
                let what = move.kind == .close ? "\(words.closed) (\(move.reason?.rawValue ?? ""))" : move.kind.rawValue
                body += "<tr><td>\(move.seq)</td><td>\(HTML.escape(what))</td><td>\(HTML.escape(move.loggerID ?? "–"))</td>"
                body += "<td class=\"nowrap\">\(HTML.escape(f.dateTime(move.at)))</td><td>\(HTML.escape(move.place))</td>"
                body +=
                    "<td>\(HTML.escape(move.by))<br><span class=\"muted\">\(HTML.escape(f.dateTime(move.recorded))) · \(HTML.escape(move.origin))</span></td></tr>"
            }
            return body + "</tbody></table></div>"
        }
    }
}
