import ColdChain
import Foundation

/// The language of chart and report text (`--lang en|zh-Hans|ja`).
public enum ReportLanguage: String, Sendable, CaseIterable {
    case english = "en"
    case simplifiedChinese = "zh-Hans"
    case japanese = "ja"

    /// The string table for this language.
    public var strings: ReportStrings { .forLanguage(self) }

    /// The language a BCP 47 tag asks for (`zh`, `zh-CN`, `zh-Hans-SG`, `ja-JP`, `en-GB`,
    /// `en_US`), by its language and, for Chinese, its script or region: Traditional Chinese
    /// (`zh-Hant`, `zh-TW`, `zh-HK`, `zh-MO`) is not one of them.
    public init?(languageTag tag: String) {
        let parts = tag.lowercased().split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let language = parts.first, parts.allSatisfy({ !$0.isEmpty && $0.count <= 8 }) else { return nil }
        switch language {
        case "en": self = .english
        case "ja": self = .japanese
        case "zh":
            // The script decides; without one, the regions that write Traditional Chinese.
            let subtags = parts.dropFirst()
            guard subtags.contains("hans") || !subtags.contains(where: { ["hant", "tw", "hk", "mo"].contains($0) }) else { return nil }
            self = .simplifiedChinese
        default: return nil
        }
    }

    /// True for languages written with CJK characters (they need a CJK font).
    public var usesCJK: Bool { self != .english }
}

/// A table of words with one value per report language. Each table type holds its words
/// once per language (`english`, `simplifiedChinese`, `japanese`) and every table is found
/// by its language here, in the one switch over the languages; a new language is a new value
/// of each table and a new case of that switch.
public protocol LanguageTable: Sendable {
    static var english: Self { get }
    static var simplifiedChinese: Self { get }
    static var japanese: Self { get }
}

extension LanguageTable {
    /// This table's words in `language`.
    public static func forLanguage(_ language: ReportLanguage) -> Self {
        switch language {
        case .english: return english
        case .simplifiedChinese: return simplifiedChinese
        case .japanese: return japanese
        }
    }
}

/// Every piece of text the chart and the report show, one table per language.
public struct ReportStrings: LanguageTable {
    // Chart.
    public var timeAxis: String
    public var upperLimit: String
    public var lowerLimit: String
    public var maximum: String
    public var minimum: String
    public var gap: String
    public var noData: String
    public var monthAbbreviations: [String]
    /// Day label from (month 1...12, day): "5 Mar", "3月5日".
    public var dayLabel: @Sendable (_ month: Int, _ day: Int, _ table: [String]) -> String
    /// Month label from (year, month 1...12): "Mar", "3月".
    public var monthLabel: @Sendable (_ month: Int, _ table: [String]) -> String
    public var yearSuffix: String

    // Report.
    public var reportTitle: String
    public var sectionLogger: String
    public var sectionVerdict: String
    public var sectionStatistics: String
    public var sectionExcursions: String
    public var sectionChart: String
    public var logger: String
    public var tagUID: String
    public var serial: String
    public var format: String
    public var readTime: String
    public var timeZone: String
    public var timeBase: String
    public var integrity: String
    public var profile: String
    public var verdict: String
    public var reasons: String
    public var samples: String
    public var interval: String
    public var period: String
    public var minMax: String
    public var mean: String
    public var mkt: String
    public var timeAbove: String
    public var timeBelow: String
    public var invalidSamples: String
    public var excursionStart: String
    public var excursionEnd: String
    public var excursionDuration: String
    public var excursionPeak: String
    public var excursionDirection: String
    public var above: String
    public var below: String
    public var noExcursions: String
    public var moreExcursions: String
    public var verdictOK: String
    public var verdictAlarm: String
    public var verdictInconclusive: String
    public var verdictNone: String
    /// By `TimeBase` raw value; `read-time-estimated` (with `{source}`) when the read time
    /// itself was not given.
    public var timeBaseNames: [String: String]
    public var integrityNames: [String: String]
    public var generatedBy: String
    public var durationUnits: (day: String, hour: String, minute: String, second: String)

    // Reasons (templates: {name} is replaced).
    public var reasonNoRule: String
    public var reasonNoRuleWithUnknown: String
    public var reasonAlarm: String
    public var reasonAlarmMKT: String
    public var reasonPossible: String
    public var reasonUnknownDecides: String
    public var reasonNoSamples: String
    public var reasonNoValid: String
    public var reasonNoInterval: String
    public var reasonIntegrityFailed: String
    public var reasonExcursions: String
    public var ruleContinuous: String
    public var ruleCumulative: String
    public var rulePerDay: String
    public var ruleInstantaneous: String
    public var limitAbove: String
    public var limitBelow: String
    public var listSeparator: String
    /// Every PDF page's footer: "{number}", "{count}".
    public var pageOf: String
}

