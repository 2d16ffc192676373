import ColdChain
import ColdTapBase
import Foundation
import LoggerFormats

/// What the decoders report as values — warnings, integrity details, logger events, why a
/// format was chosen — in the report's language. English is each value's own `text` (the
/// words of `decode --json`); Chinese and Japanese are written here from the same values.
/// A front end's worded value (`.worded`) keeps its English and is translated from the
/// value it words; an untyped `.text` (a log stored by an older version) stays as stored.
public enum LogTexts {
    public static func warning(_ warning: LogWarning, language: ReportLanguage) -> String {
        guard language != .english else { return warning.text }
        let zh = language == .simplifiedChinese
        switch warning.original {
        case .timesEstimated(let readTime, let source):
            let from = readTimeSource(source, language: language)
            return zh
                ? "样本时间为推算：记录仪没有时钟，读取时间未知，最新样本按\(from) \(iso(readTime)) 放置；请提供真实的读取时间以得到准确时间"
                : "サンプル時刻は推定です。ロガーに時計がなく読み取り時刻も不明なため、最新サンプルを\(from) \(iso(readTime)) に置きました。正しい時刻には実際の読み取り時刻を指定してください"
        case .timesFromReadTime(let readTime):
            return zh
                ? "记录中没有开始时间：时间为推算，最新样本按读取时间 \(iso(readTime)) 记录"
                : "ログに開始時刻がありません。最新サンプルを読み取り時刻 \(iso(readTime)) に記録されたものとして時刻を推定しています"
        case .startsBefore2000(let first):
            return zh
                ? "记录开始于 \(iso(first))，早于 2000 年：记录仪的时钟或开始时间有误"
                : "ログの開始は \(iso(first)) で 2000 年より前です。ロガーの時計か開始時刻が誤っています"
        case .startsAfterReadTime(let first, let readTime):
            return zh
                ? "记录开始于 \(iso(first))，晚于读取时间 \(iso(readTime))：读取时间或记录仪的时钟有误"
                : "ログの開始 \(iso(first)) が読み取り時刻 \(iso(readTime)) より後です。読み取り時刻かロガーの時計が誤っています"
        case .readTimeBeforeNewest(let readTime, let newest):
            return zh
                ? "读取时间 \(iso(readTime)) 早于最新样本（\(iso(newest))）：读取时间或记录仪的时钟有误"
                : "読み取り時刻 \(iso(readTime)) が最新サンプル（\(iso(newest))）より前です。読み取り時刻かロガーの時計が誤っています"
        case .givenIntervalNotUsed(let given, let used, let origin):
            let gives: String
            switch origin {
            case .url: gives = zh ? "URL 给出 \(Int(used / 60)) 分钟" : "URL の値は \(Int(used / 60)) 分"
            case .log(let source): gives = zh ? "记录给出 \(formatSeconds(used))（\(source)）" : "ログの値は \(formatSeconds(used))（\(source)）"
            }
            return zh ? "未使用指定的采样间隔 \(formatSeconds(given))：\(gives)" : "指定された記録間隔 \(formatSeconds(given)) は使用していません：\(gives)"
        case .implausibleDeviceInterval(let key, let value):
            return zh
                ? "设备信息中的 \(key)=\(value) 长于任何记录仪的采样间隔（最长 31 天），未使用"
                : "デバイス情報の \(key)=\(value) はどのロガーの記録間隔（最長 31 日）よりも長いため使用していません"
        case .implausibleYetConclusive(let format, let problems):
            let why = problems.map { implausibility($0, language: language) }.joined(separator: zh ? "；" : "。")
            return zh
                ? "这份 \(format) 记录看起来不像记录仪的常见设置（\(why)），但其格式确凿无疑，因此按原样解码：请检查记录仪的设置"
                : "この \(format) ログはロガーの通常の設定には見えません（\(why)）が、形式は確実なのでそのまま復号しました。ロガーの設定を確認してください"
        case .partialSampleAtEnd(let bytes, let offset):
            return zh
                ? "样本区末尾偏移 \(offset) 处有 \(bytes) 个字节不足一个样本，已忽略"
                : "サンプル領域の末尾（オフセット \(offset)）に 1 サンプルに満たない \(bytes) バイトがあり、無視しました"
        case .outsideSensorRange(let count, let minimum, let maximum):
            let range = "\(formatNumber(minimum))…\(formatNumber(maximum)) °C"
            return zh
                ? "\(count) 个样本超出传感器量程 \(range)，标记为超量程，不计入统计"
                : "\(count) 件のサンプルがセンサー範囲 \(range) の外にあり、範囲外として統計から除外しました"
        case .integrityFailed(let detail):
            return zh
                ? "完整性校验失败：\(integrity(detail, language: language))；样本仅供查看，不可信"
                : "完全性の検証に失敗しました：\(integrity(detail, language: language))。サンプルは表示していますが信頼できません"
        case .secretTooLong(let bytes):
            return zh
                ? "密钥长 \(bytes) 字节；cuplTag 最多存储 16 字节，因此不可能是该标签的密钥"
                : "秘密鍵は \(bytes) バイトです。cuplTag が保存できるのは最大 16 バイトなので、このタグの鍵ではありません"
        case .secretNotUsed(let format):
            return zh
                ? "未使用密钥：只有 cuplTag 记录带有可校验的 HMAC，而这是 \(format) 记录"
                : "秘密鍵は使用していません。検証できる HMAC を持つのは cuplTag のログだけで、これは \(format) のログです"
        case .nhsBrownOut:
            return zh
                ? "记录仪报告电池欠压或断电（状态位 7）；记录可能已提前结束"
                : "ロガーが電池の電圧低下または電源喪失を報告しています（ステータスビット 7）。記録が早く終わった可能性があります"
        case .nhsMemoryFull:
            return zh
                ? "记录仪存储已满（状态位 8）：之后的样本已测量但未保存"
                : "ロガーのメモリが満杯です（ステータスビット 8）。以降のサンプルは測定されましたが保存されていません"
        case .nhsConfigResult(let result):
            return zh ? "GETCONFIG 的应答：\(result.explanation)" : "GETCONFIG の応答：\(result.explanation)"
        case .nhsRefused(let refusal):
            return zh
                ? "记录仪拒绝了 \(refusal.message)（\(refusal.result.explanation)）"
                : "ロガーが \(refusal.message) を拒否しました（\(refusal.result.explanation)）"
        case .nhsNoStartTime:
            return zh
                ? "消息 API 5 不提供开始时间：样本时间假定第一个样本在配置时刻采集"
                : "メッセージ API 5 は開始時刻を持ちません。最初のサンプルを設定時刻に記録したものとしてサンプル時刻を決めています"
        case .nhsClockLost:
            return zh
                ? "记录仪的时钟曾丢失（复位或断电）：无法测量其漂移，样本时间为标签未校正的计划时间，可能有偏差"
                : "ロガーの時計が失われました（リセットまたは電源喪失）。ずれを測れないため、サンプル時刻はタグの補正前の予定時刻で、ずれている可能性があります"
        case .nhsReadTimeFarFromClock(let readTime, let source, let drift):
            let shift = String(format: "%+d", drift)
            return zh
                ? "读取时间 \(iso(readTime))（\(readTimeSource(source, language: language))）与标签时钟相差 \(shift) 秒，远超标签可能的漂移；样本时间为标签自身的时间，未校正"
                : "読み取り時刻 \(iso(readTime))（\(readTimeSource(source, language: language))）とタグの時計の差は \(shift) 秒で、タグのずれとしては大きすぎます。サンプル時刻はタグ自身の時刻のまま補正していません"
        case .nhsPlaceholders(let count):
            return zh
                ? "\(count) 个样本为 85.1 °C 占位值（到期时有 NFC 场存在，未测量），标记为缺失"
                : "\(count) 件のサンプルが 85.1 °C のプレースホルダーです（予定時刻に NFC の電界があり測定されませんでした）。欠測として扱います"
        case .nhsOutsideSensorRange(let count):
            return zh
                ? "\(count) 个样本超出传感器的 -40.0 … 85.0 °C，标记为超量程"
                : "\(count) 件のサンプルがセンサーの -40.0 … 85.0 °C の外にあり、範囲外として扱います"
        case .nhsUnread(let numbers, let stored):
            let list = LogWarning.rangeList(numbers)
            return zh
                ? "存储的 \(stored) 个样本中有 \(LogWarning.count(numbers)) 个未读取（编号 \(list)，0 为最早）"
                : "保存された \(stored) 件のうち \(LogWarning.count(numbers)) 件のサンプルを読み取れませんでした（番号 \(list)、0 が最古）"
        case .nhsLoggedDuringRead(let count, let counted):
            return zh
                ? "读取期间又记录了 \(count) 个样本（GETCONFIG 计数为 \(counted) 之后）"
                : "読み取り中に \(count) 件のサンプルが記録されました（GETCONFIG の件数 \(counted) の後）"
        case .nhsEventsCutShort:
            return zh
                ? "标签截断了一条 GETEVENTS 应答（475 字节上限）；可能缺少部分超限事件"
                : "GETEVENTS の応答がタグにより途中で切られました（475 バイトの上限）。逸脱イベントの一部が欠けている可能性があります"
        case .tagImage(let anomaly):
            return zh ? "标签映像：\(anomaly)" : "タグイメージ：\(anomaly)"
        case .smarTag(let note):
            return smarTagNote(note, zh: zh)
        case .archiveConflicts(let count):
            return zh
                ? "\(count) 个样本重新读取时得到不同数值；采用首次读取的数值，两者均保存在存档中"
                : "\(count) 件のサンプルが再読み取りで別の値になりました。最初に読んだ値を使用し、両方をアーカイブに保存しています"
        case .archiveGaps(let count):
            return zh ? "相邻读取之间有 \(count) 处间隙未衔接，按未知时间处理" : "つながらない読み取りの間の欠測 \(count) 件は不明な時間として扱います"
        case .worded(_, let english), .text(let english):
            return english
        }
    }

