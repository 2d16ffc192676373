import ColdTapBase
import Foundation

/// An electronic signature a report shows (21 CFR 11.50): who signed (printed name, role),
/// when (in the zone the signer's time is shown in), what the signature means, the signer's
/// comment, what it signs and the SHA-256 of exactly what was signed. Plain values, filled
/// in by the caller (TempChart does not know the archive).
public struct ReportSignature: Sendable, Equatable {
    /// What the signer means by signing (the archive's `SignatureMeaning`, by raw value).
    public enum Meaning: String, Sendable, Equatable, CaseIterable {
        case acknowledged, reviewed, approved, rejected
    }

    public var printedName: String
    /// The signer's role when signing, as the archive names it (`viewer`, `operator`,
    /// `reviewer`, `admin`); shown in the report's language, any other word as it is.
    public var role: String
    public var signed: Date
    /// The zone the signing time is shown in: an IANA identifier (`Europe/Berlin`) or a fixed
    /// offset (`+01:00`, `UTC+01:00`, `GMT-5`, `UTC`). Anything else shows the time in UTC.
    public var timeZone: String
    public var meaning: Meaning
    public var comment: String?
    /// What the signature signs, worded by the caller: "1–30 Nov 2026", "excursion from 12 Nov 03:10".
    public var subject: String
    /// Lower-case hex SHA-256 of exactly what was signed.
    public var signedSHA256: String
    /// Set when the period received newer reads after the signature: it covers only what it
    /// signed, up to this time.
    public var coversOnlyUpTo: Date?

    public init(
        printedName: String, role: String, signed: Date, timeZone: String, meaning: Meaning, comment: String?, subject: String,
        signedSHA256: String, coversOnlyUpTo: Date? = nil
    ) {
        self.printedName = printedName
        self.role = role
        self.signed = signed
        self.timeZone = timeZone
        self.meaning = meaning
        self.comment = comment
        self.subject = subject
        self.signedSHA256 = signedSHA256
        self.coversOnlyUpTo = coversOnlyUpTo
    }

    /// The signing time in the signer's zone, with the zone: "2026-11-30 17:04 Europe/Berlin
    /// (UTC+01:00)", "2026-11-30 17:04 UTC+01:00" for a fixed offset, "… UTC" for UTC or a
    /// zone that is not known.
    public var signedText: String {
        if let offset = Self.fixedOffset(timeZone), let zone = TimeZone(secondsFromGMT: offset) {
            let label = offset == 0 ? "UTC" : TimeTicks.offsetText(zone, at: signed)
            return ChartFormatter(timeZone: zone, language: .english).dateTime(signed) + " " + label
        }
        if let zone = TimeZone(identifier: timeZone) {
            return ChartFormatter(timeZone: zone, language: .english).dateTime(signed)
                + " \(timeZone) (\(TimeTicks.offsetText(zone, at: signed)))"
        }
        return ChartFormatter(timeZone: TimeZone.utc, language: .english).dateTime(signed) + " UTC"
    }

    /// Seconds east of UTC of a fixed offset written `+01:00`, `-0530`, `+1`, `UTC+01:00`,
    /// `GMT-5`, `UTC`, `GMT` or `Z`; `nil` for anything else (an IANA identifier).
    static func fixedOffset(_ text: String) -> Int? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        if rest == "Z" { return 0 }
        if ["UTC", "GMT"].contains(rest.prefix(3).uppercased()) {
            rest = rest.dropFirst(3)
            if rest.isEmpty { return 0 }
        }
        guard let sign = rest.first, "+-−".contains(sign) else { return nil }
        rest = rest.dropFirst()
        let digits: (hours: Substring, minutes: Substring)
        if let colon = rest.firstIndex(of: ":") {
            digits = (rest[..<colon], rest[rest.index(after: colon)...])
            guard digits.minutes.count == 2 else { return nil }
        } else if rest.count == 4 {
            digits = (rest.prefix(2), rest.suffix(2))
        } else {
            digits = (rest, "0")
        }
        guard (1...2).contains(digits.hours.count), (digits.hours + digits.minutes).allSatisfy({ $0.isASCII && $0.isNumber }),
            let hours = Int(digits.hours), let minutes = Int(digits.minutes), hours <= 18, minutes < 60
        else { return nil }
        return (sign == "+" ? 1 : -1) * (hours * 3600 + minutes * 60)
    }
}

