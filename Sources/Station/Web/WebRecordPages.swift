import Archive
import ArchiveKit
import ColdChain
import ColdTapBase
import Foundation
import JSONOutput
import LoggerFormats
import TempChart

/// The overview, the logger page, the reads page, acknowledging and downloads.
extension Station {
    // MARK: Overview

    /// Loggers on one overview page.
    static let overviewPageSize = 100

    /// The overview's query: `verdict`, `review`, `q` (text) and `page`, each checked; an
    /// unknown value is a 400 that says what is taken.
    struct OverviewQuery: Equatable {
        var filter = OverviewFilter()
        var page = 1

        static let longestText = 100

        static func parse(_ fields: OverviewFields) throws -> OverviewQuery {
            var query = OverviewQuery()
            if let text = fields.verdict, !text.isEmpty {
                guard let key = OverviewFilter.verdictKeys.first(where: { $0.caseInsensitiveCompare(text) == .orderedSame }) else {
                    throw HTTPFailure.badRequest("verdict '\(text.prefix(32))' is not one of ALARM, INCONCLUSIVE, OK or none.")
                }
                query.filter.verdict = key
            }
            if let text = fields.review, !text.isEmpty {
                guard let state = ReviewState(rawValue: text.lowercased()) else {
                    throw HTTPFailure.badRequest("review '\(text.prefix(32))' is not one of attention, acknowledged or clear.")
                }
                query.filter.review = state
            }
            if let text = fields.q?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty {
                guard text.count <= longestText else { throw HTTPFailure.badRequest("q is longer than \(longestText) characters.") }
                query.filter.text = text
            }
            if let text = fields.page, !text.isEmpty {
                guard text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }), let page = Int(text), page >= 1 else {
                    throw HTTPFailure.badRequest("page '\(text.prefix(32))' is not a page number (1, 2, 3…).")
                }
                query.page = page
            }
            return query
        }

        /// The filters as a link's query items (the page apart).
        var filterItems: [(String, String)] {
            [("verdict", filter.verdict), ("review", filter.review?.rawValue), ("q", filter.text)].compactMap { name, value in value.map { (name, $0) } }
        }

        /// `/?…` of `page` with these filters.
        func link(page: Int) -> String {
            "/" + Station.query(filterItems + (page > 1 ? [("page", String(page))] : []))
        }
    }

    struct OverviewRow {
        var logger: LoggerRecord
        var facts: OverviewFacts
        var last: Double?
        var low: Double?
        var high: Double?
        var sparkline: String
        /// The logger's newest signed review, if any.
        var review: SignatureRecord? = nil

        var verdict: String? { facts.verdict }
        var lastRead: Date? { facts.lastRead.map { Date(timeIntervalSince1970: Double($0) / 1000) } }
        var open: Int { Int(facts.openExcursions) }
        var openSince: Date? { facts.openSince.map { Date(timeIntervalSince1970: Double($0) / 1000) } }
    }

    /// Whether the logger's newest data is reviewed: its newest review signed the newest read
    /// and reaches its newest sample; else what it covers.
    static func reviewCell(_ row: OverviewRow, context: WebContext) -> String {
        let words = context.text.accounts
        guard let review = row.review else { return "<span class=\"muted\">\(HTML.escape(words.notReviewed))</span>" }
        let meaning = HTML.escape(context.text.meaning(review.meaning))
        let who = "\(HTML.escape(review.printedName)), \(HTML.escape(context.formatter.dateTime(review.signed)))"
        let newestSigned = review.signedReadIDs.contains(row.facts.readID) && review.to.timeIntervalSince1970 * 1000 >= Double(row.facts.lastSample ?? 0)
        if newestSigned { return "<span class=\"\(review.meaning == .rejected ? "bad" : "good")\">✓ \(meaning)</span><br><span class=\"muted\">\(who)</span>" }
        return "<span class=\"warn\">\(HTML.escape(words.reviewedUpTo)) \(HTML.escape(context.formatter.dateTime(review.to)))</span>"
            + "<br><span class=\"muted\">\(HTML.escape(words.newerNotReviewed)) · \(meaning): \(who)</span>"
    }

    /// One shown row: the kept facts (verdict, open excursions: `OverviewFacts`) and what is
    /// drawn from the last 24 hours of samples (measured back from the newest): their
    /// extremes, the newest and the sparkline with the profile's band. One query.
    func overviewRow(_ store: StationStore, _ kept: OverviewPage.Row, context: WebContext, profiles: inout [String: Profile]) throws -> OverviewRow {
        var row = OverviewRow(logger: kept.logger, facts: kept.facts, last: nil, low: nil, high: nil, sparkline: "")
        guard let newest = kept.facts.lastSample else { return row }
        let profile: Profile
        if let json = kept.profileJSON {
            if let known = profiles[json] {
                profile = known
            } else {
                profile = (try? Profile.fromJSON(Data(json.utf8))) ?? configuration.defaultProfile
                profiles[json] = profile
            }
        } else {
            profile = configuration.defaultProfile
        }
        let (times, values) = try store.pageSeries(loggerID: kept.logger.id, generation: kept.facts.generation, from: newest - 86_400_000, to: newest)
        for value in values where value.isFinite {
            row.low = min(row.low ?? value, value)
            row.high = max(row.high ?? value, value)
        }
        row.last = values.last { $0.isFinite }
        let series = ChartSeries(times: times, values: values, interval: OverviewFacts.medianStep(times))
        let band = profile.excursionBand
        row.sparkline = WebSVG.sparkline(
            series, from: times.first ?? 0, to: times.last ?? 0, lower: band.low?.limit, upper: band.high?.limit,
            label: "\(context.text.trend24h): \(kept.logger.id)")
        return row
    }

    /// The site's overview page asked for: its kept rows brought up to date, then one page of
    /// them with the whole site's counts, and the shown rows drawn.
    func overviewRows(siteID: Int64, query: OverviewQuery, context: WebContext) throws -> (OverviewPage, [OverviewRow]) {
        try pool.with { store in
            try store.refreshOverview(siteID: siteID)
            let page = try store.overviewPage(siteID: siteID, filter: query.filter, page: query.page, pageSize: Station.overviewPageSize)
            var profiles: [String: Profile] = [:]
            let reviews = try store.newestReviews(loggerIDs: page.rows.map(\.logger.id))
            return (
                page,
                try page.rows.map { kept in
                    var row = try overviewRow(store, kept, context: context, profiles: &profiles)
                    row.review = reviews[kept.logger.id]
                    return row
                }
            )
        }
    }

    func overviewPage(_ context: WebContext, query fields: OverviewFields) throws -> HTTPResponse {
        let text = context.text, f = context.formatter
        guard let caller = context.caller else { return notFoundPage(context) }
        let query = try OverviewQuery.parse(fields)
        let (page, rows) = try overviewRows(siteID: caller.site.id, query: query, context: context)
        var body = Station.siteTabs(lots: false, context) + "<h1>\(HTML.escape(text.overview))</h1>"
        guard page.counts.loggers > 0 else {
            return self.page(context, status: 200, title: text.overview, body: body + "<p>\(HTML.escape(text.noLoggers))</p>")
        }
        // The whole site's counts, each a link to its loggers.
        let counts = page.counts
        body +=
            "<p class=\"counts\">"
            + OverviewFilter.verdictKeys.compactMap { key in
                counts.byVerdict[key].map {
                    "<a href=\"\(HTML.escape(OverviewQuery(filter: OverviewFilter(verdict: key)).link(page: 1)))\">\(Station.verdictBadge(key == "none" ? nil : key, text))</a> \($0)"
                }
            }.joined(separator: " &nbsp; ") + " &nbsp; <span class=\"muted\">\(HTML.escape(text.loggersCount(counts.loggers)))</span></p>"
        body +=
            "<p class=\"counts\">"
            + ReviewState.allCases.map { state in
                let label = HTML.escape(text.reviewName(state))
                let count = counts.byReview[state] ?? 0
                let shown = state == .attention && count > 0 ? "<strong class=\"bad\">\(count)</strong>" : "\(count)"
                return "<a href=\"\(HTML.escape(OverviewQuery(filter: OverviewFilter(review: state)).link(page: 1)))\">\(label)</a> \(shown)"
            }.joined(separator: " &nbsp;·&nbsp; ") + "</p>"
        body += overviewFilterForm(query, context: context)
        let position = "\(HTML.escape(text.matchingCount(page.matching))) · \(HTML.escape(text.pageOf(page.page, page.pages)))"
        body += "<p class=\"muted\" role=\"status\">\(position)</p>"
        guard !rows.isEmpty else { return self.page(context, status: 200, title: text.overview, body: body + "<p>\(HTML.escape(text.noMatch))</p>") }
        body += "<div class=\"scroll\"><table class=\"overview\"><thead><tr><th>\(HTML.escape(text.report.logger))</th><th>\(HTML.escape(text.verdict24h))</th>"
        body +=
            "<th>\(HTML.escape(text.lastRead))</th><th class=\"num\">\(HTML.escape(text.lastTemperature))</th><th class=\"num\">\(HTML.escape(text.minMax24h))</th>"
        body +=
            "<th class=\"num\">\(HTML.escape(text.openExcursions))</th><th>\(HTML.escape(text.accounts.review))</th><th>\(HTML.escape(text.trend24h))</th></tr></thead><tbody>"
        for row in rows {
            let logger = row.logger
            let detail = [logger.vendor, logger.model, logger.serial.map { "#\($0)" }].compactMap { $0 }.joined(separator: " ")
            body +=
                "<tr class=\"r-\(Station.verdictKey(row.verdict))\"><td><a href=\"\(HTML.escape(Station.loggerLink(logger.id)))\"><strong>\(HTML.escape(logger.id))</strong></a>"
            body += "<br><span class=\"muted\">\(HTML.escape(detail.isEmpty ? logger.format : detail))</span></td>"
            // An OK beside excursions nobody has acknowledged yet says so (as the report's headline does).
            let note =
                row.open > 0
                ? "<br><strong class=\"bad\">— \(HTML.escape(LogTexts.headlineNote(.excursionsNotAcknowledged(count: row.open), language: context.language, timeZone: context.zone)))</strong>"
                : ""
            body += "<td>\(Station.verdictBadge(row.verdict, text))\(note)</td><td>\(Station.timeCell(row.lastRead, context: context))</td>"
            body += "<td class=\"num\">\(row.last.map { HTML.escape(f.temperature($0)) } ?? "–")</td>"
            body +=
                "<td class=\"num\">\(row.low.map { HTML.escape(f.temperature($0)) } ?? "–") / \(row.high.map { HTML.escape(f.temperature($0)) } ?? "–")</td>"
            body += "<td class=\"num\">\(row.open > 0 ? "<strong class=\"bad\">\(row.open)</strong>" : "0")"
            if let since = row.openSince { body += "<br><span class=\"muted\">\(HTML.escape(text.since)) \(HTML.escape(f.dateTime(since)))</span>" }
            body += "</td><td class=\"review\">\(Station.reviewCell(row, context: context))</td><td class=\"spark-cell\">\(row.sparkline)</td></tr>"
        }
        body += "</tbody></table></div>"
        body += overviewPager(query, page: page, context: context)
        return self.page(context, status: 200, title: text.overview, body: body)
    }

    /// The filters as a GET form (no script): verdict, review state, text.
    private func overviewFilterForm(_ query: OverviewQuery, context: WebContext) -> String {
        let text = context.text
        func option(_ value: String, _ label: String, selected: Bool) -> String {
            "<option value=\"\(HTML.escape(value))\"\(selected ? " selected" : "")>\(HTML.escape(label))</option>"
        }
        var form = "<form method=\"get\" action=\"/\" class=\"filters\" role=\"search\">"
        form += "<label>\(HTML.escape(text.verdictFilter)) <select name=\"verdict\">" + option("", text.anyValue, selected: query.filter.verdict == nil)
        for key in OverviewFilter.verdictKeys {
            form += option(key, Station.verdictLabel(key == "none" ? nil : key, text), selected: query.filter.verdict == key)
        }
        form += "</select></label> <label>\(HTML.escape(text.reviewFilter)) <select name=\"review\">"
        form += option("", text.anyValue, selected: query.filter.review == nil)
        for state in ReviewState.allCases { form += option(state.rawValue, text.reviewName(state), selected: query.filter.review == state) }
        form +=
            "</select></label> <input type=\"search\" name=\"q\" maxlength=\"\(OverviewQuery.longestText)\" value=\"\(HTML.escape(query.filter.text ?? ""))\""
        form += " placeholder=\"\(HTML.escape(text.searchHint))\" aria-label=\"\(HTML.escape(text.searchHint))\">"
        form += " <button type=\"submit\">\(HTML.escape(text.filter))</button>"
        if !query.filter.isEmpty { form += " <a href=\"/\">\(HTML.escape(text.clearFilters))</a>" }
        return form + "</form>"
    }

    /// Previous / "page x of y" / next, each link keeping the filters.
    private func overviewPager(_ query: OverviewQuery, page: OverviewPage, context: WebContext) -> String {
        guard page.pages > 1 else { return "" }
        let text = context.text
        var pager = "<nav class=\"periods pager\" aria-label=\"\(HTML.escape(text.pageOf(page.page, page.pages)))\">"
        if page.page > 1 {
            pager += "<a href=\"\(HTML.escape(query.link(page: 1)))\" rel=\"first\">« 1</a>"
            pager += "<a href=\"\(HTML.escape(query.link(page: page.page - 1)))\" rel=\"prev\">← \(HTML.escape(text.previousPage))</a>"
        }
        pager += "<strong>\(HTML.escape(text.pageOf(page.page, page.pages)))</strong>"
        if page.page < page.pages {
            pager += "<a href=\"\(HTML.escape(query.link(page: page.page + 1)))\" rel=\"next\">\(HTML.escape(text.nextPage)) →</a>"
            pager += "<a href=\"\(HTML.escape(query.link(page: page.pages)))\" rel=\"last\">\(page.pages) »</a>"
        }
        return pager + "</nav>"
    }

    // MARK: Logger page

    enum PagePeriod: String, CaseIterable {
        case day, week, month, year, all, custom

        var seconds: TimeInterval? {
            switch self {
            case .day: return 86400
            case .week: return 7 * 86400
            case .month: return 30 * 86400
            case .year: return 365 * 86400
            case .all, .custom: return nil
            }
        }
    }

    /// `yyyy-MM-dd` (a whole day in the site's zone) or an ISO 8601 time.
    static func parsePageTime(_ text: String, zone: TimeZone, endOfDay: Bool) -> Date? {
        if let time = Station.parseTime(text) { return time }
        guard text.count == 10, let day = CalendarDay.parse(text, in: zone) else { return nil }
        return endOfDay ? day.addingTimeInterval(86400 - 0.001) : day
    }

    static func dayText(_ date: Date, zone: TimeZone) -> String {
        CalendarDay.text(date, in: zone)
    }

    /// The period of a logger page: `?from=&to=` (custom), else `?period=` ending at the
    /// logger's newest sample (a week when not given).
    func pagePeriod(_ context: WebContext, query: LoggerPageQuery, newest: Date?) throws -> (PagePeriod, Date?, Date?) {
        if query.from != nil || query.to != nil {
            var from: Date?, to: Date?
            if let text = query.from, !text.isEmpty {
                guard let date = Station.parsePageTime(text, zone: context.zone, endOfDay: false) else {
                    throw HTTPFailure.badRequest("from '\(text.prefix(64))' is not a day (2024-04-09) or a time (2024-04-09T08:35:00Z).")
                }
                from = date
            }
            if let text = query.to, !text.isEmpty {
                guard let date = Station.parsePageTime(text, zone: context.zone, endOfDay: true) else {
                    throw HTTPFailure.badRequest("to '\(text.prefix(64))' is not a day (2024-04-09) or a time (2024-04-09T08:35:00Z).")
                }
                to = date
            }
            if let from, let to, from > to { throw HTTPFailure.badRequest("from is after to.") }
            return (.custom, from, to)
        }
        let period = query.period.flatMap(PagePeriod.init(rawValue:)) ?? .week
        guard let seconds = period.seconds, let newest else { return (period == .custom ? .all : period, nil, nil) }
        return (period, newest.addingTimeInterval(-seconds), newest)
    }

    /// At most this many reads are listed on a logger page (the newest), so that the page
    /// stays small for a logger read every day for years.
    static let listedReads = 60
    /// At most this many excursions are listed with their forms.
    static let listedExcursions = 100

    func loggerPage(_ context: WebContext, query: LoggerPageQuery, loggerID: String) throws -> HTTPResponse {
        let (summary, report, usersOn) = try pool.with { store -> (LoggerSummary?, LoggerReport?, Bool) in
            guard let summary = try store.summary(loggerID: loggerID) else { return (nil, nil, false) }
            let (_, from, to) = try pagePeriod(context, query: query, newest: summary.lastSample)
            let report = try RuleBook.loggerReport(
                loggerID: loggerID, from: from, to: to, profile: nil, defaultProfile: configuration.defaultProfile, timeZone: context.zone,
                archive: store.archive, accounts: store)
            return (summary, report, try store.hasUsers())
        }
        guard let summary, let report else { return notFoundPage(context) }
        let (period, from, to) = try pagePeriod(context, query: query, newest: summary.lastSample)
        let history = report.history
        let page = LoggerPage(
            context: context, history: history, profile: report.profile, log: report.log, assessment: report.assessment,
            content: ReportContent(log: report.log, assessment: report.assessment, language: context.language),
            period: period, from: from, to: to, stated: report.period, signatures: report.signatures, usersOn: usersOn)
        let body =
            page.header + page.periodSwitch + page.chart + page.statistics + page.excursions + page.signaturesSection + page.reads(self) + page.downloads
        return self.page(context, status: 200, title: history.logger.id, body: body)
    }

    /// The sections of a logger's page, each its HTML.
    struct LoggerPage {
        let context: WebContext
        let history: History
        let profile: Profile
        let log: TemperatureLog
        let assessment: Assessment
        let content: ReportContent
        let period: PagePeriod
        let from: Date?
        let to: Date?
        /// The period the page states and its review form signs (the rule book's
        /// `LoggerReport.period`): the first to the last sample of the page's window.
        let stated: ReportPeriod?
        /// Every signature of the logger; the section shows those on this period.
        let signatures: [SignatureRecord]
        /// Whether the station has users: acknowledging is then a signature with a password.
        let usersOn: Bool

        private var text: WebText { context.text }
        private var strings: ReportStrings { context.text.report }
        private var f: ChartFormatter { context.formatter }
        private var link: String { Station.loggerLink(history.logger.id) }

        /// The page's own query, kept by the acknowledgement form to come back to it.
        private var query: [(String, String)] {
            switch period {
            case .custom:
                return (from.map { [("from", context.request.query("from") ?? $0.isoUTC)] } ?? [])
                    + (to.map { [("to", context.request.query("to") ?? $0.isoUTC)] } ?? [])
            default: return [("period", period.rawValue)]
            }
        }

        /// The logger, the verdict and its reasons.
        var header: String {
            let verdictKey = assessment.verdict.rawValue
            var body = "<p class=\"noprint\"><a href=\"/\">← \(HTML.escape(text.overview))</a></p>"
            body += "<h1>\(HTML.escape(history.logger.id))</h1>"
            body += "<div class=\"banner v-\(Station.verdictKey(verdictKey))\">\(HTML.escape(Station.verdictLabel(verdictKey, text)))"
            body += " — \(HTML.escape(profile.description))</div>"
            if let note = content.headlineNote {
                body += "<p class=\"bad\"><strong>\(HTML.escape(Station.verdictLabel(verdictKey, text))) — \(HTML.escape(note))</strong></p>"
            }
            if !content.reasons.isEmpty {
                body += "<ul>" + content.reasons.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul>"
            }
            return body
        }

        /// Period switch: GET links and a custom form.
        var periodSwitch: String {
            var body = "<nav class=\"periods\" aria-label=\"\(HTML.escape(strings.period))\">"
            for (choice, label) in [(PagePeriod.day, text.day), (.week, text.week), (.month, text.month), (.year, text.year), (.all, text.all)] {
                body +=
                    choice == period
                    ? "<strong>\(HTML.escape(label))</strong>" : "<a href=\"\(HTML.escape(link))?period=\(choice.rawValue)\">\(HTML.escape(label))</a>"
            }
            let fromValue = from.map { Station.dayText($0, zone: context.zone) } ?? ""
            let toValue = to.map { Station.dayText($0, zone: context.zone) } ?? ""
            body += "<form method=\"get\" action=\"\(HTML.escape(link))\" class=\"inline\">"
            body += "\(period == .custom ? "<strong>\(HTML.escape(text.custom))</strong>" : HTML.escape(text.custom)): "
            body += "<label>\(HTML.escape(text.from)) <input type=\"date\" name=\"from\" value=\"\(fromValue)\"></label> "
            body += "<label>\(HTML.escape(text.to)) <input type=\"date\" name=\"to\" value=\"\(toValue)\"></label> "
            body += "<button type=\"submit\">\(HTML.escape(text.show))</button></form></nav>"
            return body
        }

        /// The chart of the reports, with the period it covers.
        var chart: String {
            var body = ""
            if let stated {
                body +=
                    "<p class=\"muted\" id=\"period\">\(HTML.escape(strings.period)): \(HTML.escape(f.dateTime(stated.start))) – \(HTML.escape(f.dateTime(stated.end))) (\(HTML.escape(f.zoneDescription(from: stated.start, to: stated.end))))</p>"
            }
            let spec = content.chartSpec(
                frame: ChartRect(x: 0, y: 0, width: 1000, height: 420), timeZone: context.zone,
                language: context.language, theme: .light)
            return body + "<h2>\(HTML.escape(strings.sectionChart))</h2>" + "<div class=\"chartbox\">"
                + WebSVG.chart(spec, label: "\(strings.sectionChart): \(history.logger.id)") + "</div>"
        }

        var statistics: String {
            let s = content.statistics
            let logger = history.logger
            var stats: [(String, String)] = [
                (strings.samples, "\(s.sampleCount)"),
                (strings.interval, history.interval > 0 ? f.duration(history.interval) : "–"),
                (strings.minMax, "\(s.minimum.map { f.temperature($0) } ?? "–") / \(s.maximum.map { f.temperature($0) } ?? "–")"),
                (strings.mean, s.mean.map { f.temperature($0) } ?? "–"),
                (strings.mkt, s.meanKineticTemperature.map { f.temperature($0) } ?? "–"),
                (strings.timeAbove, f.duration(s.timeAbove)),
                (strings.timeBelow, f.duration(s.timeBelow)),
                (strings.invalidSamples, "\(s.invalidCount)"),
                (text.gaps, "\(history.gaps.count)"),
                (text.conflicts, "\(history.conflicts.count)"),
            ]
            if let serial = logger.serial { stats.insert((strings.serial, serial), at: 0) }
            if let uid = logger.tagUID { stats.insert((strings.tagUID, uid), at: 0) }
            stats.insert((strings.format, logger.format), at: 0)
            return "<h2>\(HTML.escape(strings.sectionStatistics))</h2><dl class=\"stats\">"
                + stats.map { "<div><dt>\(HTML.escape($0.0))</dt><dd>\(HTML.escape($0.1))</dd></div>" }.joined() + "</dl>"
        }

        /// Excursions, their acknowledgements, and the form to acknowledge one (upload scope).
        var excursions: String {
            var body = "<h2 id=\"excursions\">\(HTML.escape(strings.sectionExcursions))</h2>"
            let mayAcknowledge = (context.caller?.scope ?? .read) >= .upload
            guard !content.excursions.isEmpty else { return body + "<p>\(HTML.escape(strings.noExcursions))</p>" }
            if !mayAcknowledge { body += "<p class=\"muted\">\(HTML.escape(text.needsUploadToken))</p>" }
            body += "<div class=\"scroll\"><table><thead><tr><th>\(HTML.escape(strings.excursionStart))</th><th>\(HTML.escape(strings.excursionDuration))</th>"
            body +=
                "<th class=\"num\">\(HTML.escape(strings.excursionPeak))</th><th>\(HTML.escape(strings.excursionDirection))</th><th>\(HTML.escape(text.acknowledgements))</th></tr></thead><tbody>"
            for excursion in content.excursions.suffix(Station.listedExcursions) {
                let acks = history.excursionAcknowledgements.filter { $0.names(excursionStartingAt: excursion.start, interval: history.interval) }
                body +=
                    "<tr><td class=\"nowrap\">\(HTML.escape(f.dateTime(excursion.start)))</td><td>\(HTML.escape(f.duration(excursion.end.timeIntervalSince(excursion.start))))</td>"
                body +=
                    "<td class=\"num bad\">\(HTML.escape(f.temperature(excursion.peak)))</td><td>\(HTML.escape(excursion.direction == .high ? strings.above : strings.below))</td><td>"
                if acks.isEmpty { body += "<span class=\"bad\">\(HTML.escape(text.unacknowledged))</span>" }
                for ack in acks {
                    body +=
                        "<div class=\"acked\">✓ \(HTML.escape(text.acknowledgedBy)) <strong>\(HTML.escape(ack.by))</strong>, \(HTML.escape(f.dateTime(ack.at)))<br>\(HTML.escape(ack.comment))</div>"
                }
                if mayAcknowledge { body += acknowledgementForm(excursion.start, followUp: !acks.isEmpty) }
                body += "</td></tr>"
            }
            body += "</tbody></table></div>"
            if content.excursions.count > Station.listedExcursions {
                body += "<p class=\"muted\">\(content.excursions.count - Station.listedExcursions) \(HTML.escape(strings.moreExcursions))</p>"
            }
            return body
        }

        /// The form acknowledging the excursion from `start`; once it is acknowledged, the
        /// same form records a follow-up (`again`), and says so on its button.
        private func acknowledgementForm(_ start: Date, followUp: Bool) -> String {
            var body = "<form method=\"post\" action=\"\(HTML.escape(link))/acknowledgements\" class=\"ack\(followUp ? " follow-up" : "")\">"
            body += "<input type=\"hidden\" name=\"form\" value=\"\(context.formToken)\"><input type=\"hidden\" name=\"excursion\" value=\"\(start.isoUTC)\">"
            body += "<input type=\"hidden\" name=\"back\" value=\"\(HTML.escape(Station.query(query)))\">"
            if followUp { body += "<input type=\"hidden\" name=\"again\" value=\"true\">" }
            if !usersOn {
                body +=
                    "<input type=\"text\" name=\"by\" required maxlength=\"200\" placeholder=\"\(HTML.escape(text.by))\" aria-label=\"\(HTML.escape(text.by))\">"
            }
            body +=
                "<input type=\"text\" name=\"comment\" required maxlength=\"4000\" placeholder=\"\(HTML.escape(text.comment))\" aria-label=\"\(HTML.escape(text.comment))\">"
            if usersOn { body += signerFields }
            let button = followUp ? text.followUp : usersOn ? text.accounts.signAcknowledgement : text.acknowledge
            return body + "<button type=\"submit\">\(HTML.escape(button))</button></form>"
        }

        /// What a signature asks again: the password, and on a session's first signature the
        /// user name too (21 CFR 11.200).
        private var signerFields: String {
            let words = text.accounts
            var body = ""
            if (context.caller?.session?.signatures ?? 0) == 0 {
                body +=
                    "<input type=\"text\" name=\"user\" required maxlength=\"64\" autocomplete=\"username\" placeholder=\"\(HTML.escape(words.userLabel))\" aria-label=\"\(HTML.escape(words.userLabel))\" title=\"\(HTML.escape(words.firstSignatureNeedsName))\">"
            }
            body +=
                "<input type=\"password\" name=\"password\" required autocomplete=\"current-password\" placeholder=\"\(HTML.escape(words.passwordAgain))\" aria-label=\"\(HTML.escape(words.passwordAgain))\">"
            return body
        }

        /// The period a review of this page signs: exactly the one the page states.
        var reviewPeriod: (from: Date, to: Date)? { stated.map { ($0.start, $0.end) } }

        /// The signatures on this period, and the form to sign a review of it (reviewers).
        var signaturesSection: String {
            let words = text.accounts
            var body = "<h2 id=\"signatures\">\(HTML.escape(words.signatures))</h2>"
            let shown = signatures.filter { $0.overlaps(from: reviewPeriod?.from, to: reviewPeriod?.to) }
            if shown.isEmpty { body += "<p class=\"muted\">\(HTML.escape(words.noSignatures))</p>" }
            for signature in shown.reversed() {
                let zone = TimeZone(identifier: signature.timeZone) ?? context.zone
                let time = ChartFormatter(timeZone: zone, language: context.language).dateTime(signature.signed)
                body +=
                    "<div class=\"signature\" data-signature=\"\(signature.id)\"><strong>\(HTML.escape(text.meaning(signature.meaning)))</strong> · "
                body += "\(HTML.escape(signature.printedName)) (\(HTML.escape(text.role(signature.role)))) · "
                body += "<time datetime=\"\(signature.signed.isoUTC)\">\(HTML.escape(time)) \(HTML.escape(signature.timeZone))</time><br>"
                body += "<span class=\"muted\">\(HTML.escape(f.dateTime(signature.from))) – \(HTML.escape(f.dateTime(signature.to)))"
                let seen = signature.signedAssessment
                if let verdict = seen.verdict {
                    body +=
                        " · \(HTML.escape(Station.verdictLabel(verdict, text))) · \(HTML.escape(words.excursionsSigned(seen.excursions, seen.acknowledged)))"
                }
                body += " · SHA-256 <code title=\"\(signature.statementSHA256)\">\(signature.statementSHA256.prefix(16))…</code></span>"
                if let comment = signature.comment { body += "<br>\(HTML.escape(comment))" }
                if signature.missesReads(of: history) { body += "<br><span class=\"warn\">\(HTML.escape(words.coversOnly))</span>" }
                body += "</div>"
            }
            guard usersOn, let user = context.caller?.user, user.role >= .reviewer, let period = reviewPeriod else { return body }
            body += "<h3>\(HTML.escape(words.signReview))</h3><p class=\"muted\" id=\"review-period\">\(HTML.escape(words.reviewHint)) "
            body += "\(HTML.escape(f.dateTime(period.from))) – \(HTML.escape(f.dateTime(period.to)))</p>"
            body += "<form method=\"post\" action=\"\(HTML.escape(link))/reviews\" class=\"ack review\">"
            body +=
                "<input type=\"hidden\" name=\"form\" value=\"\(context.formToken)\"><input type=\"hidden\" name=\"back\" value=\"\(HTML.escape(Station.query(query)))\">"
            body += "<input type=\"hidden\" name=\"from\" value=\"\(period.from.isoUTC)\"><input type=\"hidden\" name=\"to\" value=\"\(period.to.isoUTC)\">"
            body += "<select name=\"meaning\" aria-label=\"\(HTML.escape(words.meaning))\">"
            for meaning in [SignatureMeaning.reviewed, .approved, .rejected] {
                body += "<option value=\"\(meaning.rawValue)\">\(HTML.escape(text.meaning(meaning)))</option>"
            }
            body += "</select>"
            body +=
                "<input type=\"text\" name=\"comment\" maxlength=\"4000\" placeholder=\"\(HTML.escape(words.comment))\" aria-label=\"\(HTML.escape(words.comment))\">"
            body += signerFields
            return body + "<button type=\"submit\">\(HTML.escape(words.signReview))</button></form>"
        }

        /// The reads behind this period, newest first.
        func reads(_ station: Station) -> String {
            var body = "<h2>\(HTML.escape(text.readsThatBuilt))</h2>"
            body += station.readsTable(history.reads.sorted { $0.readTime > $1.readTime }.prefix(Station.listedReads), context: context, loggerColumn: nil)
            if history.reads.count > Station.listedReads {
                body += "<p class=\"muted\">\(history.reads.count - Station.listedReads) \(HTML.escape(text.olderReads))</p>"
            }
            return body
        }

        /// Downloads of this period.
        var downloads: String {
            let download = Station.query(
                query.filter { $0.0 != "period" } + (from.map { [("from", $0.isoUTC)] } ?? []).filter { _ in period != .custom }
                    + (to.map { [("to", $0.isoUTC)] } ?? []).filter { _ in period != .custom } + [("lang", context.language.rawValue)])
            return "<h2 class=\"noprint\">\(HTML.escape(text.downloads))</h2><p class=\"noprint\">"
                + [("report.pdf", "PDF"), ("report.html", "HTML"), ("samples.csv", "CSV"), ("samples.json", "JSON")].map {
                    "<a href=\"\(HTML.escape(link))/\($0.0)\(HTML.escape(download))\">\($0.1)</a>"
                }.joined(separator: " · ") + "</p>"
        }
    }

    static func verdictLabel(_ verdict: String?, _ text: WebText) -> String {
        switch verdict {
        case Verdict.alarm.rawValue?: return text.report.verdictAlarm
        case Verdict.ok.rawValue?: return text.report.verdictOK
        case Verdict.inconclusive.rawValue?: return text.report.verdictInconclusive
        default: return text.report.verdictNone
        }
    }

    /// `?a=b&c=d`, or "" for none.
    static func query(_ items: [(String, String)]) -> String {
        guard !items.isEmpty else { return "" }
        var components = URLComponents()
        components.queryItems = items.map { URLQueryItem(name: $0.0, value: $0.1) }
        return "?" + (components.percentEncodedQuery ?? "")
    }

    func readsTable<S: Sequence>(_ reads: S, context: WebContext, loggerColumn: ((ReadSummary) -> String)?) -> String where S.Element == ReadSummary {
        let text = context.text, strings = text.report, f = context.formatter
        var rows = ""
        for read in reads {
            rows += "<tr><td class=\"nowrap\">\(HTML.escape(f.dateTime(read.readTime)))</td>"
            if let loggerColumn { rows += "<td>\(loggerColumn(read))</td>" }
            rows += "<td>\(HTML.escape(read.origin))</td><td class=\"num\">\(read.sampleCount)</td><td class=\"num\">\(read.newSamples)</td>"
            rows +=
                "<td class=\"num\">\(read.duplicates)</td><td class=\"num\">\(read.conflicts > 0 ? "<strong class=\"bad\">\(read.conflicts)</strong>" : "0")</td>"
            let integrity = read.integrity.split(separator: " ").first.map(String.init) ?? read.integrity
            let label = strings.integrityNames[integrity] ?? read.integrity
            rows += "<td\(integrity == "failed" ? " class=\"bad\"" : "")>\(HTML.escape(label))</td></tr>"
        }
        guard !rows.isEmpty else { return "<p>\(HTML.escape(text.noReads))</p>" }
        var head = "<div class=\"scroll\"><table><thead><tr><th>\(HTML.escape(strings.readTime))</th>"
        if loggerColumn != nil { head += "<th>\(HTML.escape(strings.logger))</th>" }
        head +=
            "<th>\(HTML.escape(text.source))</th><th class=\"num\">\(HTML.escape(strings.samples))</th><th class=\"num\">\(HTML.escape(text.newSamples))</th>"
        head +=
            "<th class=\"num\">\(HTML.escape(text.duplicates))</th><th class=\"num\">\(HTML.escape(text.conflicts))</th><th>\(HTML.escape(strings.integrity))</th></tr></thead><tbody>"
        return head + rows + "</tbody></table></div>"
    }

    // MARK: Reads page

    func readsPage(_ context: WebContext) throws -> HTTPResponse {
        let text = context.text, f = context.formatter
        guard let caller = context.caller else { return notFoundPage(context) }
        let reads = try pool.with { store -> [(String, ReadSummary)] in
            let latest = try store.latestReads(siteID: caller.site.id, limit: 100)
            return try latest.compactMap { item in try store.read(loggerID: item.loggerID, readID: item.readID).map { (item.loggerID, $0) } }
        }
        var body = "<h1>\(HTML.escape(text.reads))</h1><h2>\(HTML.escape(text.latestUploads))</h2>"
        let loggers = Dictionary(reads.map { ($0.1.id, $0.0) }, uniquingKeysWith: { first, _ in first })
        body += readsTable(reads.map(\.1), context: context) { read in
            let id = loggers[read.id] ?? ""
            return "<a href=\"\(HTML.escape(Station.loggerLink(id)))\">\(HTML.escape(id))</a>"
        }
        body += "<h2>\(HTML.escape(text.rejectedUploads))</h2>"
        let rejected = rejectedUploads.entries(siteID: caller.site.id)
        if rejected.isEmpty {
            body += "<p>\(HTML.escape(text.noRejected))</p>"
        } else {
            body +=
                "<div class=\"scroll\"><table><thead><tr><th>\(HTML.escape(text.report.readTime))</th><th class=\"num\">HTTP</th><th>\(HTML.escape(text.source))</th>"
            body += "<th>\(HTML.escape(text.report.logger))</th><th class=\"num\">bytes</th><th>\(HTML.escape(text.why))</th></tr></thead><tbody>"
            for entry in rejected {
                body +=
                    "<tr><td class=\"nowrap\">\(HTML.escape(f.dateTime(entry.at)))</td><td class=\"num bad\">\(entry.status)</td><td>\(HTML.escape(entry.source ?? "–"))</td>"
                body += "<td>\(HTML.escape(entry.loggerID ?? "–"))</td><td class=\"num\">\(entry.bytes)</td><td>\(HTML.escape(entry.reason))</td></tr>"
            }
            body += "</tbody></table></div>"
        }
        return page(context, status: 200, title: text.reads, body: body)
    }

    func recordRejection(_ request: HTTPRequest, _ response: HTTPResponse, caller: Caller) {
        let refusal = ErrorBody.read(response.body)
        let reason = [refusal?.error, refusal?.detail].compactMap { $0 }.joined(separator: ": ")
        rejectedUploads.record(
            siteID: caller.site.id,
            .init(
                at: Date(), status: response.status, source: request.header(UploadHeader.source).map { String($0.prefix(200)) },
                loggerID: request.header(UploadHeader.loggerID).map { String($0.prefix(200)) }, bytes: request.body.count,
                reason: String(reason.prefix(1000))))
    }
}