    /// `HeadlineNote` in `language`, times in `timeZone`.
    public static func headlineNote(_ note: HeadlineNote, language: ReportLanguage, timeZone: TimeZone) -> String {
        guard language != .english else { return note.english(in: timeZone) }
        let zh = language == .simplifiedChinese
        let f = ChartFormatter(timeZone: timeZone, language: language)
        switch note {
        case .excursionsNotAcknowledged(let count):
            return zh ? "\(count) 次偏离尚未确认" : "\(count) 件の逸脱が未確認です"
        case .excursionsAcknowledged(let count, let by, let at):
            return zh ? "\(count) 次偏离均已由 \(by) 于 \(f.dateTime(at)) 确认" : "\(count) 件の逸脱は \(by) が \(f.dateTime(at)) に確認済み"
        case .loggerRecordedExcursion(let verdict, let status):
            let detail = verdict + (status.map { ", \($0)" } ?? "")
            return zh ? "记录仪自身记录了偏离（\(detail)）" : "ロガー自身が逸脱を記録しています（\(detail)）"
        }
    }

    static func implausibility(_ problem: LogWarning.Implausibility, language: ReportLanguage) -> String {
        let zh = language == .simplifiedChinese
        switch problem {
        case .noSamples: return zh ? "没有样本" : "サンプルがありません"
        case .interval(let seconds):
            return zh ? "采样间隔 \(formatSeconds(seconds)) 不在 1 秒至 1 天之间" : "記録間隔 \(formatSeconds(seconds)) が 1 秒～1 日の範囲外です"
        case .mostOutsideSensorRange(let count, let total):
            return zh ? "\(total) 个样本中有 \(count) 个超出传感器量程" : "\(total) 件中 \(count) 件のサンプルがセンサー範囲外です"
        case .start(let first):
            return zh ? "开始于 \(iso(first))，不在 2000 年与读取时间后一天之间" : "開始が \(iso(first)) で、2000 年から読み取り時刻の翌日までの範囲外です"
        }
    }

