import ColdChain
import Foundation

/// The texts of the lot report, one table per language. Templates: `{name}` is replaced.
/// The reasons' sentences in Chinese and Japanese are made here from the same values as
/// `LotReason.english(in:)` makes the English one (`LotReportPage.reasonText`).
public struct LotReportStrings: LanguageTable {
    public var title: String
    public var lot: String
    public var product: String
    public var quantity: String
    public var note: String
    public var decision: String
    /// By `LotDecision`; the English code is shown beside the word in the other languages.
    public var decisions: [LotDecision: String]
    public var sectionBudget: String
    public var consumed: String
    /// How the consumed fraction was measured, by `BudgetMeasure`.
    public var measures: [BudgetMeasure: String]
    /// "{fraction}": where review begins, on the budget bar.
    public var reviewMark: String
    public var discardMark: String
    /// The consumed fraction with the unknown time counted at the worst the product allows.
    public var worstCase: String
    /// "{fraction}": the worst case on the budget bar.
    public var worstCaseMark: String
    public var kineticsConsumed: String
    public var unknownTime: String
    public var bandHeader: [String]
    public var noBands: String
    /// What joins a band's two edges ("> 8 °C and ≤ 25 °C").
    public var bandJoin: String
    public var sectionJourney: String
    /// "{number}".
    public var leg: String
    public var noLogger: String
    public var unknown: String
    public var storage: String
    public var largestConsumers: String
    public var sectionReasons: String
    public var sectionDiscard: String
    public var discardHeader: [String]
    public var noDiscard: String
    public var sectionLegs: String
    public var logger: String
    public var period: String
    public var integrity: String
    public var integrityFailed: String
    public var integrityPassed: String
    public var readsHeader: [String]
    public var noReads: String
    public var unlogged: String
    public var sectionRecord: String
    public var chainHead: String
    public var checkpoint: String
    public var sectionSignature: String
    public var signatureFields: [String]
    public var decisionConfirmed: String

    /// "{number}", "{logger}": a leg in a table or a heading.
    public var legWithLogger: String
    /// "{number}".
    public var legWithoutLogger: String
    /// The reasons' sentences; `nil` for English, whose sentences are `LotReason.english(in:)`.
    public var reasons: LotReasonStrings?
    public var listSeparator: String

    public static let english = LotReportStrings(
        title: "Lot report", lot: "Lot", product: "Product", quantity: "Quantity", note: "Note", decision: "Decision",
        decisions: [.usable: "USABLE", .review: "REVIEW", .discard: "DISCARD", .inconclusive: "INCONCLUSIVE"],
        sectionBudget: "Stability budget", consumed: "Consumed", measures: [.allowances: "by the allowances", .kinetics: "by the kinetic model"],
        reviewMark: "review {fraction}", discardMark: "discard 1", worstCase: "Worst case (unknown time counted)", worstCaseMark: "worst case {fraction}",
        kineticsConsumed: "Kinetics consumed", unknownTime: "Unknown time",
        bandHeader: ["Band", "Time", "Allowance", "Fraction"], noBands: "The product has no allowance bands.", bandJoin: " and ",
        sectionJourney: "Journey", leg: "Leg {number}", noLogger: "no logger", unknown: "unknown", storage: "storage {band}",
        largestConsumers: "largest consumers",
        sectionReasons: "Reasons", sectionDiscard: "Discard events", discardHeader: ["Leg", "Time", "Temperature", "Limit"],
        noDiscard: "No discard events.",
        sectionLegs: "Legs and their loggers' reads", logger: "Logger", period: "Period", integrity: "Integrity",
        integrityFailed: "a read failed its integrity check", integrityPassed: "no read failed its check",
        readsHeader: ["#", "Read time", "Read time from", "SHA-256 (raw bytes)", "Chain hash"],
        noReads: "No read of the logger covers this leg.", unlogged: "Nobody logged this leg: its time is unknown.",
        sectionRecord: "Record", chainHead: "Chain head", checkpoint: "Signed checkpoint",
        sectionSignature: "Review and signature", signatureFields: ["Name", "Role", "Date", "Signature"],
        decisionConfirmed: "Decision confirmed",
        legWithLogger: "leg {number} (logger {logger})", legWithoutLogger: "leg {number} (no logger)", reasons: nil, listSeparator: ", ")