extension String {
    /// Replaces `{key}` placeholders.
    func filled(_ values: [String: String]) -> String {
        var text = self
        for (key, value) in values { text = text.replacingOccurrences(of: "{\(key)}", with: value) }
        return text
    }
}

extension ReportStrings {
    static let englishMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// English.
    public static let english = ReportStrings(
        timeAxis: "Time", upperLimit: "upper limit", lowerLimit: "lower limit", maximum: "max", minimum: "min",
        gap: "no data", noData: "No valid samples to draw",
        monthAbbreviations: englishMonths,
        dayLabel: { month, day, table in "\(day) \(table[(month - 1) % 12])" },
        monthLabel: { month, table in table[(month - 1) % 12] },
        yearSuffix: "",
        reportTitle: "Temperature log report", sectionLogger: "Logger", sectionVerdict: "Profile and verdict",
        sectionStatistics: "Statistics", sectionExcursions: "Excursions", sectionChart: "Temperature curve",
        logger: "Logger", tagUID: "Tag UID", serial: "Serial", format: "Format", readTime: "Read at",
        timeZone: "Time zone", timeBase: "Time base", integrity: "Integrity", profile: "Profile",
        verdict: "Verdict", reasons: "Reasons", samples: "Samples", interval: "Interval", period: "Period",
        minMax: "Min / max", mean: "Mean", mkt: "Mean kinetic temp.", timeAbove: "Time above band", timeBelow: "Time below band",
        invalidSamples: "Missing / out of range",
        excursionStart: "Start", excursionEnd: "End", excursionDuration: "Duration", excursionPeak: "Peak",
        excursionDirection: "Direction", above: "above", below: "below", noExcursions: "No excursions.",
        moreExcursions: "more excursions not listed", verdictOK: "OK", verdictAlarm: "ALARM",
        verdictInconclusive: "INCONCLUSIVE", verdictNone: "NOT ASSESSED",
        timeBaseNames: [
            "logger-header": "logger header", "text-record": "NDEF text record",
            "device-information": "device information", "read-time": "from the read time (given)",
            "read-time-estimated": "estimated from the read time ({source})",
        ],
        integrityNames: ["verified": "verified", "unverified": "not verified", "failed": "FAILED"],
        generatedBy: "Generated by ColdTap",
        durationUnits: ("d", "h", "min", "s"),
        reasonNoRule: "No rule fired.",
        reasonNoRuleWithUnknown: "No rule fired, even with the {unknown} of unknown time counted as beyond the limits.",
        reasonAlarm: "'{rule}' fired at {time}: {exposure} {side} the limit, peak {peak}.",
        reasonAlarmMKT: "'{rule}' fired: the mean kinetic temperature is {value}.",
        reasonPossible: "Counting the {unknown} of unknown time as beyond the limits would also fire {rules}.",
        reasonUnknownDecides: "Unknown time decides: counted as beyond the limits, the gap {gap} would fire {rules}.",
        reasonNoSamples: "The log has no samples.", reasonNoValid: "No sample is valid.",
        reasonNoInterval: "The log gives no usable sample interval, so durations cannot be measured.",
        reasonIntegrityFailed: "The log failed its integrity check ({detail}): its data cannot be trusted.",
        reasonExcursions: "{count} excursion(s) outside {band} lasting {total} in total.",
        ruleContinuous: "{threshold} for {duration} continuous", ruleCumulative: "{threshold} for {duration} cumulative",
        rulePerDay: " per day", ruleInstantaneous: "any point {threshold}", limitAbove: "above", limitBelow: "below",
        listSeparator: ", ", pageOf: "Page {number} of {count}")

