import ColdChain
import Foundation

/// The reasons of a log judged by its daily summaries alone (a Berlinger Fridge-tag 2,
/// docs/berlinger.md §9), one table per language: the log is a daily summary, each rule's
/// outcome, and what the days prove (`SummaryFinding.Evidence`). Templates: `{name}` is replaced.
/// An English report keeps ColdChain's own sentence (`VerdictReason.english`), which the
/// English table words the same way.
public struct SummaryReasonStrings: LanguageTable {
    /// "{days}": how many days.
    public var summaryOnly: String
    /// "{rule}", "{because}".
    public var fired: String
    public var cannotHaveFired: String
    public var undecided: String
    /// A day's figure on the side of a limit: its maximum, its minimum.
    public var maximum: String
    public var minimum: String
    /// "{side}", "{days}".
    public var noDayBeyond: String
    /// "{side}", "{day}", "{value}".
    public var dayExtreme: String
    public var meanKineticNeedsReadings: String
    /// "{day}", "{duration}".
    public var dayAtLeast: String
    /// "{day}".
    public var dayBetween: String
    /// "{duration}".
    public var noDayReaches: String
    /// "{day}", "{duration}".
    public var totalAtLeast: String
    /// "{duration}".
    public var totalAtMost: String
    /// "{low}", "{high}".
    public var totalBetween: String
    /// "{time}", "{day}", "{side}" (each day's mildest figure).
    public var wholeDaysBeyond: String
    /// "{alarm}", "{time}", "{day}".
    public var loggerAlarmFired: String
    /// A configured alarm: "{sign}" (> or <), "{limit}", "{duration}".
    public var loggerAlarm: String
    /// "{needed}", "{longest}".
    public var noRunCanLast: String
    public var runLengthUnknown: String

    public static let english = SummaryReasonStrings(
        summaryOnly: "The log is a daily summary ({days} days of minimum, maximum and mean, no readings): it is judged only by what those prove.",
        fired: "{rule} fired (proved by the daily summaries): {because}.", cannotHaveFired: "{rule} cannot have fired: {because}.",
        undecided: "{rule} is not decided by the daily summaries: {because}.", maximum: "maximum", minimum: "minimum",
        noDayBeyond: "no day's {side} is beyond the limit ({days} days)", dayExtreme: "the {side} of {day} was {value}",
        meanKineticNeedsReadings: "a mean kinetic temperature needs the readings, and some days reach beyond the limit",
        dayAtLeast: "{day} had at least {duration} beyond the limit",
        dayBetween: "on {day} the time beyond the limit is between what the summary proves and the whole day",
        noDayReaches: "no day can have reached {duration} beyond the limit", totalAtLeast: "by the end of {day} at least {duration} beyond the limit",
        totalAtMost: "at most {duration} can have been beyond the limit",
        totalBetween: "between {low} and {high} beyond the limit, and the summaries do not say which",
        wholeDaysBeyond: "every reading from {time} to the end of {day} was beyond the limit (each day's {side} beyond it)",
        loggerAlarmFired: "the logger's own alarm ({alarm}) fired at {time} on {day}", loggerAlarm: "{sign} {limit} for {duration}",
        noRunCanLast: "no unbroken run beyond the limit can have lasted {needed} (at most {longest})",
        runLengthUnknown: "some days reach beyond the limit, and the summaries do not say for how long unbroken")

    public static let simplifiedChinese = SummaryReasonStrings(
        summaryOnly: "此记录为每日汇总（{days} 天的最低、最高和平均温度，没有逐条读数）：只按这些汇总所能证明的内容判定。",
        fired: "{rule}已触发（由每日汇总证明）：{because}。", cannotHaveFired: "{rule}不可能触发：{because}。",
        undecided: "每日汇总无法判定{rule}：{because}。", maximum: "最高温度", minimum: "最低温度",
        noDayBeyond: "没有任何一天的{side}超限（共 {days} 天）", dayExtreme: "{day} 的{side}为 {value}",
        meanKineticNeedsReadings: "平均动力学温度需要逐条读数，而有几天的温度达到了限值以外",
        dayAtLeast: "{day} 至少有 {duration} 超限", dayBetween: "{day} 的超限时间介于汇总可证明的时长与全天之间",
        noDayReaches: "没有任何一天可能超限达 {duration}", totalAtLeast: "截至 {day} 结束，累计至少 {duration} 超限",
        totalAtMost: "累计超限最多为 {duration}", totalBetween: "累计超限介于 {low} 与 {high} 之间，汇总无法说明是多少",
        wholeDaysBeyond: "从 {time} 到 {day} 结束的所有读数都超限（每天的{side}均超限）",
        loggerAlarmFired: "记录仪自身的报警（{alarm}）于 {day} {time} 触发", loggerAlarm: "{sign} {limit} 持续 {duration}",
        noRunCanLast: "任何连续超限都不可能持续 {needed}（最多 {longest}）", runLengthUnknown: "有几天的温度超限，但汇总无法说明连续超限了多久")