    public static func integrity(_ detail: TemperatureLog.Integrity.Detail, language: ReportLanguage) -> String {
        guard language != .english else { return detail.text }
        let zh = language == .simplifiedChinese
        switch detail.original {
        case .verified(let method): return method
        case .mismatch(let method, let stored, let computed, let keyGiven):
            let codes = "\(stored.hexString(uppercase: false)) / \(computed.hexString(uppercase: false))"
            return zh
                ? "\(method) 不符：存储值与数据计算值为 \(codes)" + (keyGiven ? "（密钥错误或数据被改动）" : "")
                : "\(method) 不一致：保存値とデータからの計算値は \(codes)" + (keyGiven ? "（秘密鍵の誤りかデータの改変）" : "")
        case .noCheck(let format):
            return zh ? "\(format) 格式没有完整性校验" : "\(format) 形式には完全性の検証がありません"
        case .nhsNoCheck:
            return zh ? "NHS31xx 协议不带校验和或签名" : "NHS31xx のプロトコルにはチェックサムも署名もありません"
        case .archiveAllVerified: return zh ? "所有读取均已验证" : "すべての読み取りを検証済み"
        case .archiveReadFailed: return zh ? "存档中有一次读取未通过完整性校验" : "アーカイブ内の読み取りの一つが完全性の検証に失敗しました"
        case .archiveNotAllVerified(let reads):
            return zh ? "存档中的 \(reads) 次读取，并非全部已验证" : "アーカイブの読み取り \(reads) 件、すべては検証されていません"
        case .worded(_, let english), .text(let english):
            return english
        }
    }

