import ColdChain
import ColdTapBase
import Foundation
import LoggerFormats

/// The decoders' values in Japanese (`LogTexts`).
struct JapaneseLogWords: LogWords {
    var language: ReportLanguage { .japanese }

    func warning(_ warning: LogWarning) -> String {
        switch warning.original {
        case .timesEstimated(let readTime, let source):
            let from = readTimeSource(source)
            return "サンプル時刻は推定です。ロガーに時計がなく読み取り時刻も不明なため、最新サンプルを\(from) \(iso(readTime)) に置きました。正しい時刻には実際の読み取り時刻を指定してください"
        case .timesFromReadTime(let readTime):
            return "ログに開始時刻がありません。最新サンプルを読み取り時刻 \(iso(readTime)) に記録されたものとして時刻を推定しています"
        case .startsBefore2000(let first):
            return "ログの開始は \(iso(first)) で 2000 年より前です。ロガーの時計か開始時刻が誤っています"
        case .startsAfterReadTime(let first, let readTime):
            return "ログの開始 \(iso(first)) が読み取り時刻 \(iso(readTime)) より後です。読み取り時刻かロガーの時計が誤っています"
        case .readTimeBeforeNewest(let readTime, let newest):
            return "読み取り時刻 \(iso(readTime)) が最新サンプル（\(iso(newest))）より前です。読み取り時刻かロガーの時計が誤っています"
        case .givenIntervalNotUsed(let given, let used, let origin):
            let gives: String
            switch origin {
            case .url: gives = "URL の値は \(Int(used / 60)) 分"
            case .log(let source): gives = "ログの値は \(formatSeconds(used))（\(source)）"
            }
            return "指定された記録間隔 \(formatSeconds(given)) は使用していません：\(gives)"
        case .implausibleDeviceInterval(let key, let value):
            return "デバイス情報の \(key)=\(value) はどのロガーの記録間隔（最長 31 日）よりも長いため使用していません"
        case .implausibleYetConclusive(let format, let problems):
            let why = problems.map { implausibility($0) }.joined(separator: "。")
            return "この \(format) ログはロガーの通常の設定には見えません（\(why)）が、形式は確実なのでそのまま復号しました。ロガーの設定を確認してください"
        case .partialSampleAtEnd(let bytes, let offset):
            return "サンプル領域の末尾（オフセット \(offset)）に 1 サンプルに満たない \(bytes) バイトがあり、無視しました"
        case .outsideSensorRange(let count, let minimum, let maximum):
            let range = "\(formatNumber(minimum))…\(formatNumber(maximum)) °C"
            return "\(count) 件のサンプルがセンサー範囲 \(range) の外にあり、範囲外として統計から除外しました"
        case .integrityFailed(let detail):
            return "完全性の検証に失敗しました：\(integrity(detail))。サンプルは表示していますが信頼できません"
        case .secretTooLong(let bytes):
            return "秘密鍵は \(bytes) バイトです。cuplTag が保存できるのは最大 16 バイトなので、このタグの鍵ではありません"
        case .secretNotUsed(let format):
            return "秘密鍵は使用していません。検証できる HMAC を持つのは cuplTag のログだけで、これは \(format) のログです"
        case .nhsBrownOut:
            return "ロガーが電池の電圧低下または電源喪失を報告しています（ステータスビット 7）。記録が早く終わった可能性があります"
        case .nhsMemoryFull:
            return "ロガーのメモリが満杯です（ステータスビット 8）。以降のサンプルは測定されましたが保存されていません"
        case .nhsConfigResult(let result):
            return "GETCONFIG の応答：\(result.explanation)"
        case .nhsRefused(let refusal):
            return "ロガーが \(refusal.message) を拒否しました（\(refusal.result.explanation)）"
        case .nhsNoStartTime:
            return "メッセージ API 5 は開始時刻を持ちません。最初のサンプルを設定時刻に記録したものとしてサンプル時刻を決めています"
        case .nhsClockLost:
            return "ロガーの時計が失われました（リセットまたは電源喪失）。ずれを測れないため、サンプル時刻はタグの補正前の予定時刻で、ずれている可能性があります"
        case .nhsReadTimeFarFromClock(let readTime, let source, let drift):
            let shift = String(format: "%+d", drift)
            return "読み取り時刻 \(iso(readTime))（\(readTimeSource(source))）とタグの時計の差は \(shift) 秒で、タグのずれとしては大きすぎます。サンプル時刻はタグ自身の時刻のまま補正していません"
        case .nhsPlaceholders(let count):
            return "\(count) 件のサンプルが 85.1 °C のプレースホルダーです（予定時刻に NFC の電界があり測定されませんでした）。欠測として扱います"
        case .nhsOutsideSensorRange(let count):
            return "\(count) 件のサンプルがセンサーの -40.0 … 85.0 °C の外にあり、範囲外として扱います"
        case .nhsUnread(let numbers, let stored):
            let list = LogWarning.rangeList(numbers)
            return "保存された \(stored) 件のうち \(LogWarning.count(numbers)) 件のサンプルを読み取れませんでした（番号 \(list)、0 が最古）"
        case .nhsLoggedDuringRead(let count, let counted):
            return "読み取り中に \(count) 件のサンプルが記録されました（GETCONFIG の件数 \(counted) の後）"
        case .nhsEventsCutShort:
            return "GETEVENTS の応答がタグにより途中で切られました（475 バイトの上限）。逸脱イベントの一部が欠けている可能性があります"
        case .tagImage(let anomaly):
            return "タグイメージ：\(anomaly)"
        case .smarTag(let note):
            return smarTagNote(note)
        case .archiveConflicts(let count):
            return "\(count) 件のサンプルが再読み取りで別の値になりました。最初に読んだ値を使用し、両方をアーカイブに保存しています"
        case .archiveGaps(let count):
            return "つながらない読み取りの間の欠測 \(count) 件は不明な時間として扱います"
        case .worded(_, let english), .text(let english):
            return english
        }
    }

