import Foundation
import LoggerFormats

/// What a report made from the archive adds: the reads the period covers, the gaps between
/// reads that do not meet, the conflicts, the acknowledgements and the chain head the report
/// was made from. Plain values, filled in by the command layer (TempChart does not know the
/// archive).
public struct ReportArchiveSection: Sendable, Equatable {
    public struct Read: Sendable, Equatable {
        public var id: Int64
        public var readTime: Date
        /// The read time's source, by its English name in the log ("time of the tag read").
        public var readTimeSource: String
        /// Reader name, file or app.
        public var origin: String
        public var sha256: String
        public var newSamples: Int
        public var duplicates: Int
        public var conflicts: Int
        /// "verified", "unverified" or "failed", then the detail in brackets.
        public var integrity: String

        public init(
            id: Int64, readTime: Date, readTimeSource: String, origin: String, sha256: String, newSamples: Int,
            duplicates: Int, conflicts: Int, integrity: String
        ) {
            self.id = id
            self.readTime = readTime
            self.readTimeSource = readTimeSource
            self.origin = origin
            self.sha256 = sha256
            self.newSamples = newSamples
            self.duplicates = duplicates
            self.conflicts = conflicts
            self.integrity = integrity
        }
    }

    /// A time read twice with two values: the first one is used, both are shown.
    public struct Conflict: Sendable, Equatable {
        public var time: Date
        public var kept: Double?
        public var keptRead: Int64
        public var other: Double?
        public var otherRead: Int64

        public init(time: Date, kept: Double?, keptRead: Int64, other: Double?, otherRead: Int64) {
            self.time = time
            self.kept = kept
            self.keptRead = keptRead
            self.other = other
            self.otherRead = otherRead
        }
    }

    public struct Acknowledgement: Sendable, Equatable {
        public var excursionStart: Date
        public var by: String
        public var at: Date
        public var comment: String

        public init(excursionStart: Date, by: String, at: Date, comment: String) {
            self.excursionStart = excursionStart
            self.by = by
            self.at = at
            self.comment = comment
        }
    }

    /// The archive as the user named it (a file, or a connection URI without its password).
    public var archive: String
    public var loggerID: String
    public var generation: Int
    /// The period asked for; `nil` ends mean the whole record on that side.
    public var from: Date?
    public var to: Date?
    /// The newest hash of the archive's chain when the report was made.
    public var chainHead: String
    public var reads: [Read]
    public var gaps: [DateInterval]
    public var conflicts: [Conflict]
    public var acknowledgements: [Acknowledgement]
    /// Starts of the report's excursions that no acknowledgement names.
    public var openExcursions: [Date]
    /// The record's checkpoint and the inclusion proofs of the reads and acknowledgements
    /// the report rests on (docs/archive-record.md); `nil` when no signing key was at hand.
    public var record: RecordEvidence?

    /// A signed checkpoint and the leaves proved to be in it, as a report carries them.
    public struct RecordEvidence: Sendable, Equatable {
        /// The checkpoint's signed note.
        public var checkpoint: String
        /// "N leaves, root …" for the report's table.
        public var summary: String
        /// The evidence as JSON (what `coldtap verify-report` reads back).
        public var json: String

        public init(checkpoint: String, summary: String, json: String) {
            self.checkpoint = checkpoint
            self.summary = summary
            self.json = json
        }
    }

    public init(
        archive: String, loggerID: String, generation: Int, from: Date?, to: Date?, chainHead: String, reads: [Read],
        gaps: [DateInterval], conflicts: [Conflict], acknowledgements: [Acknowledgement], openExcursions: [Date]
    ) {
        self.archive = archive
        self.loggerID = loggerID
        self.generation = generation
        self.from = from
        self.to = to
        self.chainHead = chainHead
        self.reads = reads
        self.gaps = gaps
        self.conflicts = conflicts
        self.acknowledgements = acknowledgements
        self.openExcursions = openExcursions
    }

    /// The line a chart drawn alone (PNG, SVG) carries in its title: reads and chain head.
    public func chartNote(language: ReportLanguage) -> String {
        language.archive.chartNote.filled(["reads": "\(reads.count)", "head": chainHead])
    }
}