    public static func event(_ detail: TemperatureLog.Event.Detail, language: ReportLanguage) -> String {
        guard language != .english else { return detail.text }
        let zh = language == .simplifiedChinese
        switch detail {
        case .nhsStatus(let bit, let clock, let stillOut):
            var text = bit.map { statusPhrase(bit: $0, language: language) } ?? (zh ? "无编号的事件" : "番号のないイベント")
            if let clock {
                text += zh ? "；标签时钟 \(clock) 秒，自时钟丢失后的重启起计，无日期" : "。タグの時計 \(clock) 秒（時計喪失後の再起動から数えたもので日付なし）"
            }
            if stillOut { text += zh ? "；读取时仍超出限值" : "。読み取り時も限度外" }
            return text
        case .smarTag(let motion):
            var parts: [String] = []
            if let orientation = motion.orientation { parts.append(zh ? "方向 \(orientation)" : "向き \(orientation)") }
            if let acceleration = motion.accelerationMilliG { parts.append(zh ? "加速度 \(acceleration) mg" : "加速度 \(acceleration) mg") }
            if let tilt = motion.tiltDegrees { parts.append(zh ? "倾斜 \(tilt)°" : "傾き \(tilt)°") }
            if let state = motion.state { parts.append(zh ? "资产追踪状态 \(state)" : "アセット追跡状態 \(state)") }
            return parts.isEmpty ? (zh ? "运动事件" : "動きのイベント") : parts.joined(separator: zh ? "，" : "、")
        case .text(let text):
            return text
        }
    }

    /// A SmarTag decoding note (docs/smartag.md) in Chinese or Japanese.
    static func smarTagNote(_ note: SmarTagNote, zh: Bool) -> String {
        switch note {
        case .invalidValues(let count):
            return zh ? "\(count) 条记录为传感器的无效标记，按缺失点处理" : "\(count) 件の記録がセンサーの無効マーカーで、欠測点として扱います"
        case .recordsNotInMessage(let count):
            return zh ? "\(count) 条记录位于所读 NDEF 消息之外；请读取整个标签存储器" : "\(count) 件の記録は読み取った NDEF メッセージの外にあります。タグのメモリ全体を読み取ってください"
        case .outsideCoding(let count):
            return zh ? "\(count) 条记录超出传感器编码范围，标记为超量程" : "\(count) 件の記録がセンサーの符号化範囲外で、範囲外として扱います"
        case .unknownSensors(let ids, let count):
            let list = ids.map(String.init).joined(separator: ", ")
            return zh ? "\(count) 条记录属于固件不记录或未配置的传感器 \(list)，已跳过" : "\(count) 件の記録はファームウェアが記録しないか未設定のセンサー \(list) のもので、スキップしました"
        case .emptySlots(let count):
            return zh ? "环形缓冲区中有 \(count) 个槽位从未写入，已跳过" : "リングバッファの \(count) 個のスロットは未書き込みで、スキップしました"
        case .noStartTime:
            return zh ? "记录仪没有开始时间（从未配置）：记录时间不是真实日期" : "ロガーに開始時刻がありません（未設定）。記録時刻は実際の日時ではありません"
        }
    }

