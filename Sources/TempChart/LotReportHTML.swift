import ColdChain
import Foundation

extension LotReportPage {
    /// The report as one self-contained HTML file: inline CSS, the budget bar and the journey
    /// as inline SVG, no scripts, no external fonts, images or links; the signature block is
    /// there to print and sign on paper.
    public func html(journeyWidth: Double = 640, journeyHeight: Double = 230) -> String {
        func e(_ text: String) -> String { SVGCanvas.escape(text) }
        let t = theme
        let f = formatter
        let bar = SVGCanvas(width: journeyWidth, height: 48)
        drawBudgetBar(in: ChartRect(x: 0, y: 0, width: journeyWidth, height: 48), on: bar)
        let journey = SVGCanvas(width: journeyWidth, height: journeyHeight)
        drawJourney(in: ChartRect(x: 0, y: 0, width: journeyWidth, height: journeyHeight), on: journey)

        func keyValues(_ rows: [(String, String)], id: String? = nil) -> String {
            "<table class=\"kv\"\(id.map { " id=\"\($0)\"" } ?? "")>\n"
                + rows.map { "<tr><th>\(e($0.0))</th><td>\(e($0.1))</td></tr>\n" }.joined() + "</table>\n"
        }
        func grid(_ header: [String], _ rows: [[String]], hashesFrom: Int = .max) -> String {
            "<table class=\"grid\"><thead><tr>" + header.map { "<th>\(e($0))</th>" }.joined() + "</tr></thead><tbody>\n"
                + rows.map { row in
                    "<tr>" + row.enumerated().map { $0 >= hashesFrom ? "<td class=\"hash\">\(e($1))</td>" : "<td>\(e($1))</td>" }.joined()
                        + "</tr>\n"
                }.joined() + "</tbody></table>\n"
        }

        var body = "<section id=\"lot\">\(keyValues(lotRows))</section>\n"
        body += "<section id=\"budget\"><h2>\(e(lot.sectionBudget))</h2>\n<figure class=\"bar\">\(bar.document(embedded: true))</figure>\n"
        body += status.bands.isEmpty ? "<p class=\"muted\">\(e(lot.noBands))</p>\n" : grid(lot.bandHeader, bandRows)
        body += keyValues(figureRows, id: "figures") + "</section>\n"
        body += "<section id=\"journey\"><h2>\(e(lot.sectionJourney))</h2>\n<figure>\(journey.document(embedded: true))</figure></section>\n"
        body +=
            "<section id=\"reasons\"><h2>\(e(lot.sectionReasons))</h2><ul class=\"reasons\">"
            + reasonTexts.map { "<li>\(e($0))</li>" }.joined() + "</ul></section>\n"
        body += "<section id=\"discard\"><h2>\(e(lot.sectionDiscard))</h2>\n"
        body += (discardRows.isEmpty ? "<p class=\"muted\">\(e(lot.noDiscard))</p>\n" : grid(lot.discardHeader, discardRows)) + "</section>\n"

        body += "<section id=\"legs\" class=\"page\"><h2>\(e(lot.sectionLegs))</h2>\n"
        for index in content.legs.indices {
            body += "<article class=\"leg\" id=\"leg-\(index + 1)\"><h3>\(e(legTitle(index)))</h3>\n" + keyValues(legRows(index))
            let reads = readRows(index)
            body += reads.isEmpty ? "<p class=\"muted\">\(e(noReadsText(index)))</p>\n" : grid(lot.readsHeader, reads, hashesFrom: 3)
            body += "</article>\n"
        }
        body += "</section>\n"
        body += "<section id=\"record\"><h2>\(e(lot.sectionRecord))</h2>\n<table class=\"kv\"><tr><th>\(e(lot.chainHead))</th>"
        body += "<td class=\"hash\">\(e(content.chainHead))</td></tr></table>\n"
        if let checkpoint = content.checkpoint { body += "<h3>\(e(lot.checkpoint))</h3><pre class=\"hash\">\(e(checkpoint))</pre>\n" }
        body += "</section>\n"
        body += "<section id=\"signature\"><h2>\(e(lot.sectionSignature))</h2>\n<table class=\"sign\">\n"
        body += lot.signatureFields.map { "<tr><th>\(e($0))</th><td class=\"line\"></td></tr>\n" }.joined()
        body +=
            "<tr><th>\(e(lot.decisionConfirmed))</th><td>"
            + signatureDecisions.map { "<span class=\"box\"></span> \(e($0))" }.joined(separator: "&emsp;") + "</td></tr>\n</table></section>\n"

        return """
            <!DOCTYPE html>
            <html lang="\(language.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(e(lot.title)) — \(e(content.lot))</title>
            <style>
            :root { color-scheme: \(t.name); }
            * { box-sizing: border-box; }
            body { margin: 0; background: \(t.background.hexString); color: \(t.text.hexString);
              font: 14px/1.45 'DejaVu Sans', 'Noto Sans CJK SC', 'Noto Sans CJK JP', 'Helvetica Neue', Arial, 'PingFang SC', 'Hiragino Sans', 'Microsoft YaHei', sans-serif; }
            main { max-width: 1040px; margin: 0 auto; padding: 20px; }
            header { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; flex-wrap: wrap; }
            h1 { font-size: 22px; margin: 0 0 8px; }
            h2 { font-size: 15px; margin: 18px 0 6px; padding-bottom: 3px; border-bottom: 1px solid \(t.axis.hexString); }
            h3 { font-size: 13px; margin: 14px 0 4px; }
            .muted, .generated { color: \(t.secondaryText.hexString); }
            .generated { font-size: 12px; }
            .decision { display: inline-block; background: \(decisionColor.hexString); color: \(t.onBanner.hexString);
              padding: 6px 14px; border-radius: 6px; font-size: 20px; font-weight: bold; letter-spacing: 0.5px; }
            .at { margin-left: 10px; color: \(t.secondaryText.hexString); }
            .reasons { margin: 6px 0 0; padding-left: 20px; }
            table { border-collapse: collapse; width: 100%; font-size: 13px; margin: 4px 0; }
            .kv th { text-align: left; font-weight: normal; color: \(t.secondaryText.hexString); width: 30%; }
            th, td { padding: 3px 6px; vertical-align: top; }
            tr:nth-child(odd) td, tr:nth-child(odd) th { background: \(t.tableStripe.hexString); }
            .grid thead th { text-align: left; color: \(t.secondaryText.hexString); background: transparent; }
            td { overflow-wrap: anywhere; }
            .grid td:first-child { white-space: nowrap; }
            .hash { font-family: 'DejaVu Sans Mono', monospace; font-size: 11px; overflow-wrap: anywhere; white-space: pre-wrap; }
            figure { margin: 8px 0 0; }
            figure svg { width: 100%; height: auto; display: block; }
            .sign th { text-align: left; width: 30%; padding: 18px 6px 2px; background: transparent !important; }
            .sign td { background: transparent !important; padding-top: 18px; }
            .sign td.line { border-bottom: 1px solid \(t.text.hexString); }
            .box { display: inline-block; width: 12px; height: 12px; border: 1px solid \(t.text.hexString); vertical-align: middle; }
            @media print { .page { break-before: page; } }
            footer { margin-top: 16px; font-size: 12px; color: \(t.secondaryText.hexString); }
            </style>
            </head>
            <body>
            <main>
            <header><h1>\(e(lot.title)) — \(e(heading))</h1><span class="generated">\(e(strings.generatedBy)) · \(e(f.dateTime(content.generated)))</span></header>
            <div id="decision"><span class="decision">\(e(decisionText))</span><span class="at">\(e(lot.decision)) · \(e(f.dateTime(status.at)))</span></div>
            \(body)<footer>ColdTap · \(e(lot.lot)) \(e(content.lot))</footer>
            </main>
            </body>
            </html>

            """
    }
}