/// The texts of the archive part of a report, one table per language. Templates: `{name}`
/// is replaced.
public struct ArchiveReportStrings: LanguageTable {
    public var section: String
    public var archive: String
    public var loggerID: String
    public var generation: String
    public var period: String
    /// The period's open end.
    public var periodStart: String
    public var periodEnd: String
    public var chainHead: String
    /// The record's checkpoint row: "N leaves, root …".
    public var record: String
    public var readCount: String
    public var sectionReads: String
    public var readHeader: [String]
    /// The table of each read's SHA-256 over its raw bytes.
    public var sectionRaw: String
    public var sectionGaps: String
    public var gapHeader: [String]
    public var noGaps: String
    public var sectionConflicts: String
    public var conflictHeader: [String]
    /// "{value}", "{read}".
    public var conflictValue: String
    public var noTemperature: String
    public var noConflicts: String
    public var sectionAcknowledgements: String
    public var acknowledgementHeader: [String]
    public var noAcknowledgements: String
    /// "{list}": the starts of the excursions nobody acknowledged.
    public var openExcursions: String
    public var allAcknowledged: String
    /// Read-time sources of a stitched record, by their English name in the log.
    public var readTimeSources: [String: String]
    /// "{reads}", "{head}".
    public var chartNote: String
    /// "{count}".
    public var listSeparator: String

    public static let english = ArchiveReportStrings(
        section: "Archive record", archive: "Archive", loggerID: "Logger ID", generation: "Samples generation",
        period: "Period", periodStart: "the first sample", periodEnd: "the last sample", chainHead: "Chain head", record: "Record checkpoint",
        readCount: "Reads", sectionReads: "Reads in the period",
        readHeader: ["#", "Read time", "Read time from", "From", "New", "Dupl.", "Confl.", "Integrity"],
        sectionRaw: "The reads' raw bytes (SHA-256)",
        sectionGaps: "Gaps (unknown time between reads that do not meet)", gapHeader: ["From", "To", "Duration"],
        noGaps: "No gaps: the reads meet or overlap.",
        sectionConflicts: "Conflicts (a re-read gave another value; the first value read is used)",
        conflictHeader: ["Time", "Value used", "Other value"], conflictValue: "{value} (read #{read})",
        noTemperature: "no temperature", noConflicts: "No conflicts.",
        sectionAcknowledgements: "Acknowledgements", acknowledgementHeader: ["Excursion from", "By", "At", "Comment"],
        noAcknowledgements: "No acknowledgements.", openExcursions: "Excursions nobody has acknowledged: {list}.",
        allAcknowledged: "Every excursion is acknowledged.",
        readTimeSources: ["newest archived read": "the newest read in the archive"],
        chartNote: "{reads} archived read(s), chain head {head}", listSeparator: ", ")

    public static let simplifiedChinese = ArchiveReportStrings(
        section: "存档记录", archive: "存档", loggerID: "记录仪 ID", generation: "样本代次",
        period: "时段", periodStart: "第一个样本", periodEnd: "最后一个样本", chainHead: "哈希链头", record: "记录检查点",
        readCount: "读取次数", sectionReads: "时段内的读取",
        readHeader: ["#", "读取时间", "读取时间来源", "来源", "新增", "重复", "冲突", "完整性"],
        sectionRaw: "各次读取的原始数据（SHA-256）",
        sectionGaps: "间隙（相邻两次读取未衔接的未知时间）", gapHeader: ["开始", "结束", "时长"],
        noGaps: "没有间隙：各次读取相互衔接或重叠。",
        sectionConflicts: "冲突（重新读取得到不同数值；采用首次读取的数值）",
        conflictHeader: ["时间", "采用的数值", "另一数值"], conflictValue: "{value}（读取 #{read}）",
        noTemperature: "无温度", noConflicts: "没有冲突。",
        sectionAcknowledgements: "确认记录", acknowledgementHeader: ["偏离开始", "确认人", "确认时间", "说明"],
        noAcknowledgements: "没有确认记录。", openExcursions: "尚未确认的偏离：{list}。",
        allAcknowledged: "所有偏离均已确认。",
        readTimeSources: ["newest archived read": "存档中最新一次读取"],
        chartNote: "存档读取 {reads} 次，哈希链头 {head}", listSeparator: "、")

    public static let japanese = ArchiveReportStrings(
        section: "アーカイブの記録", archive: "アーカイブ", loggerID: "ロガー ID", generation: "サンプルの世代",
        period: "期間", periodStart: "最初のサンプル", periodEnd: "最後のサンプル", chainHead: "ハッシュチェーンの先頭", record: "記録のチェックポイント",
        readCount: "読み取り回数", sectionReads: "期間内の読み取り",
        readHeader: ["#", "読み取り時刻", "読み取り時刻の出所", "読み取り元", "新規", "重複", "不一致", "完全性"],
        sectionRaw: "各読み取りの生データ（SHA-256）",
        sectionGaps: "欠測（つながらない読み取りの間の不明な時間）", gapHeader: ["開始", "終了", "期間"],
        noGaps: "欠測なし：読み取りはつながっているか重なっています。",
        sectionConflicts: "不一致（再読み取りで別の値が得られたもの。最初に読んだ値を使用）",
        conflictHeader: ["時刻", "使用した値", "別の値"], conflictValue: "{value}（読み取り #{read}）",
        noTemperature: "温度なし", noConflicts: "不一致はありません。",
        sectionAcknowledgements: "確認記録", acknowledgementHeader: ["逸脱の開始", "確認者", "確認日時", "コメント"],
        noAcknowledgements: "確認記録はありません。", openExcursions: "未確認の逸脱：{list}。",
        allAcknowledged: "すべての逸脱が確認済みです。",
        readTimeSources: ["newest archived read": "アーカイブ内の最新の読み取り"],
        chartNote: "アーカイブの読み取り {reads} 回、ハッシュチェーンの先頭 {head}", listSeparator: "、")
}

