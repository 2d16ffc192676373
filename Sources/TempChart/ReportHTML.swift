import ColdTapBase
import Foundation

extension ReportPage {
    /// The report as one self-contained HTML file: inline CSS and an inline SVG chart, no
    /// scripts, no external fonts, images or links, so it opens offline and can be archived.
    public func html(chartWidth: Double = 1000, chartHeight: Double = 440) -> String {
        func e(_ text: String) -> String { SVGCanvas.escape(text) }
        let t = theme
        let svg = SVGCanvas(width: chartWidth, height: chartHeight)
        let spec = content.chartSpec(
            frame: ChartRect(x: 0, y: 0, width: chartWidth, height: chartHeight), timeZone: timeZone,
            language: language, theme: theme, pixelDensity: 1)
        ChartRenderer.draw(ChartModel(spec), on: svg)

        func keyValueTable(_ title: String, _ rows: [(String, String)]) -> String {
            var out = "<section class=\"half\"><h2>\(e(title))</h2><table class=\"kv\">\n"
            for row in rows { out += "<tr><th>\(e(row.0))</th><td>\(e(row.1))</td></tr>\n" }
            return out + "</table></section>\n"
        }

        var excursions = "<section><h2>\(e(strings.sectionExcursions))</h2>\n"
        let rows = excursionRows
        if rows.isEmpty {
            excursions += "<p class=\"muted\">\(e(strings.noExcursions))</p>\n"
        } else {
            excursions += "<table class=\"grid\"><thead><tr>" + excursionHeader.map { "<th>\(e($0))</th>" }.joined() + "</tr></thead><tbody>\n"
            for row in rows {
                excursions +=
                    "<tr>"
                    + row.enumerated().map { index, cell in
                        index >= 4 ? "<td class=\"beyond\">\(e(cell))</td>" : "<td>\(e(cell))</td>"
                    }.joined() + "</tr>\n"
            }
            excursions += "</tbody></table>\n"
        }
        excursions += "</section>\n"

        let note = timesEstimatedNote.map { "<p class=\"estimated\" id=\"times-estimated\">\(e($0))</p>\n" } ?? ""
        let reasons = note + (content.reasons.isEmpty ? "" : "<ul class=\"reasons\">" + content.reasons.map { "<li>\(e($0))</li>" }.joined() + "</ul>\n")

        // The audit part: rules, warnings, per day, input.
        let audit = language.audit
        var auditHTML = ""
        if content.audit != nil {
            auditHTML += "<section id=\"rules\"><h2>\(e(audit.sectionRules))</h2><table class=\"grid\"><tbody>\n"
            for (index, row) in auditRuleRows.enumerated() {
                let state = content.audit?.rules[index].state ?? .passed
                auditHTML += "<tr class=\"rule-\(state.rawValue)\"><td class=\"state\">\(e(row[0]))</td><td>\(e(row[1]))</td><td>\(e(row[2]))</td></tr>\n"
            }
            auditHTML += "</tbody></table></section>\n"
        }
        let warnings = auditWarnings
        auditHTML +=
            "<section id=\"warnings\"><h2>\(e(audit.sectionWarnings))</h2>\n"
            + (warnings.isEmpty
                ? "<p class=\"muted\">\(e(audit.noWarnings))</p>\n"
                : "<ul>" + warnings.map { "<li>\(e($0))</li>" }.joined() + "</ul>\n") + "</section>\n"
        let days = auditDayRows
        if days.count > 1 {
            auditHTML +=
                "<section id=\"days\"><h2>\(e(audit.sectionDays)) (\(e(timeZone.identifier)))</h2><table class=\"grid\"><thead><tr>"
                + audit.dayHeader.map { "<th>\(e($0))</th>" }.joined() + "</tr></thead><tbody>\n"
                + days.map { "<tr>" + $0.map { "<td>\(e($0))</td>" }.joined() + "</tr>\n" }.joined() + "</tbody></table></section>\n"
        }
        auditHTML +=
            "<section id=\"input\"><h2>\(e(audit.sectionInput))</h2><table class=\"kv\">\n"
            + auditInputRows.map { "<tr><th>\(e($0.0))</th><td class=\"wrap\">\(e($0.1))</td></tr>\n" }.joined() + "</table></section>\n"

        return """
            <!DOCTYPE html>
            <html lang="\(language.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(e(strings.reportTitle)) — \(e(content.log.logger.serial ?? content.log.format.name))</title>
            <style>
            :root { color-scheme: \(t.name); }
            * { box-sizing: border-box; }
            body { margin: 0; background: \(t.background.hexString); color: \(t.text.hexString);
              font: 14px/1.45 'DejaVu Sans', 'Noto Sans CJK SC', 'Noto Sans CJK JP', 'Helvetica Neue', Arial, 'PingFang SC', 'Hiragino Sans', 'Microsoft YaHei', sans-serif; }
            main { max-width: 1040px; margin: 0 auto; padding: 20px; }
            header { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; flex-wrap: wrap; }
            h1 { font-size: 22px; margin: 0 0 12px; }
            h2 { font-size: 15px; margin: 18px 0 6px; padding-bottom: 3px; border-bottom: 1px solid \(t.axis.hexString); }
            .muted, .generated { color: \(t.secondaryText.hexString); }
            .generated { font-size: 12px; }
            .verdict { display: flex; justify-content: space-between; align-items: center; flex-wrap: wrap; gap: 8px;
              background: \(verdictColor.hexString); color: \(t.onBanner.hexString); padding: 12px 16px; border-radius: 6px; }
            .verdict strong { font-size: 22px; letter-spacing: 0.5px; }
            .reasons { margin: 10px 0 0; padding-left: 20px; }
            .columns { display: flex; gap: 24px; flex-wrap: wrap; }
            .half { flex: 1 1 380px; }
            table { border-collapse: collapse; width: 100%; font-size: 13px; }
            .kv th { text-align: left; font-weight: normal; color: \(t.secondaryText.hexString); width: 42%; }
            th, td { padding: 3px 6px; vertical-align: top; }
            tr:nth-child(odd) td, tr:nth-child(odd) th { background: \(t.tableStripe.hexString); }
            .grid thead th { text-align: left; color: \(t.secondaryText.hexString); background: transparent; }
            td.beyond { color: \(t.beyond.hexString); }
            td.wrap, td { overflow-wrap: anywhere; }
            .estimated { font-weight: bold; color: \(t.inconclusive.hexString); margin: 10px 0 0; }
            tr.rule-fired td.state, tr.rule-undecided td.state { font-weight: bold; color: \(t.fail.hexString); }
            figure { margin: 8px 0 0; }
            figure svg { width: 100%; height: auto; display: block; }
            article.signature { margin: 10px 0 0; }
            article.signature h3 { display: flex; justify-content: space-between; gap: 12px; font-size: 14px; margin: 0;
              padding: 4px 6px; background: \(t.tableStripe.hexString); }
            .meaning-approved .meaning { color: \(t.pass.hexString); }
            .meaning-rejected .meaning { color: \(t.fail.hexString); }
            article.signature .kv th { width: 30%; }
            td.hash code { font-family: 'DejaVu Sans Mono', monospace; font-size: 12px; }
            .sign th { text-align: left; width: 30%; padding: 18px 6px 2px; background: transparent !important; }
            .sign td { background: transparent !important; padding-top: 18px; }
            .sign td.line { border-bottom: 1px solid \(t.text.hexString); }
            .sign tr.choices td { padding-top: 2px; font-size: 12px; }
            footer { margin-top: 16px; font-size: 12px; color: \(t.secondaryText.hexString); }
            </style>
            </head>
            <body>
            <main>
            <header><h1>\(e(strings.reportTitle))</h1><span class="generated">\(e(strings.generatedBy)) · \(e(formatter.dateTime(generated)))</span></header>
            <div class="verdict" id="verdict"><strong>\(e(verdictText))\(content.headlineNote.map { " — " + e($0) } ?? "")</strong><span>\(e(strings.profile)): \(e(profileText))</span></div>
            \(reasons)<div class="columns">
            \(keyValueTable(strings.sectionLogger, loggerRows))\(keyValueTable(strings.sectionStatistics, statisticsRows))</div>
            \(excursions)\(loggerEventsHTML(escape: e))\(seriesHTML(escape: e))\(auditHTML)\(archiveHTML(escape: e))<section><h2>\(e(strings.sectionChart))</h2>
            <figure id="chart">
            \(svg.document(embedded: true))</figure>
            </section>
            \(signaturesHTML(escape: e))<footer>ColdTap</footer>
            </main>
            </body>
            </html>

            """
    }
}
