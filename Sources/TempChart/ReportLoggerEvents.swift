import Foundation
import LoggerFormats

/// The logger's own event log in the HTML report (NHS31xx status events, docs/nhs31xx.md §5.5),
/// shown only when the log has one.
extension ReportPage {
    /// Section title and column headers, per language.
    var loggerEventsStrings: (title: String, time: String, event: String, until: String, meaning: String) {
        switch language {
        case .english: return ("Logger events", "Time", "Event", "Until", "Meaning")
        case .simplifiedChinese: return ("记录器事件", "时间", "事件", "结束", "说明")
        case .japanese: return ("ロガーのイベント", "時刻", "イベント", "終了", "意味")
        }
    }

    /// The `<section>` with one row per event; empty when the log has no events.
    func loggerEventsHTML(escape e: (String) -> String) -> String {
        guard !content.log.events.isEmpty else { return "" }
        let s = loggerEventsStrings
        var out = "<section id=\"logger-events\"><h2>\(e(s.title))</h2>\n<table class=\"grid\"><thead><tr>"
            + [s.time, s.event, s.until, s.meaning].map { "<th>\(e($0))</th>" }.joined() + "</tr></thead><tbody>\n"
        for event in content.log.events {
            let cells = [event.time.map { formatter.dateTime($0) } ?? "—", event.name,
                         event.end.map { formatter.dateTime($0) } ?? "", event.detail ?? ""]
            out += "<tr>" + cells.map { "<td>\(e($0))</td>" }.joined() + "</tr>\n"
        }
        return out + "</tbody></table>\n</section>\n"
    }
}