    public static let simplifiedChinese = LotReportStrings(
        title: "批次报告", lot: "批次", product: "产品", quantity: "数量", note: "备注", decision: "结论",
        decisions: [.usable: "可用", .review: "需复核", .discard: "报废", .inconclusive: "无法判定"],
        sectionBudget: "稳定性预算", consumed: "已消耗", measures: [.allowances: "按允许时间计", .kinetics: "按动力学模型计"],
        reviewMark: "复核 {fraction}", discardMark: "报废 1", worstCase: "最坏情况（计入未知时间）", worstCaseMark: "最坏 {fraction}",
        kineticsConsumed: "动力学消耗", unknownTime: "未知时间",
        bandHeader: ["温度带", "时长", "允许时长", "比例"], noBands: "该产品没有允许温度带。", bandJoin: " 且 ",
        sectionJourney: "运输过程", leg: "第 {number} 段", noLogger: "无记录仪", unknown: "未知", storage: "储存 {band}",
        largestConsumers: "消耗最多的偏离",
        sectionReasons: "原因", sectionDiscard: "报废事件", discardHeader: ["区段", "时间", "温度", "限值"],
        noDiscard: "没有报废事件。",
        sectionLegs: "各段及其记录仪的读取", logger: "记录仪", period: "时段", integrity: "完整性",
        integrityFailed: "有读取未通过完整性校验", integrityPassed: "所有读取均通过校验",
        readsHeader: ["#", "读取时间", "读取时间来源", "SHA-256（原始数据）", "哈希链值"],
        noReads: "没有覆盖该段的记录仪读取。", unlogged: "该段无人记录：其时间未知。",
        sectionRecord: "记录", chainHead: "哈希链头", checkpoint: "签名检查点",
        sectionSignature: "审核与签字", signatureFields: ["姓名", "职务", "日期", "签字"],
        decisionConfirmed: "确认结论",
        legWithLogger: "第 {number} 段（记录仪 {logger}）", legWithoutLogger: "第 {number} 段（无记录仪）",
        reasons: LotReasonStrings(
            noJourney: "该批次尚未转移到任何记录仪上：没有可评估的运输过程。",
            integrityFailed: "记录仪 {logger} 的一次读取未通过完整性校验：其记录不可信。",
            discardLimit: "{leg}于 {time} 达到报废限值 {rule}：{temperature}。",
            moreDiscardEvents: "另有 {count} 次报废事件。",
            consumed: "{measure}已消耗稳定性预算的 {fraction}（{review} 起需复核，1 起报废）。",
            measures: [.allowances: "按允许时间", .kinetics: "按动力学模型"],
            legConsumedMost: "{leg}消耗最多：{fraction}。",
            excursion: "{leg}的偏离 {start} → {end}（{duration}，最高 {peak}）消耗了 {fraction}。",
            unknown: "运输过程中有 {duration} 的时间未知", unknownLegs: "（{legs}）",
            unknownBand: "；若按温度带 {band} 计", unknownTemperature: "；若按 {temperature} 计",
            unknownWorst: "，消耗比例将为 {fraction}", unknownDecides: "，结论将变为 {decision}", sentenceEnd: "。", unknownLeg: "{leg} {duration}"),
        listSeparator: "、")