/// The texts of a report's signatures section, one table per language.
/// Templates: `{name}` is replaced.
public struct SignatureStrings: LanguageTable {
    public var section: String
    public var name: String
    public var role: String
    /// The empty block's line for a handwritten signature.
    public var signature: String
    public var dateTime: String
    public var meaning: String
    /// What the signature applies to.
    public var subject: String
    public var comment: String
    /// The hash of what was signed.
    public var sha256: String
    /// Above the empty block: nobody has signed electronically.
    public var none: String
    /// A signature over fewer reads than the period has now: "{time}".
    public var coversOnlyUpTo: String
    /// By the archive's role names.
    public var roles: [String: String]
    public var meanings: [ReportSignature.Meaning: String]

    /// The empty block's labelled lines, in order.
    public var blankFields: [String] { [name, role, signature, dateTime, meaning] }

    /// Under the empty block's meaning line: the meanings a signer may write.
    public var meaningChoices: String { ReportSignature.Meaning.allCases.map { meanings[$0] ?? $0.rawValue }.joined(separator: " / ") }

    public static let english = SignatureStrings(
        section: "Signatures", name: "Name", role: "Role", signature: "Signature", dateTime: "Date/time", meaning: "Meaning",
        subject: "Applies to", comment: "Comment", sha256: "SHA-256 of what was signed",
        none: "No electronic signatures. To sign this printed report by hand:",
        coversOnlyUpTo: "This signature covers only what was signed, up to {time}: the period has received newer reads since.",
        roles: ["viewer": "Viewer", "operator": "Operator", "reviewer": "Reviewer", "admin": "Administrator"],
        meanings: [.acknowledged: "Acknowledged", .reviewed: "Reviewed", .approved: "Approved", .rejected: "Rejected"])

    public static let simplifiedChinese = SignatureStrings(
        section: "签名", name: "姓名", role: "角色", signature: "签名", dateTime: "日期时间", meaning: "签名含义",
        subject: "签署对象", comment: "备注", sha256: "所签内容的 SHA-256",
        none: "没有电子签名。如需在打印的报告上手写签名：",
        coversOnlyUpTo: "此签名仅涵盖签署时的内容（截至 {time}）：此后该时段又有新的读取。",
        roles: ["viewer": "查看者", "operator": "操作员", "reviewer": "审核人", "admin": "管理员"],
        meanings: [.acknowledged: "已确认", .reviewed: "已审核", .approved: "已批准", .rejected: "已驳回"])

    public static let japanese = SignatureStrings(
        section: "署名", name: "氏名", role: "役割", signature: "署名", dateTime: "日時", meaning: "署名の意味",
        subject: "対象", comment: "コメント", sha256: "署名対象の SHA-256",
        none: "電子署名はありません。印刷したレポートに手書きで署名する場合：",
        coversOnlyUpTo: "この署名は署名時の内容（{time} まで）のみを対象とします：その後、この期間に新しい読み取りがあります。",
        roles: ["viewer": "閲覧者", "operator": "オペレーター", "reviewer": "レビュー担当者", "admin": "管理者"],
        meanings: [.acknowledged: "確認済み", .reviewed: "レビュー済み", .approved: "承認", .rejected: "却下"])
}

extension ReportLanguage {
    /// The signature texts for this language.
    public var signatures: SignatureStrings { .forLanguage(self) }
}

extension ReportPage {
    /// A signature's meaning in the report's language.
    public func meaningText(_ meaning: ReportSignature.Meaning) -> String {
        language.signatures.meanings[meaning] ?? meaning.rawValue
    }

    /// The colour a meaning is shown in: approval green, rejection red.
    func meaningColor(_ meaning: ReportSignature.Meaning) -> ChartColor {
        switch meaning {
        case .approved: return theme.pass
        case .rejected: return theme.fail
        case .acknowledged, .reviewed: return theme.text
        }
    }