extension ReportLanguage {
    /// A read-time source in this language: `source` as the archive stores it (a code, or an
    /// earlier version's English phrase), or a phrase of `ReadTimeSource`.
    func readTimeSourceName(_ source: String) -> String {
        let phrase = DecodeOptions.ReadTimeSource(stored: source).description
        return audit.readTimeSources[phrase] ?? archive.readTimeSources[phrase] ?? phrase
    }

    /// The archive texts for this language.
    public var archive: ArchiveReportStrings { .forLanguage(self) }
}

extension ReportPage {
    /// The archive part, when the report was made from the archive.
    var archiveSection: ReportArchiveSection? { content.audit?.archive }

    /// Label and value rows: archive, logger, generation, period, reads, chain head.
    public var archiveRows: [(String, String)] {
        guard let section = archiveSection else { return [] }
        let s = language.archive
        let f = formatter
        let from = section.from.map { f.dateTime($0, seconds: true) } ?? s.periodStart
        let to = section.to.map { f.dateTime($0, seconds: true) } ?? s.periodEnd
        return [
            (s.archive, section.archive), (s.loggerID, section.loggerID), (s.generation, "\(section.generation)"),
            (s.period, "\(from) – \(to)"), (s.readCount, "\(section.reads.count)"), (s.chainHead, section.chainHead),
        ] + (section.record.map { [(s.record, $0.summary)] } ?? [])
    }

    /// One row per read: id, time, read-time source, origin, new, duplicates, conflicts, integrity.
    public var archiveReadRows: [[String]] {
        guard let section = archiveSection else { return [] }
        let f = formatter
        return section.reads.map { read in
            [
                "#\(read.id)", f.dateTime(read.readTime, seconds: true), readTimeSourceName(read.readTimeSource),
                read.origin, "\(read.newSamples)", "\(read.duplicates)", "\(read.conflicts)",
                integrityText(read.integrity),
            ]
        }
    }

    /// One row per read: id, SHA-256 of its raw bytes.
    public var archiveRawRows: [[String]] {
        (archiveSection?.reads ?? []).map { ["#\($0.id)", $0.sha256] }
    }

    public var archiveGapRows: [[String]] {
        let f = formatter
        return (archiveSection?.gaps ?? []).map { [f.dateTime($0.start, seconds: true), f.dateTime($0.end, seconds: true), f.duration($0.duration)] }
    }

    public var archiveConflictRows: [[String]] {
        let s = language.archive
        let f = formatter
        func value(_ temperature: Double?, _ read: Int64) -> String {
            s.conflictValue.filled(["value": temperature.map { f.temperature($0, decimals: 2) } ?? s.noTemperature, "read": "\(read)"])
        }
        return (archiveSection?.conflicts ?? []).map {
            [f.dateTime($0.time, seconds: true), value($0.kept, $0.keptRead), value($0.other, $0.otherRead)]
        }
    }

    public var archiveAcknowledgementRows: [[String]] {
        let f = formatter
        return (archiveSection?.acknowledgements ?? []).map {
            [f.dateTime($0.excursionStart), $0.by, f.dateTime($0.at), $0.comment]
        }
    }

    /// Which excursions are still open, or that all are acknowledged; `nil` without excursions.
    public var archiveExcursionNote: String? {
        guard let section = archiveSection, !content.excursions.isEmpty else { return nil }
        let s = language.archive
        if section.openExcursions.isEmpty { return s.allAcknowledged }
        return s.openExcursions.filled(["list": section.openExcursions.map { formatter.dateTime($0) }.joined(separator: s.listSeparator)])
    }

    /// A read-time source in the report's language: `source` as the archive stores it (a
    /// code, or an earlier version's English phrase), or a phrase of `ReadTimeSource`.
    func readTimeSourceName(_ source: String) -> String { language.readTimeSourceName(source) }

    /// "verified (detail)" with the status word in the report's language.
    func integrityText(_ integrity: String) -> String {
        let status = integrity.prefix { $0 != " " }
        let name = strings.integrityNames[String(status)] ?? String(status)
        return name + integrity.dropFirst(status.count)
    }