    func headlineNote(_ note: HeadlineNote, timeZone: TimeZone) -> String {
        let f = ChartFormatter(timeZone: timeZone, language: language)
        switch note {
        case .excursionsNotAcknowledged(let count):
            return "\(count) 件の逸脱が未確認です"
        case .excursionsAcknowledged(let count, let by, let at):
            return "\(count) 件の逸脱は \(by) が \(f.dateTime(at)) に確認済み"
        case .loggerRecordedExcursion(let verdict, let status):
            let detail = verdict + (status.map { ", \($0)" } ?? "")
            return "ロガー自身が逸脱を記録しています（\(detail)）"
        }
    }

    func implausibility(_ problem: LogWarning.Implausibility) -> String {
        switch problem {
        case .noSamples: return "サンプルがありません"
        case .interval(let seconds):
            return "記録間隔 \(formatSeconds(seconds)) が 1 秒～1 日の範囲外です"
        case .mostOutsideSensorRange(let count, let total):
            return "\(total) 件中 \(count) 件のサンプルがセンサー範囲外です"
        case .start(let first):
            return "開始が \(iso(first)) で、2000 年から読み取り時刻の翌日までの範囲外です"
        }
    }

    func integrity(_ detail: TemperatureLog.Integrity.Detail) -> String {
        switch detail.original {
        case .verified(let method): return method
        case .mismatch(let method, let stored, let computed, let keyGiven):
            let codes = "\(stored.hexString(uppercase: false)) / \(computed.hexString(uppercase: false))"
            return "\(method) 不一致：保存値とデータからの計算値は \(codes)" + (keyGiven ? "（秘密鍵の誤りかデータの改変）" : "")
        case .noCheck(let format):
            return "\(format) 形式には完全性の検証がありません"
        case .nhsNoCheck:
            return "NHS31xx のプロトコルにはチェックサムも署名もありません"
        case .archiveAllVerified: return "すべての読み取りを検証済み"
        case .archiveReadFailed: return "アーカイブ内の読み取りの一つが完全性の検証に失敗しました"
        case .archiveNotAllVerified(let reads):
            return "アーカイブの読み取り \(reads) 件、すべては検証されていません"
        case .worded(_, let english), .text(let english):
            return english
        }
    }