    /// A signature's rows under its name (label, value): role, time with zone, what it applies
    /// to, the comment when there is one, the short hash.
    public func signatureRows(_ signature: ReportSignature) -> [(String, String)] {
        let s = language.signatures
        var rows = [
            (s.role, s.roles[signature.role] ?? signature.role), (s.dateTime, signature.signedText), (s.subject, signature.subject),
        ]
        if let comment = signature.comment, !comment.isEmpty { rows.append((s.comment, comment)) }
        // Whole: an auditor compares it with the record, character by character.
        rows.append((s.sha256, signature.signedSHA256))
        return rows
    }

    /// The note of a signature over fewer reads than the period has now; `nil` otherwise.
    public func signatureCoverageNote(_ signature: ReportSignature) -> String? {
        signature.coversOnlyUpTo.map { language.signatures.coversOnlyUpTo.filled(["time": formatter.dateTime($0)]) }
    }

    /// The signatures section of the HTML report: each signature, or the empty block to sign
    /// by hand. The full hash is the short one's title and the signature's `data-sha256`.
    func signaturesHTML(escape e: (String) -> String) -> String {
        let s = language.signatures
        var out = "<section id=\"signatures\"><h2>\(e(s.section))</h2>\n"
        guard !content.signatures.isEmpty else {
            out += "<p class=\"muted\">\(e(s.none))</p>\n<table class=\"sign\">\n"
            out += s.blankFields.map { "<tr><th>\(e($0))</th><td class=\"line\"></td></tr>\n" }.joined()
            return out + "<tr class=\"choices\"><th></th><td class=\"muted\">\(e(s.meaningChoices))</td></tr>\n</table>\n</section>\n"
        }
        for (index, signature) in content.signatures.enumerated() {
            out +=
                "<article class=\"signature meaning-\(signature.meaning.rawValue)\" data-sha256=\"\(e(signature.signedSHA256))\">"
                + "<h3>\(index + 1). \(e(signature.printedName)) <span class=\"meaning\">\(e(meaningText(signature.meaning)))</span></h3>\n"
                + "<table class=\"kv\">\n"
            for (label, value) in signatureRows(signature) {
                let cell =
                    label == s.sha256
                    ? "<td class=\"hash\"><code title=\"\(e(signature.signedSHA256))\">\(e(value))</code></td>"
                    : "<td class=\"wrap\">\(e(value))</td>"
                out += "<tr><th>\(e(label))</th>\(cell)</tr>\n"
            }
            out += "</table>\n"
            if let note = signatureCoverageNote(signature) { out += "<p class=\"estimated\">\(e(note))</p>\n" }
            out += "</article>\n"
        }
        return out + "</section>\n"
    }