    public static let japanese = LotReportStrings(
        title: "ロットレポート", lot: "ロット", product: "製品", quantity: "数量", note: "備考", decision: "判定",
        decisions: [.usable: "使用可", .review: "要確認", .discard: "廃棄", .inconclusive: "判定不能"],
        sectionBudget: "安定性予算", consumed: "消費", measures: [.allowances: "許容時間による", .kinetics: "速度論モデルによる"],
        reviewMark: "要確認 {fraction}", discardMark: "廃棄 1", worstCase: "最悪の場合（不明な時間を含む）", worstCaseMark: "最悪 {fraction}",
        kineticsConsumed: "速度論モデルによる消費", unknownTime: "不明な時間",
        bandHeader: ["温度帯", "時間", "許容時間", "割合"], noBands: "この製品には許容温度帯がありません。", bandJoin: " かつ ",
        sectionJourney: "輸送経路", leg: "区間 {number}", noLogger: "ロガーなし", unknown: "不明", storage: "保管 {band}",
        largestConsumers: "消費の大きい逸脱",
        sectionReasons: "理由", sectionDiscard: "廃棄イベント", discardHeader: ["区間", "時刻", "温度", "限界値"],
        noDiscard: "廃棄イベントはありません。",
        sectionLegs: "各区間とロガーの読み取り", logger: "ロガー", period: "期間", integrity: "完全性",
        integrityFailed: "完全性検査に失敗した読み取りがあります", integrityPassed: "すべての読み取りが検査に合格",
        readsHeader: ["#", "読み取り時刻", "読み取り時刻の出所", "SHA-256（生データ）", "チェーンハッシュ"],
        noReads: "この区間をカバーするロガーの読み取りはありません。", unlogged: "この区間は記録されていません：時間は不明です。",
        sectionRecord: "記録", chainHead: "ハッシュチェーンの先頭", checkpoint: "署名付きチェックポイント",
        sectionSignature: "確認と署名", signatureFields: ["氏名", "役職", "日付", "署名"],
        decisionConfirmed: "判定を確認",
        legWithLogger: "区間 {number}（ロガー {logger}）", legWithoutLogger: "区間 {number}（ロガーなし）",
        reasons: LotReasonStrings(
            noJourney: "このロットはまだどのロガーにも移されていません：評価できる輸送経路がありません。",
            integrityFailed: "ロガー {logger} の読み取りが完全性検査に失敗しました：記録は信頼できません。",
            discardLimit: "{leg}で {time} に廃棄限界 {rule} に達しました：{temperature}。",
            moreDiscardEvents: "ほかに廃棄イベントが {count} 件あります。",
            consumed: "{measure}安定性予算の {fraction} を消費しました（{review} から要確認、1 で廃棄）。",
            measures: [.allowances: "許容時間で", .kinetics: "速度論モデルで"],
            legConsumedMost: "{leg}の消費が最大です：{fraction}。",
            excursion: "{leg}の逸脱 {start} → {end}（{duration}、最高 {peak}）で {fraction} を消費しました。",
            unknown: "輸送経路のうち {duration} が不明です", unknownLegs: "（{legs}）",
            unknownBand: "。温度帯 {band} として数えると", unknownTemperature: "。{temperature} として数えると",
            unknownWorst: "、消費割合は {fraction} になります", unknownDecides: "。その場合の判定は {decision} です", sentenceEnd: "。", unknownLeg: "{leg} {duration}"),
        listSeparator: "、")
}

/// The sentences of `LotReason` in a language other than English, made from the same values.
/// Templates: `{name}` is replaced.
public struct LotReasonStrings: Sendable {
    public var noJourney: String
    /// "{logger}".
    public var integrityFailed: String
    /// "{leg}", "{rule}", "{time}", "{temperature}".
    public var discardLimit: String
    /// "{count}".
    public var moreDiscardEvents: String
    /// "{measure}", "{fraction}", "{review}".
    public var consumed: String
    public var measures: [BudgetMeasure: String]
    /// "{leg}", "{fraction}".
    public var legConsumedMost: String
    /// "{leg}", "{start}", "{end}", "{duration}", "{peak}", "{fraction}".
    public var excursion: String
    /// The unknown time's sentence is put together from these: "{duration}", then "{legs}",
    /// then "{band}" or "{temperature}", then "{fraction}", then "{decision}", then the end.
    public var unknown: String
    /// "{legs}": each leg's share of the unknown time, joined.
    public var unknownLegs: String
    public var unknownBand: String
    public var unknownTemperature: String
    public var unknownWorst: String
    public var unknownDecides: String
    public var sentenceEnd: String
    /// "{leg}", "{duration}": one leg's share of the unknown time.
    public var unknownLeg: String
}

extension ReportLanguage {
    /// The lot report's texts for this language.
    public var lot: LotReportStrings { .forLanguage(self) }
}
