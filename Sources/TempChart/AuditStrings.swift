import Foundation

/// The texts of the report's audit part (rules with their outcome, warnings, per-day
/// figures, the input and how the read time is known), one table per language.
/// Templates: `{name}` is replaced.
public struct AuditStrings: LanguageTable {
    public var sectionRules: String
    public var sectionWarnings: String
    public var sectionDays: String
    public var sectionInput: String
    public var rulePassed: String
    public var ruleFired: String
    public var ruleUnknown: String
    /// Why a rule passed: "{exposure}" is its largest exposure, "{limit}" the allowed one.
    public var passedContinuous: String
    public var passedCumulative: String
    public var passedInstantaneous: String
    public var passedMKT: String
    public var unknownWhy: String
    public var noWarnings: String
    public var dayHeader: [String]
    public var inputFile: String
    public var inputSize: String
    public var inputSHA256: String
    public var version: String
    public var readTimeSource: String
    public var bytes: String
    /// The read-time row of an estimate: "{time}", "{source}".
    public var readTimeEstimated: String
    /// The banner line when every time is an estimate: "{source}".
    public var timesEstimatedNote: String
    /// Read-time sources by their English name in the log.
    public var readTimeSources: [String: String]
    /// The reason that leads when most samples are outside the sensor range: "{out}", "{count}".
    public var reasonMostlyOutOfRange: String
    /// The logger-limits profile without limits in the log: "{recorded}" (what the log says).
    public var reasonLoggerLimitsMissing: String
    /// The logger's own verdict against the samples: "{verdict}" (the logger's words) and
    /// "{status}"; the disagreement either way.
    public var reasonLoggerDisagreesBeyond: String
    public var reasonLoggerDisagreesWithin: String
    /// The logger's own verdict when it agrees with the samples: "{verdict}", "{status}".
    public var reasonLoggerAgrees: String
    /// How "{status}" is shown: "{bits}"; empty without status bits.
    public var loggerStatus: String
    public var page: String
    /// Added to the chart's title when every time is an estimate: "{source}".
    public var chartTimesEstimated: String

    public static let english = AuditStrings(
        sectionRules: "Rules", sectionWarnings: "Warnings", sectionDays: "Per day", sectionInput: "Input and audit trail",
        rulePassed: "passed", ruleFired: "FIRED", ruleUnknown: "undecided",
        passedContinuous: "longest run beyond the limit {exposure}, allowed {limit}",
        passedCumulative: "{exposure} beyond the limit in total, allowed {limit}",
        passedInstantaneous: "no sample beyond the limit",
        passedMKT: "mean kinetic temperature {value}",
        unknownWhy: "fires only if the unknown time counts as beyond the limit",
        noWarnings: "No warnings.",
        dayHeader: ["Day", "In band", "Above", "Below", "Unknown", "Min", "Max", "Mean"],
        inputFile: "File", inputSize: "Size", inputSHA256: "SHA-256", version: "ColdTap version",
        readTimeSource: "Read time from", bytes: "bytes",
        readTimeEstimated: "{time} (estimated: {source})",
        timesEstimatedNote: "All times are estimated: the log has no clock and the read time is not known ({source} was used).",
        readTimeSources: [
            "given by the user": "given by the user", "file modification time": "the file's modification time",
            "now (no read time known)": "the time of decoding", "time of the tag read": "the time of the tag read",
            "given by the uploading device": "given by the uploading device",
            "the station's arrival time (no read time sent)": "the station's arrival time (no read time was sent)",
        ],
        reasonMostlyOutOfRange: "{out} of {count} samples are outside the sensor's range, so the log is not a record to judge.",
        reasonLoggerLimitsMissing: "The logger-limits profile needs the logger's own limits, and this log has none ({recorded}).",
        reasonLoggerDisagreesBeyond:
            "The logger's own verdict, {verdict}{status}, disagrees with the samples read: they go beyond its limits but it did not flag it.",
        reasonLoggerDisagreesWithin:
            "The logger's own verdict, {verdict}{status}, disagrees with the samples read: none of them is beyond its limits (it also counts samples taken while logging continued after the memory was full).",
        reasonLoggerAgrees: "The logger itself: {verdict}{status}.", loggerStatus: " (status {bits})",
        page: "Page", chartTimesEstimated: "times estimated from {source}")