    /// Simplified Chinese.
    public static let simplifiedChinese = ReportStrings(
        timeAxis: "时间", upperLimit: "上限", lowerLimit: "下限", maximum: "最高", minimum: "最低",
        gap: "无数据", noData: "没有可绘制的有效数据",
        monthAbbreviations: (1...12).map { "\($0)月" },
        dayLabel: { month, day, _ in "\(month)月\(day)日" },
        monthLabel: { month, table in table[(month - 1) % 12] },
        yearSuffix: "年",
        reportTitle: "温度记录报告", sectionLogger: "记录仪", sectionVerdict: "规则与结论",
        sectionStatistics: "统计", sectionExcursions: "温度偏离", sectionChart: "温度曲线",
        logger: "记录仪", tagUID: "标签 UID", serial: "序列号", format: "格式", readTime: "读取时间",
        timeZone: "时区", timeBase: "时间基准", integrity: "完整性", profile: "规则",
        verdict: "结论", reasons: "原因", samples: "样本数", interval: "记录间隔", period: "时间范围",
        minMax: "最低 / 最高", mean: "平均值", mkt: "平均动力学温度", timeAbove: "高于范围时长", timeBelow: "低于范围时长",
        invalidSamples: "缺失 / 超出量程",
        excursionStart: "开始", excursionEnd: "结束", excursionDuration: "持续时间", excursionPeak: "峰值",
        excursionDirection: "方向", above: "偏高", below: "偏低", noExcursions: "没有温度偏离。",
        moreExcursions: "条偏离未列出", verdictOK: "正常", verdictAlarm: "报警",
        verdictInconclusive: "无法判定", verdictNone: "未评估",
        timeBaseNames: [
            "logger-header": "记录仪头部", "text-record": "NDEF 文本记录",
            "device-information": "设备信息", "read-time": "按读取时间（已给出）",
            "read-time-estimated": "按读取时间推算（{source}）",
        ],
        integrityNames: ["verified": "已验证", "unverified": "未验证", "failed": "验证失败"],
        generatedBy: "由 ColdTap 生成",
        durationUnits: ("天", "小时", "分钟", "秒"),
        reasonNoRule: "未触发任何报警规则。",
        reasonNoRuleWithUnknown: "即使将 {unknown} 的未知时间计为超限，也未触发任何报警规则。",
        reasonAlarm: "规则「{rule}」于 {time} 触发：{side}限值 {exposure}，峰值 {peak}。",
        reasonAlarmMKT: "规则「{rule}」触发：平均动力学温度为 {value}。",
        reasonPossible: "若将 {unknown} 的未知时间计为超限，还会触发 {rules}。",
        reasonUnknownDecides: "未知时间决定结论：若将空缺 {gap} 计为超限，将触发 {rules}。",
        reasonNoSamples: "记录中没有样本。", reasonNoValid: "没有有效样本。",
        reasonNoInterval: "记录没有可用的采样间隔，无法计算时长。",
        reasonIntegrityFailed: "记录未通过完整性校验（{detail}），数据不可信。",
        reasonExcursions: "共 {count} 次超出 {band} 的偏离，合计 {total}。",
        ruleContinuous: "{threshold} 连续 {duration}", ruleCumulative: "{threshold} 累计 {duration}",
        rulePerDay: "（每日）", ruleInstantaneous: "任一点 {threshold}", limitAbove: "高于", limitBelow: "低于",
        listSeparator: "、", pageOf: "第 {number} 页，共 {count} 页")

    /// Japanese.
    public static let japanese = ReportStrings(
        timeAxis: "時刻", upperLimit: "上限", lowerLimit: "下限", maximum: "最高", minimum: "最低",
        gap: "データなし", noData: "描画できる有効なデータがありません",
        monthAbbreviations: (1...12).map { "\($0)月" },
        dayLabel: { month, day, _ in "\(month)月\(day)日" },
        monthLabel: { month, table in table[(month - 1) % 12] },
        yearSuffix: "年",
        reportTitle: "温度記録レポート", sectionLogger: "ロガー", sectionVerdict: "判定基準と判定",
        sectionStatistics: "統計", sectionExcursions: "逸脱", sectionChart: "温度曲線",
        logger: "ロガー", tagUID: "タグ UID", serial: "シリアル番号", format: "形式", readTime: "読み取り日時",
        timeZone: "タイムゾーン", timeBase: "時刻の基準", integrity: "完全性", profile: "判定基準",
        verdict: "判定", reasons: "理由", samples: "サンプル数", interval: "記録間隔", period: "期間",
        minMax: "最低 / 最高", mean: "平均", mkt: "平均キネティック温度", timeAbove: "上限超過時間", timeBelow: "下限未満時間",
        invalidSamples: "欠測 / 測定範囲外",
        excursionStart: "開始", excursionEnd: "終了", excursionDuration: "継続時間", excursionPeak: "ピーク",
        excursionDirection: "方向", above: "上限超過", below: "下限未満", noExcursions: "逸脱はありません。",
        moreExcursions: "件の逸脱は省略", verdictOK: "正常", verdictAlarm: "警報",
        verdictInconclusive: "判定不能", verdictNone: "未判定",
        timeBaseNames: [
            "logger-header": "ロガーのヘッダー", "text-record": "NDEF テキストレコード",
            "device-information": "デバイス情報", "read-time": "読み取り時刻から（指定あり）",
            "read-time-estimated": "読み取り時刻から推定（{source}）",
        ],
        integrityNames: ["verified": "検証済み", "unverified": "未検証", "failed": "検証失敗"],
        generatedBy: "ColdTap で作成",
        durationUnits: ("日", "時間", "分", "秒"),
        reasonNoRule: "どのアラーム条件にも該当しませんでした。",
        reasonNoRuleWithUnknown: "不明な時間 {unknown} を逸脱とみなしても、どのアラーム条件にも該当しませんでした。",
        reasonAlarm: "条件「{rule}」が {time} に成立：限界値{side} {exposure}、ピーク {peak}。",
        reasonAlarmMKT: "条件「{rule}」が成立：平均キネティック温度は {value} です。",
        reasonPossible: "不明な時間 {unknown} を逸脱とみなすと、{rules} も成立します。",
        reasonUnknownDecides: "不明な時間が判定を左右します：欠測 {gap} を逸脱とみなすと {rules} が成立します。",
        reasonNoSamples: "記録にサンプルがありません。", reasonNoValid: "有効なサンプルがありません。",
        reasonNoInterval: "記録に有効な記録間隔がないため、時間を計算できません。",
        reasonIntegrityFailed: "記録が完全性検査に失敗しました（{detail}）。データは信頼できません。",
        reasonExcursions: "{band} からの逸脱が {count} 回、合計 {total}。",
        ruleContinuous: "{threshold} が連続 {duration}", ruleCumulative: "{threshold} が累計 {duration}",
        rulePerDay: "（1日あたり）", ruleInstantaneous: "いずれかの点が {threshold}", limitAbove: "超過", limitBelow: "未満",
        listSeparator: "、", pageOf: "{number} / {count} ページ")
}