    /// Draws the signatures section with the audit pages' helpers: `section` starts a titled
    /// block, `keep` starts a new page unless that much room is left on this one, `place` draws
    /// a line of that height at the top it is given (after making room for it). A signature is
    /// kept on one page when it fits on one; its lines never leave the page.
    func drawSignatureSection(
        on canvas: any Canvas, pageRoom: Double, section: (String) -> Void, keep: (Double) -> Void,
        place: (Double, (Double) -> Void) -> Void
    ) {
        let s = language.signatures
        let margin = 36.0
        let contentWidth = canvas.width - 2 * margin
        let font = ChartFont(size: 8.5)
        let bold = ChartFont(size: 8.5, weight: .bold)
        let lineHeight = 11.0
        let titleRoom = 30.0

        guard !content.signatures.isEmpty else {
            // The empty block, to sign a printed report by hand; title and lines on one page.
            let labelWidth = s.blankFields.map { canvas.textWidth($0, font: bold) }.max() ?? 60
            let noteLines = LotReportPage.wrap(s.none, width: contentWidth - 8, font: font, canvas: canvas)
            keep(titleRoom + Double(noteLines.count) * lineHeight + Double(s.blankFields.count) * 26 + 12 + 8)
            section(s.section)
            for line in noteLines {
                place(lineHeight) { top in
                    canvas.text(line, at: ChartPoint(x: margin + 4, y: top + 9), font: font, color: theme.secondaryText, anchor: .start)
                }
            }
            for field in s.blankFields {
                place(26) { top in
                    canvas.text(field, at: ChartPoint(x: margin + 4, y: top + 22), font: bold, color: theme.text, anchor: .start)
                    canvas.stroke(
                        .segment(ChartPoint(x: margin + labelWidth + 16, y: top + 24), ChartPoint(x: margin + contentWidth, y: top + 24)),
                        color: theme.text, style: StrokeStyle(width: 0.6, cap: .butt))
                }
            }
            place(12) { top in
                canvas.text(
                    s.meaningChoices, at: ChartPoint(x: margin + labelWidth + 16, y: top + 9), font: ChartFont(size: 7.5),
                    color: theme.secondaryText, anchor: .start)
            }
            place(8) { _ in }
            return
        }

        let labels = content.signatures.flatMap { signatureRows($0).map(\.0) }
        let labelWidth = min(contentWidth * 0.35, (labels.map { canvas.textWidth($0, font: font) }.max() ?? 60) + 12)
        let valueWidth = contentWidth - labelWidth - 12
        let hashFont = ChartFont(size: 8, monospaced: true)
        struct Line {
            var height: Double
            var draw: (Double) -> Void
        }
        func lines(_ index: Int, _ signature: ReportSignature) -> [Line] {
            let meaning = meaningText(signature.meaning)
            let meaningFont = ChartFont(size: 9.5, weight: .bold)
            let nameFont = ChartFont(size: 9.5, weight: .bold)
            let nameWidth = contentWidth - canvas.textWidth(meaning, font: meaningFont) - 28
            let names = LotReportPage.wrap("\(index + 1). \(signature.printedName)", width: nameWidth, font: nameFont, canvas: canvas)
            let headerHeight = Double(max(1, names.count)) * 12 + 5
            var result = [
                Line(height: headerHeight + 2) { top in
                    canvas.fill(.rect(ChartRect(x: margin, y: top, width: contentWidth, height: headerHeight)), color: theme.tableStripe)
                    for (number, name) in names.enumerated() {
                        canvas.text(
                            name, at: ChartPoint(x: margin + 4, y: top + 11.5 + Double(number) * 12), font: nameFont, color: theme.text,
                            anchor: .start)
                    }
                    canvas.text(
                        meaning, at: ChartPoint(x: margin + contentWidth - 4, y: top + 11.5), font: meaningFont,
                        color: meaningColor(signature.meaning), anchor: .end)
                }
            ]
            for (label, value) in signatureRows(signature) {
                let valueFont = label == language.signatures.sha256 ? hashFont : font
                // A line feed in a comment starts a new line; each line wraps.
                let valueLines = value.split(separator: "\n", omittingEmptySubsequences: false).flatMap { part -> [String] in
                    let wrapped = LotReportPage.wrap(String(part), width: valueWidth, font: valueFont, canvas: canvas)
                    return wrapped.isEmpty ? [""] : wrapped
                }
                for (number, text) in valueLines.enumerated() {
                    result.append(
                        Line(height: lineHeight) { top in
                            if number == 0 {
                                canvas.text(
                                    label, at: ChartPoint(x: margin + 4, y: top + 9), font: font, color: theme.secondaryText, anchor: .start)
                            }
                            canvas.text(
                                text, at: ChartPoint(x: margin + labelWidth + 8, y: top + 9), font: valueFont, color: theme.text, anchor: .start)
                        })
                }
            }
            if let note = signatureCoverageNote(signature) {
                for text in LotReportPage.wrap(note, width: contentWidth - 8, font: bold, canvas: canvas) {
                    result.append(
                        Line(height: lineHeight) { top in
                            canvas.text(text, at: ChartPoint(x: margin + 4, y: top + 9), font: bold, color: theme.inconclusive, anchor: .start)
                        })
                }
            }
            result.append(Line(height: 10) { _ in })
            return result
        }

        for (index, signature) in content.signatures.enumerated() {
            let entry = lines(index, signature)
            let entryHeight = entry.map(\.height).reduce(0, +)
            if index == 0 {
                keep(min(pageRoom, titleRoom + entryHeight))
                section(s.section)
            } else {
                keep(min(pageRoom, entryHeight))
            }
            for line in entry { place(line.height, line.draw) }
        }
    }
}