    static let archiveReadFractions = [0.05, 0.15, 0.14, 0.25, 0.07, 0.07, 0.07, 0.2]

    /// Draws the archive part with the audit pages' own helpers (`section` starts a titled
    /// block, `paragraph` one line, `table` a table whose cells wrap); nothing without it.
    func drawArchiveSection(
        section: (String) -> Void, paragraph: (String, ChartColor) -> Void,
        table: ([String]?, [[String]], [Double], (Int, Int) -> Bool) -> Void
    ) {
        guard archiveSection != nil else { return }
        let s = language.archive
        let plain: (Int, Int) -> Bool = { _, _ in false }
        section(s.section)
        table(nil, archiveRows.map { [$0.0, $0.1] }, [0.25, 0.75], plain)
        section(s.sectionReads)
        table(s.readHeader, archiveReadRows, Self.archiveReadFractions, plain)
        section(s.sectionRaw)
        table(["#", "SHA-256"], archiveRawRows, [0.06, 0.94], plain)
        section(s.sectionGaps)
        let gaps = archiveGapRows
        if gaps.isEmpty { paragraph(s.noGaps, theme.secondaryText) } else { table(s.gapHeader, gaps, [0.35, 0.35, 0.3], plain) }
        section(s.sectionConflicts)
        let conflicts = archiveConflictRows
        if conflicts.isEmpty {
            paragraph(s.noConflicts, theme.secondaryText)
        } else {
            table(s.conflictHeader, conflicts, [0.3, 0.35, 0.35]) { _, column in column == 2 }
        }
        section(s.sectionAcknowledgements)
        let acknowledgements = archiveAcknowledgementRows
        if acknowledgements.isEmpty {
            paragraph(s.noAcknowledgements, theme.secondaryText)
        } else {
            table(s.acknowledgementHeader, acknowledgements, [0.2, 0.18, 0.2, 0.42], plain)
        }
        if let note = archiveExcursionNote {
            paragraph(note, archiveSection?.openExcursions.isEmpty == false ? theme.fail : theme.secondaryText)
        }
    }

    /// The archive part of the HTML report; empty without it.
    func archiveHTML(escape e: (String) -> String) -> String {
        guard let section = archiveSection else { return "" }
        let s = language.archive
        func grid(_ id: String, _ title: String, _ header: [String], _ rows: [[String]], empty: String) -> String {
            var out = "<section id=\"\(id)\"><h2>\(e(title))</h2>\n"
            if rows.isEmpty { return out + "<p class=\"muted\">\(e(empty))</p>\n</section>\n" }
            out += "<table class=\"grid\"><thead><tr>" + header.map { "<th>\(e($0))</th>" }.joined() + "</tr></thead><tbody>\n"
            out += rows.map { "<tr>" + $0.map { "<td>\(e($0))</td>" }.joined() + "</tr>\n" }.joined()
            return out + "</tbody></table>\n</section>\n"
        }
        var out =
            "<section id=\"archive\"><h2>\(e(s.section))</h2><table class=\"kv\">\n"
            + archiveRows.map { "<tr><th>\(e($0.0))</th><td class=\"wrap\">\(e($0.1))</td></tr>\n" }.joined() + "</table></section>\n"
        let reads = zip(archiveReadRows, archiveRawRows).map { $0 + [$1[1]] }
        out += grid("archive-reads", s.sectionReads, s.readHeader + ["SHA-256"], reads, empty: "")
        out += grid("archive-gaps", s.sectionGaps, s.gapHeader, archiveGapRows, empty: s.noGaps)
        out += grid("archive-conflicts", s.sectionConflicts, s.conflictHeader, archiveConflictRows, empty: s.noConflicts)
        out += grid(
            "archive-acknowledgements", s.sectionAcknowledgements, s.acknowledgementHeader, archiveAcknowledgementRows,
            empty: s.noAcknowledgements)
        if let note = archiveExcursionNote {
            out += "<p class=\"\(section.openExcursions.isEmpty ? "muted" : "estimated")\" id=\"archive-open-excursions\">\(e(note))</p>\n"
        }
        if let record = section.record {
            // The checkpoint as signed, and the proofs as data (never run: not JavaScript) for
            // `coldtap verify-report`; "</" is written "<\/" so the data cannot end the element.
            out += "<section id=\"archive-record\"><h2>\(e(s.record))</h2><pre class=\"wrap\">\(e(record.checkpoint))</pre>\n"
            out +=
                "<script type=\"application/json\" id=\"coldtap-record\">"
                + record.json.replacingOccurrences(of: "</", with: "<\\/") + "</script></section>\n"
        }
        return out
    }
}
