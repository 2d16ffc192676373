import Foundation
import LoggerFormats

/// A logger's other measured quantities in the HTML report (a SmarTag's pressure and light,
/// docs/smartag.md §7): per quantity its points and its lowest and highest value with their
/// times; shown only when the log has any. `decode --json` has every point.
extension ReportPage {
    var seriesStrings: (title: String, quantity: String, points: String, lowest: String, highest: String) {
        switch language {
        case .english: return ("Other measurements", "Quantity", "Points", "Lowest", "Highest")
        case .simplifiedChinese: return ("其他测量", "物理量", "点数", "最低", "最高")
        case .japanese: return ("その他の測定", "測定量", "点数", "最低", "最高")
        }
    }

    /// The quantity's name in the report's language (the log's own name when unknown).
    func seriesName(_ name: String) -> String {
        switch (name, language) {
        case ("pressure", .simplifiedChinese): return "气压"
        case ("pressure", .japanese): return "気圧"
        case ("light", .simplifiedChinese): return "光照度"
        case ("light", .japanese): return "照度"
        default: return name
        }
    }

    func seriesHTML(escape e: (String) -> String) -> String {
        guard let series = content.log.series, !series.isEmpty else { return "" }
        let s = seriesStrings
        let f = formatter
        var out =
            "<section id=\"series\"><h2>\(e(s.title))</h2>\n<table class=\"grid\"><thead><tr>"
            + [s.quantity, s.points, s.lowest, s.highest].map { "<th>\(e($0))</th>" }.joined() + "</tr></thead><tbody>\n"
        for quantity in series {
            let valued = quantity.points.compactMap { point in point.value.map { (time: point.time, value: $0) } }
            func extreme(_ pick: ((time: Date, value: Double), (time: Date, value: Double)) -> Bool) -> String {
                guard let found = valued.min(by: pick) else { return "—" }
                return "\(f.number(found.value, decimals: 1)) \(quantity.unit) (\(f.dateTime(found.time)))"
            }
            let cells = [
                "\(seriesName(quantity.name)) (\(quantity.unit))", "\(quantity.points.count)",
                extreme { $0.value < $1.value }, extreme { $0.value > $1.value },
            ]
            out += "<tr>" + cells.map { "<td>\(e($0))</td>" }.joined() + "</tr>\n"
        }
        return out + "</tbody></table>\n</section>\n"
    }
}