    public static let japanese = SummaryReasonStrings(
        summaryOnly: "この記録は日ごとの集計です（{days} 日分の最低・最高・平均温度のみで、個々の測定値はありません）：集計から証明できることだけで判定します。",
        fired: "{rule}は成立しました（日ごとの集計により証明）：{because}。", cannotHaveFired: "{rule}は成立し得ません：{because}。",
        undecided: "日ごとの集計では{rule}を判定できません：{because}。", maximum: "最高温度", minimum: "最低温度",
        noDayBeyond: "どの日の{side}も限界値を超えていません（{days} 日間）", dayExtreme: "{day} の{side}は {value} でした",
        meanKineticNeedsReadings: "平均キネティック温度には個々の測定値が必要で、限界値を超えた日があります",
        dayAtLeast: "{day} は少なくとも {duration} 限界値を超えていました", dayBetween: "{day} の逸脱時間は、集計で証明できる時間と一日全体の間です",
        noDayReaches: "どの日も限界値を {duration} 超え続けることはあり得ません", totalAtLeast: "{day} の終わりまでに累計で少なくとも {duration} 限界値を超えていました",
        totalAtMost: "限界値を超えていた時間は累計で最大 {duration} です", totalBetween: "限界値を超えていた時間は累計で {low} から {high} の間で、集計からはどちらか分かりません",
        wholeDaysBeyond: "{time} から {day} の終わりまでのすべての測定値が限界値を超えていました（各日の{side}が限界値を超過）",
        loggerAlarmFired: "ロガー自身のアラーム（{alarm}）が {day} {time} に作動しました", loggerAlarm: "{sign} {limit} が {duration}",
        noRunCanLast: "限界値を超えた連続時間が {needed} 続くことはあり得ません（最大 {longest}）",
        runLengthUnknown: "限界値を超えた日がありますが、集計からは連続して何時間超えていたか分かりません")
}

extension SummaryFinding {
    /// The finding's sentence in `language`: its outcome, the rule as `rule` words it, and the evidence.
    func worded(_ language: ReportLanguage, rule: String, formatter f: ChartFormatter) -> String {
        let words = SummaryReasonStrings.forLanguage(language)
        func side(_ maximum: Bool) -> String { maximum ? words.maximum : words.minimum }
        let because: String
        switch evidence {
        case .noDayBeyond(let high, let days): because = words.noDayBeyond.filled(["side": side(high), "days": "\(days)"])
        case .dayExtreme(let high, let day, let value):
            because = words.dayExtreme.filled(["side": side(high), "day": day, "value": f.temperature(value) + " °C"])
        case .meanKineticNeedsReadings: because = words.meanKineticNeedsReadings
        case .dayAtLeast(let day, let seconds): because = words.dayAtLeast.filled(["day": day, "duration": f.duration(seconds)])
        case .dayBetween(let day): because = words.dayBetween.filled(["day": day])
        case .noDayReaches(let seconds): because = words.noDayReaches.filled(["duration": f.duration(seconds)])
        case .totalAtLeast(let day, let seconds): because = words.totalAtLeast.filled(["day": day, "duration": f.duration(seconds)])
        case .totalAtMost(let seconds): because = words.totalAtMost.filled(["duration": f.duration(seconds)])
        case .totalBetween(let low, let highTotal): because = words.totalBetween.filled(["low": f.duration(low), "high": f.duration(highTotal)])
        case .wholeDaysBeyond(let high, let from, let day):
            // Each day's mildest figure: its minimum against a high limit.
            because = words.wholeDaysBeyond.filled(["time": f.dateTime(from), "day": day, "side": side(!high)])
        case .loggerAlarmFired(let alarm, let at, let day):
            let configured = words.loggerAlarm.filled([
                "sign": alarm.direction == .high ? ">" : "<", "limit": f.temperature(alarm.limit) + " °C", "duration": f.duration(alarm.minutes * 60),
            ])
            because = words.loggerAlarmFired.filled(["alarm": configured, "time": f.clock(at), "day": day])
        case .noRunCanLast(let needed, let longest):
            because = words.noRunCanLast.filled(["needed": f.duration(needed), "longest": f.duration(longest)])
        case .runLengthUnknown: because = words.runLengthUnknown
        }
        let template: String
        switch outcome {
        case .fired: template = words.fired
        case .cannotHaveFired: template = words.cannotHaveFired
        case .undecided: template = words.undecided
        }
        return template.filled(["rule": rule, "because": because])
    }
}
