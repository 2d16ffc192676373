import ColdTapBase
import Digest
import Foundation
import TempChart

/// Escaping and the page frame shared by every web page.
enum HTML {
    /// Escapes text for HTML character data and quoted attribute values. Every value that
    /// came from a tag, a file or a person goes through this.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\u{0}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A fresh nonce for the Content-Security-Policy of one response (128 random bits).
    static func nonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }.hexString(uppercase: false)
    }

    /// Nothing but the station itself: no script at all (only one carrying this response's
    /// nonce would run), the inline stylesheet by its nonce, forms post only to the station,
    /// no framing.
    static func contentSecurityPolicy(nonce: String) -> String {
        "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'nonce-\(nonce)'; img-src 'self' data:; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    }

    static func headers(nonce: String) -> [(String, String)] {
        [
            ("Content-Type", "text/html; charset=utf-8"), ("Content-Security-Policy", contentSecurityPolicy(nonce: nonce)),
            ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "same-origin"), ("X-Frame-Options", "DENY"),
            ("Cache-Control", "no-store"),
        ]
    }

    /// The stylesheet: system fonts, light by default, dark under `prefers-color-scheme`,
    /// one column on a phone, light and without navigation on paper.
    static let stylesheet: String = {
        let light = ChartTheme.light, dark = ChartTheme.dark
        func verdictColors(_ theme: ChartTheme) -> String {
            ".v-ALARM{background:\(theme.fail.hexString);color:#fff}.v-OK{background:\(theme.pass.hexString);color:#fff}"
                + ".v-INCONCLUSIVE{background:\(theme.inconclusive.hexString);color:#fff}.v-none{background:\(theme.axis.hexString);color:#fff}"
                + "tr.r-ALARM td:first-child{box-shadow:inset 6px 0 \(theme.fail.hexString)}tr.r-OK td:first-child{box-shadow:inset 6px 0 \(theme.pass.hexString)}"
                + "tr.r-INCONCLUSIVE td:first-child{box-shadow:inset 6px 0 \(theme.inconclusive.hexString)}tr.r-none td:first-child{box-shadow:inset 6px 0 \(theme.axis.hexString)}"
                + ".bad{color:\(theme.fail.hexString)}.good{color:\(theme.pass.hexString)}.warn{color:\(theme.inconclusive.hexString)}"
        }
        return """
            :root{--bg:\(light.background.hexString);--fg:\(light.text.hexString);--fg2:\(light.secondaryText.hexString);--line:\(light.grid.hexString);--stripe:\(light.tableStripe.hexString);--link:\(light.curve.hexString);color-scheme:light dark}
            *{box-sizing:border-box}
            body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,'Segoe UI','DejaVu Sans','Noto Sans CJK SC','Noto Sans CJK JP',sans-serif}
            header{display:flex;flex-wrap:wrap;gap:.4em 1.2em;align-items:center;padding:.6em 1em;border-bottom:1px solid var(--line)}
            header .site{font-weight:600}header nav{display:flex;gap:1em;flex-wrap:wrap}header .right{margin-left:auto;display:flex;gap:.8em;align-items:center;flex-wrap:wrap}
            a{color:var(--link)}main{padding:1em;max-width:1200px;margin:0 auto}
            h1{font-size:1.4em;margin:.2em 0 .6em}h2{font-size:1.1em;margin:1.4em 0 .5em}
            table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35em .6em;border-bottom:1px solid var(--line);vertical-align:top}
            th{font-weight:600;color:var(--fg2);font-size:.9em}tbody tr:nth-child(even){background:var(--stripe)}
            td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
            .muted{color:var(--fg2);font-size:.9em}.verdict{display:inline-block;padding:.1em .55em;border-radius:.3em;font-weight:700;font-size:.85em;letter-spacing:.02em}
            .banner{padding:.7em 1em;border-radius:.4em;font-weight:700;font-size:1.1em;margin:.3em 0 1em}
            .spark{width:160px;height:36px;display:block}svg.chart{width:100%;height:auto;display:block;min-width:640px}.chartbox{overflow-x:auto}
            .periods{display:flex;gap:.4em;flex-wrap:wrap;align-items:center;margin:.5em 0 1em}
            .periods a,.periods strong{padding:.25em .7em;border:1px solid var(--line);border-radius:1em;text-decoration:none}
            .periods strong{background:var(--fg);color:var(--bg)}
            form.inline{display:inline}button,input[type=submit]{font:inherit;padding:.35em .9em;border-radius:.3em;border:1px solid var(--fg2);background:var(--stripe);color:var(--fg);cursor:pointer}
            input[type=text],input[type=password],input[type=date],textarea{font:inherit;padding:.35em .5em;border:1px solid var(--fg2);border-radius:.3em;background:var(--bg);color:var(--fg);max-width:100%}
            .ack{display:grid;grid-template-columns:minmax(8em,14em) minmax(10em,1fr) auto;gap:.4em;margin-top:.3em}
            .stats{display:grid;grid-template-columns:repeat(auto-fill,minmax(13em,1fr));gap:.3em 1.2em;margin:0}.stats div{border-bottom:1px solid var(--line);padding:.3em 0}.stats dt{color:var(--fg2);font-size:.85em}.stats dd{margin:0;font-weight:600}
            .login{max-width:26em;margin:3em auto}.login input[type=password],.login input[type=text]{width:100%;margin:.3em 0 .6em}
            .ack.review{grid-template-columns:repeat(auto-fit,minmax(9em,1fr))}.signature{border-left:4px solid var(--line);padding:.3em .7em;margin:.4em 0}
            .error{border:1px solid currentColor;padding:.6em .8em;border-radius:.3em}
            .langs a{margin-left:.5em}
            .counts a{text-decoration:none}.filters{display:flex;flex-wrap:wrap;gap:.5em .8em;align-items:center;margin:.4em 0 .6em}
            select,input[type=search]{font:inherit;padding:.3em .5em;border:1px solid var(--fg2);border-radius:.3em;background:var(--bg);color:var(--fg);max-width:100%}
            .scroll{overflow-x:auto}.nowrap{white-space:nowrap}
            svg.budget{display:block;max-width:100%;height:auto}svg.budget.wide{width:100%}svg.chart.journey{min-width:720px}tr.top td{font-weight:600}
            \(verdictColors(light))\(WebSVG.css(light))
            @media (prefers-color-scheme:dark){:root{--bg:\(dark.background.hexString);--fg:\(dark.text.hexString);--fg2:\(dark.secondaryText.hexString);--line:\(dark.grid.hexString);--stripe:\(dark.tableStripe.hexString);--link:\(dark.curve.hexString)}\(verdictColors(dark))\(WebSVG.css(dark))}
            @media (max-width:700px){main{padding:.6em}table.overview thead{display:none}table.overview tr{display:grid;grid-template-columns:1fr auto;padding:.4em 0;border-bottom:1px solid var(--line)}table.overview td{border:0;padding:.1em .5em}table.overview td.spark-cell{grid-column:1/3}.ack{grid-template-columns:1fr}}
            @media print{:root{--bg:#fff;--fg:#000;--fg2:#444;--line:#bbb;--stripe:#f3f3f3;--link:#000}header nav,header .right,.periods,form,.noprint{display:none!important}svg.chart{min-width:0}\(verdictColors(light))\(WebSVG.css(light))body{font-size:11pt}.v-ALARM,.v-OK,.v-INCONCLUSIVE,.v-none{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
            """
    }()
}