    /// What an NHS31xx status bit means (docs/nhs31xx.md §5.1), in `language`.
    static func statusPhrase(bit: Int, language: ReportLanguage) -> String {
        let zh = [
            "复位为初始状态（数据全部清除）", "已配置", "已计划开始", "开始记录（首个样本待采集）", "停止记录",
            "有样本高于有效上限", "有样本低于有效下限", "电池欠压或断电", "存储已满：样本不再保存", "运行时间已到",
            "I2C 错误", "SPI 错误", "冲击", "摇晃", "振动", "倾斜", "已配置冲击检测", "已配置摇晃检测", "已配置振动检测",
            "已配置倾斜检测", "已配置湿度", "湿度过高", "湿度过低",
        ]
        let ja = [
            "初期状態にリセット（全データ消去）", "設定済み", "開始予定", "記録開始（最初のサンプル待ち）", "記録停止",
            "有効上限を超えたサンプル", "有効下限を下回ったサンプル", "電池の電圧低下または電源喪失", "メモリ満杯：サンプルを保存できない",
            "稼働時間終了", "I2C エラー", "SPI エラー", "衝撃", "揺れ", "振動", "傾き", "衝撃検出を設定", "揺れ検出を設定", "振動検出を設定",
            "傾き検出を設定", "湿度を設定", "湿度が高すぎる", "湿度が低すぎる",
        ]
        let table = language == .simplifiedChinese ? zh : ja
        guard bit >= 0 && bit < table.count else { return language == .simplifiedChinese ? "状态位 \(bit)" : "ステータスビット \(bit)" }
        return table[bit]
    }

    public static func detection(_ detection: TemperatureLog.Detection, language: ReportLanguage) -> String {
        guard language != .english else { return detection.text }
        let zh = language == .simplifiedChinese
        switch detection.original {
        case .forced(let format): return zh ? "指定为 \(format)" : "\(format) として指定"
        case .forcedDescriptor(let name): return zh ? "由记录仪描述文件“\(name)”指定" : "ロガー記述ファイル「\(name)」で指定"
        case .detected(let format, _): return zh ? "自动识别为 \(format)" : "\(format) と自動判定"
        case .bareURL: return zh ? "带 cuplTag 查询参数的 URL" : "cuplTag のクエリパラメーター付き URL"
        case .nhsTranscript(let steps): return zh ? "NHS31xx 交换记录（\(steps) 步）" : "NHS31xx のやり取りの記録（\(steps) ステップ）"
        case .archiveStitched(let reads): return zh ? "由存档中的 \(reads) 次读取拼接" : "アーカイブの読み取り \(reads) 件をつないだ記録"
        case .worded(_, let english), .text(let english): return english
        }
    }

    public static func model(_ model: TemperatureLog.LoggerIdentity.Model, language: ReportLanguage) -> String {
        guard language != .english else { return model.name }
        switch model {
        case .cuplTagHDC2021(let humidity):
            // 温度 and 湿度 are the same words in both languages.
            return humidity ? "HDC2021 温度 + 湿度" : "HDC2021 温度"
        case .named(let name):
            return name
        }
    }

    /// Where a read time came from, in `language` (the audit table's words).
    static func readTimeSource(_ source: DecodeOptions.ReadTimeSource, language: ReportLanguage) -> String {
        language.audit.readTimeSources[source.description] ?? source.description
    }

    static func iso(_ date: Date) -> String { date.isoUTCWholeSeconds }
}