    func event(_ detail: TemperatureLog.Event.Detail) -> String {
        switch detail {
        case .nhsStatus(let bit, let clock, let stillOut):
            var text = bit.map { statusPhrase(bit: $0) } ?? "番号のないイベント"
            if let clock {
                text += "。タグの時計 \(clock) 秒（時計喪失後の再起動から数えたもので日付なし）"
            }
            if stillOut { text += "。読み取り時も限度外" }
            return text
        case .smarTag(let motion):
            var parts: [String] = []
            if let orientation = motion.orientation { parts.append("向き \(orientation)") }
            if let acceleration = motion.accelerationMilliG { parts.append("加速度 \(acceleration) mg") }
            if let tilt = motion.tiltDegrees { parts.append("傾き \(tilt)°") }
            if let state = motion.state { parts.append("アセット追跡状態 \(state)") }
            return parts.isEmpty ? "動きのイベント" : parts.joined(separator: "、")
        case .text(let text):
            return text
        }
    }

    func smarTagNote(_ note: SmarTagNote) -> String {
        switch note {
        case .invalidValues(let count):
            return "\(count) 件の記録がセンサーの無効マーカーで、欠測点として扱います"
        case .recordsNotInMessage(let count):
            return "\(count) 件の記録は読み取った NDEF メッセージの外にあります。タグのメモリ全体を読み取ってください"
        case .outsideCoding(let count):
            return "\(count) 件の記録がセンサーの符号化範囲外で、範囲外として扱います"
        case .unknownSensors(let ids, let count):
            let list = ids.map(String.init).joined(separator: ", ")
            return "\(count) 件の記録はファームウェアが記録しないか未設定のセンサー \(list) のもので、スキップしました"
        case .emptySlots(let count):
            return "リングバッファの \(count) 個のスロットは未書き込みで、スキップしました"
        case .noStartTime:
            return "ロガーに開始時刻がありません（未設定）。記録時刻は実際の日時ではありません"
        }
    }

    /// What each NHS31xx status bit means (docs/nhs31xx.md §5.1), by bit.
    let statusPhrases = [
        "初期状態にリセット（全データ消去）", "設定済み", "開始予定", "記録開始（最初のサンプル待ち）", "記録停止",
        "有効上限を超えたサンプル", "有効下限を下回ったサンプル", "電池の電圧低下または電源喪失", "メモリ満杯：サンプルを保存できない",
        "稼働時間終了", "I2C エラー", "SPI エラー", "衝撃", "揺れ", "振動", "傾き", "衝撃検出を設定", "揺れ検出を設定", "振動検出を設定",
        "傾き検出を設定", "湿度を設定", "湿度が高すぎる", "湿度が低すぎる",
    ]

    func unlistedStatus(bit: Int) -> String { "ステータスビット \(bit)" }

    func detection(_ detection: TemperatureLog.Detection) -> String {
        switch detection.original {
        case .forced(let format): return "\(format) として指定"
        case .forcedDescriptor(let name): return "ロガー記述ファイル「\(name)」で指定"
        case .detected(let format, _): return "\(format) と自動判定"
        case .bareURL: return "cuplTag のクエリパラメーター付き URL"
        case .nhsTranscript(let steps): return "NHS31xx のやり取りの記録（\(steps) ステップ）"
        case .archiveStitched(let reads): return "アーカイブの読み取り \(reads) 件をつないだ記録"
        case .worded(_, let english), .text(let english): return english
        }
    }
}
