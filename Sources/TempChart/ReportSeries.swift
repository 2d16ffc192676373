import Foundation
import LoggerFormats

/// A logger's other measured quantities in the HTML report (a SmarTag's pressure and light,
/// docs/smartag.md §7): per quantity its points and its lowest and highest value with their
/// times; shown only when the log has any. `decode --json` has every point. These are the
/// section's words, per language.
struct SeriesStrings: LanguageTable {
    var title: String
    var quantity: String
    var points: String
    var lowest: String
    var highest: String
    /// Quantities' names by the log's own name (a name not here is shown as the log gives it).
    var quantityNames: [String: String]

    static let english = SeriesStrings(
        title: "Other measurements", quantity: "Quantity", points: "Points", lowest: "Lowest", highest: "Highest", quantityNames: [:])
    static let simplifiedChinese = SeriesStrings(
        title: "其他测量", quantity: "物理量", points: "点数", lowest: "最低", highest: "最高", quantityNames: ["pressure": "气压", "light": "光照度"])
    static let japanese = SeriesStrings(
        title: "その他の測定", quantity: "測定量", points: "点数", lowest: "最低", highest: "最高", quantityNames: ["pressure": "気圧", "light": "照度"])
}

extension ReportPage {
    var seriesStrings: SeriesStrings { .forLanguage(language) }

    /// The quantity's name in the report's language (the log's own name when unknown).
    func seriesName(_ name: String) -> String { seriesStrings.quantityNames[name] ?? name }

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