    public static let simplifiedChinese = AuditStrings(
        sectionRules: "规则", sectionWarnings: "警告", sectionDays: "每日统计", sectionInput: "输入与审计信息",
        rulePassed: "通过", ruleFired: "触发", ruleUnknown: "未定",
        passedContinuous: "最长连续超限 {exposure}，允许 {limit}",
        passedCumulative: "累计超限 {exposure}，允许 {limit}",
        passedInstantaneous: "没有样本超限",
        passedMKT: "平均动力学温度 {value}",
        unknownWhy: "仅当未知时间计为超限时才会触发",
        noWarnings: "没有警告。",
        dayHeader: ["日期", "范围内", "偏高", "偏低", "未知", "最低", "最高", "平均"],
        inputFile: "文件", inputSize: "大小", inputSHA256: "SHA-256", version: "ColdTap 版本",
        readTimeSource: "读取时间来源", bytes: "字节",
        readTimeEstimated: "{time}（推算：{source}）",
        timesEstimatedNote: "所有时间均为推算：记录仪没有时钟，读取时间未知（使用了{source}）。",
        readTimeSources: [
            "given by the user": "用户指定", "file modification time": "文件修改时间",
            "now (no read time known)": "解码时刻", "time of the tag read": "标签读取时刻",
            "given by the uploading device": "由上传设备给出", "the station's arrival time (no read time sent)": "工作站收到上传的时刻（未发送读取时间）",
        ],
        reasonMostlyOutOfRange: "{count} 个样本中有 {out} 个超出传感器量程，此记录不能作为判定依据。",
        reasonLoggerLimitsMissing: "“记录仪限值”方案需要记录仪自身的限值，而此记录中没有（{recorded}）。",
        reasonLoggerDisagreesBeyond: "记录仪自身的结论（{verdict}{status}）与读取的样本不符：样本超出了其限值，但它未作标记。",
        reasonLoggerDisagreesWithin: "记录仪自身的结论（{verdict}{status}）与读取的样本不符：没有样本超出其限值（它也计入了存储已满后继续记录时的样本）。",
        reasonLoggerAgrees: "记录仪自身的结论：{verdict}{status}。", loggerStatus: "，状态 {bits}",
        page: "页", chartTimesEstimated: "时间按{source}推算")

    public static let japanese = AuditStrings(
        sectionRules: "判定条件", sectionWarnings: "警告", sectionDays: "日別", sectionInput: "入力と監査情報",
        rulePassed: "合格", ruleFired: "成立", ruleUnknown: "未確定",
        passedContinuous: "限界値を超えた最長連続時間 {exposure}、許容 {limit}",
        passedCumulative: "限界値を超えた累計時間 {exposure}、許容 {limit}",
        passedInstantaneous: "限界値を超えたサンプルなし",
        passedMKT: "平均キネティック温度 {value}",
        unknownWhy: "不明な時間を逸脱とみなした場合のみ成立",
        noWarnings: "警告はありません。",
        dayHeader: ["日付", "範囲内", "超過", "未満", "不明", "最低", "最高", "平均"],
        inputFile: "ファイル", inputSize: "サイズ", inputSHA256: "SHA-256", version: "ColdTap バージョン",
        readTimeSource: "読み取り時刻の出所", bytes: "バイト",
        readTimeEstimated: "{time}（推定：{source}）",
        timesEstimatedNote: "すべての時刻は推定です：ロガーに時計がなく、読み取り時刻も不明です（{source}を使用）。",
        readTimeSources: [
            "given by the user": "利用者の指定", "file modification time": "ファイルの更新日時",
            "now (no read time known)": "デコードした時刻", "time of the tag read": "タグを読み取った時刻",
            "given by the uploading device": "アップロードした端末の指定", "the station's arrival time (no read time sent)": "ステーションが受信した時刻（読み取り時刻の送信なし）",
        ],
        reasonMostlyOutOfRange: "{count} 件中 {out} 件のサンプルがセンサーの測定範囲外のため、この記録では判定できません。",
        reasonLoggerLimitsMissing: "「ロガーの限界値」プロファイルにはロガー自身の限界値が必要ですが、この記録にはありません（{recorded}）。",
        reasonLoggerDisagreesBeyond: "ロガー自身の判定（{verdict}{status}）は読み取ったサンプルと一致しません：サンプルは限界値を超えていますが、ロガーは記録していません。",
        reasonLoggerDisagreesWithin: "ロガー自身の判定（{verdict}{status}）は読み取ったサンプルと一致しません：限界値を超えたサンプルはありません（メモリが一杯になった後も続いた記録のサンプルも数えています）。",
        reasonLoggerAgrees: "ロガー自身の判定：{verdict}{status}。", loggerStatus: "、ステータス {bits}",
        page: "ページ", chartTimesEstimated: "時刻は{source}から推定")
}

extension ReportLanguage {
    /// The audit texts for this language.
    public var audit: AuditStrings { .forLanguage(self) }
}
