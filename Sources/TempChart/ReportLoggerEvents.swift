import Foundation
import LoggerFormats

/// The logger's own event log in the HTML report (NHS31xx status events, docs/nhs31xx.md §5.5),
/// shown only when the log has one. These are the section's title and column headers, per
/// language.
struct LoggerEventsStrings: LanguageTable {
    var title: String
    var time: String
    var event: String
    var until: String
    var meaning: String

    static let english = LoggerEventsStrings(title: "Logger events", time: "Time", event: "Event", until: "Until", meaning: "Meaning")
    static let simplifiedChinese = LoggerEventsStrings(title: "记录器事件", time: "时间", event: "事件", until: "结束", meaning: "说明")
    static let japanese = LoggerEventsStrings(title: "ロガーのイベント", time: "時刻", event: "イベント", until: "終了", meaning: "意味")
}

extension ReportPage {
    var loggerEventsStrings: LoggerEventsStrings { .forLanguage(language) }

    /// The `<section>` with one row per event; empty when the log has no events.
    func loggerEventsHTML(escape e: (String) -> String) -> String {
        guard !content.log.events.isEmpty else { return "" }
        let s = loggerEventsStrings
        var out =
            "<section id=\"logger-events\"><h2>\(e(s.title))</h2>\n<table class=\"grid\"><thead><tr>"
            + [s.time, s.event, s.until, s.meaning].map { "<th>\(e($0))</th>" }.joined() + "</tr></thead><tbody>\n"
        for event in content.log.events {
            let cells = [
                event.time.map { formatter.dateTime($0) } ?? "—", event.name,
                event.end.map { formatter.dateTime($0) } ?? "", event.detail.map { LogTexts.event($0, language: language) } ?? "",
            ]
            out += "<tr>" + cells.map { "<td>\(e($0))</td>" }.joined() + "</tr>\n"
        }
        return out + "</tbody></table>\n</section>\n"
    }
}

extension ReportPage {
    /// At most this many events on the A4 page; the HTML report and `--json` have them all.
    static let maxLoggerEventRows = 6

    /// Draws the logger's events under the excursions (nothing when there are none); returns
    /// the y below them.
    func drawLoggerEvents(x: Double, y: Double, width: Double, canvas: any Canvas) -> Double {
        let events = content.log.events
        guard !events.isEmpty else { return y }
        let s = loggerEventsStrings
        canvas.text(s.title, at: ChartPoint(x: x, y: y), font: ChartFont(size: 10.5, weight: .bold), color: theme.text, anchor: .start)
        canvas.fill(.rect(ChartRect(x: x, y: y + 4, width: width, height: 0.8)), color: theme.axis)
        var rowY = y + 8
        let font = ChartFont(size: 8.5)
        let columns = [0.0, 0.2, 0.42, 0.62].map { x + 4 + $0 * width }
        for (index, title) in [s.time, s.event, s.until, s.meaning].enumerated() {
            canvas.text(
                title, at: ChartPoint(x: columns[index], y: rowY + 9.5), font: ChartFont(size: 8.5, weight: .bold),
                color: theme.secondaryText, anchor: .start)
        }
        rowY += 13
        let f = formatter
        for (index, event) in events.prefix(Self.maxLoggerEventRows).enumerated() {
            if index % 2 == 0 { canvas.fill(.rect(ChartRect(x: x, y: rowY, width: width, height: 13)), color: theme.tableStripe) }
            let cells = [
                event.time.map { f.dateTime($0) } ?? "—", event.name, event.end.map { f.dateTime($0) } ?? "",
                event.detail.map { LogTexts.event($0, language: language) } ?? "",
            ]
            for (column, cell) in cells.enumerated() {
                let room = (column + 1 < columns.count ? columns[column + 1] : x + width) - columns[column] - 4
                canvas.text(
                    ReportPage.truncate(cell, width: room, font: font, canvas: canvas),
                    at: ChartPoint(x: columns[column], y: rowY + 9.5), font: font, color: theme.text, anchor: .start)
            }
            rowY += 13
        }
        if events.count > Self.maxLoggerEventRows {
            canvas.text(
                "… +\(events.count - Self.maxLoggerEventRows)", at: ChartPoint(x: x + 4, y: rowY + 9.5), font: font,
                color: theme.secondaryText, anchor: .start)
            rowY += 13
        }
        return rowY + 14
    }
}