/// Date and number formatting for charts and reports in a given zone and language,
/// independent of the process locale.
public struct ChartFormatter: Sendable {
    public var timeZone: TimeZone
    public var strings: ReportStrings
    public var calendar: Calendar

    public init(timeZone: TimeZone, language: ReportLanguage) {
        self.timeZone = timeZone
        self.strings = language.strings
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// "2026-03-05 14:20" in the formatter's zone.
    public func dateTime(_ date: Date, seconds: Bool = false) -> String {
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let base = String(format: "%04d-%02d-%02d %02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0)
        return seconds ? base + String(format: ":%02d", c.second ?? 0) : base
    }

    /// "14:20".
    public func clock(_ date: Date) -> String {
        let c = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", c.hour ?? 0, c.minute ?? 0)
    }

    /// "5 Mar" / "3月5日".
    public func day(_ date: Date) -> String {
        let c = calendar.dateComponents([.month, .day], from: date)
        return strings.dayLabel(c.month ?? 1, c.day ?? 1, strings.monthAbbreviations)
    }

    /// "Mar" / "3月".
    public func month(_ date: Date) -> String {
        strings.monthLabel(calendar.component(.month, from: date), strings.monthAbbreviations)
    }

    /// "2026" / "2026年".
    public func year(_ date: Date) -> String {
        "\(calendar.component(.year, from: date))\(strings.yearSuffix)"
    }

    /// "5 Mar 14:20" / "3月5日 14:20".
    public func dayAndClock(_ date: Date) -> String { day(date) + " " + clock(date) }

    /// A temperature with one decimal: "8.4 °C", "−0.5 °C" (with a real minus sign).
    public func temperature(_ value: Double, decimals: Int = 1) -> String {
        number(value, decimals: decimals) + " °C"
    }

    /// A number with a real minus sign.
    public func number(_ value: Double, decimals: Int) -> String {
        let text = String(format: "%.\(decimals)f", value)
        if text.hasPrefix("-") {
            let magnitude = String(text.dropFirst())
            return magnitude.allSatisfy { $0 == "0" || $0 == "." } ? magnitude : "−" + magnitude
        }
        return text
    }

    /// "2 d 4 h 10 min", "24 h", "3 h 20 min", "45 min", "12 min 30 s", "30 s": the one
    /// rounding rule of `ColdChainFormat.durationParts`.
    public func duration(_ seconds: TimeInterval) -> String {
        let units = strings.durationUnits
        guard let parts = ColdChainFormat.durationParts(seconds) else { return "—" }
        let space = strings.yearSuffix.isEmpty ? " " : ""
        let pieces = [(parts.days, units.day), (parts.hours, units.hour), (parts.minutes, units.minute), (parts.seconds, units.second)]
            .filter { $0.0 > 0 }.map { "\($0.0)\(space)\($0.1)" }
        return pieces.isEmpty ? "0\(space)\(units.second)" : pieces.joined(separator: " ")
    }

    /// "Asia/Shanghai (UTC+08:00)"; both offsets when the zone changes offset in the range.
    public func zoneDescription(from start: Date, to end: Date) -> String {
        let first = TimeTicks.offsetText(timeZone, at: start)
        let last = TimeTicks.offsetText(timeZone, at: end)
        let offsets = first == last ? first : first + " / " + last
        return "\(timeZone.identifier) (\(offsets))"
    }
}
