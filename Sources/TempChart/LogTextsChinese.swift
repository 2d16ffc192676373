import ColdChain
import ColdTapBase
import Foundation
import LoggerFormats

/// The decoders' values in Simplified Chinese (`LogTexts`).
struct ChineseLogWords: LogWords {
    var language: ReportLanguage { .simplifiedChinese }

    func warning(_ warning: LogWarning) -> String {
        switch warning.original {
        case .timesEstimated(let readTime, let source):
            let from = readTimeSource(source)
            return "样本时间为推算：记录仪没有时钟，读取时间未知，最新样本按\(from) \(iso(readTime)) 放置；请提供真实的读取时间以得到准确时间"
        case .timesFromReadTime(let readTime):
            return "记录中没有开始时间：时间为推算，最新样本按读取时间 \(iso(readTime)) 记录"
        case .startsBefore2000(let first):
            return "记录开始于 \(iso(first))，早于 2000 年：记录仪的时钟或开始时间有误"
        case .startsAfterReadTime(let first, let readTime):
            return "记录开始于 \(iso(first))，晚于读取时间 \(iso(readTime))：读取时间或记录仪的时钟有误"
        case .readTimeBeforeNewest(let readTime, let newest):
            return "读取时间 \(iso(readTime)) 早于最新样本（\(iso(newest))）：读取时间或记录仪的时钟有误"
        case .givenIntervalNotUsed(let given, let used, let origin):
            let gives: String
            switch origin {
            case .url: gives = "URL 给出 \(Int(used / 60)) 分钟"
            case .log(let source): gives = "记录给出 \(formatSeconds(used))（\(source)）"
            }
            return "未使用指定的采样间隔 \(formatSeconds(given))：\(gives)"
        case .implausibleDeviceInterval(let key, let value):
            return "设备信息中的 \(key)=\(value) 长于任何记录仪的采样间隔（最长 31 天），未使用"
        case .implausibleYetConclusive(let format, let problems):
            let why = problems.map { implausibility($0) }.joined(separator: "；")
            return "这份 \(format) 记录看起来不像记录仪的常见设置（\(why)），但其格式确凿无疑，因此按原样解码：请检查记录仪的设置"
        case .partialSampleAtEnd(let bytes, let offset):
            return "样本区末尾偏移 \(offset) 处有 \(bytes) 个字节不足一个样本，已忽略"
        case .outsideSensorRange(let count, let minimum, let maximum):
            let range = "\(formatNumber(minimum))…\(formatNumber(maximum)) °C"
            return "\(count) 个样本超出传感器量程 \(range)，标记为超量程，不计入统计"
        case .integrityFailed(let detail):
            return "完整性校验失败：\(integrity(detail))；样本仅供查看，不可信"
        case .secretTooLong(let bytes):
            return "密钥长 \(bytes) 字节；cuplTag 最多存储 16 字节，因此不可能是该标签的密钥"
        case .secretNotUsed(let format):
            return "未使用密钥：只有 cuplTag 记录带有可校验的 HMAC，而这是 \(format) 记录"
        case .nhsBrownOut:
            return "记录仪报告电池欠压或断电（状态位 7）；记录可能已提前结束"
        case .nhsMemoryFull:
            return "记录仪存储已满（状态位 8）：之后的样本已测量但未保存"
        case .nhsConfigResult(let result):
            return "GETCONFIG 的应答：\(result.explanation)"
        case .nhsRefused(let refusal):
            return "记录仪拒绝了 \(refusal.message)（\(refusal.result.explanation)）"
        case .nhsNoStartTime:
            return "消息 API 5 不提供开始时间：样本时间假定第一个样本在配置时刻采集"
        case .nhsClockLost:
            return "记录仪的时钟曾丢失（复位或断电）：无法测量其漂移，样本时间为标签未校正的计划时间，可能有偏差"
        case .nhsReadTimeFarFromClock(let readTime, let source, let drift):
            let shift = String(format: "%+d", drift)
            return "读取时间 \(iso(readTime))（\(readTimeSource(source))）与标签时钟相差 \(shift) 秒，远超标签可能的漂移；样本时间为标签自身的时间，未校正"
        case .nhsPlaceholders(let count):
            return "\(count) 个样本为 85.1 °C 占位值（到期时有 NFC 场存在，未测量），标记为缺失"
        case .nhsOutsideSensorRange(let count):
            return "\(count) 个样本超出传感器的 -40.0 … 85.0 °C，标记为超量程"
        case .nhsUnread(let numbers, let stored):
            let list = LogWarning.rangeList(numbers)
            return "存储的 \(stored) 个样本中有 \(LogWarning.count(numbers)) 个未读取（编号 \(list)，0 为最早）"
        case .nhsLoggedDuringRead(let count, let counted):
            return "读取期间又记录了 \(count) 个样本（GETCONFIG 计数为 \(counted) 之后）"
        case .nhsEventsCutShort:
            return "标签截断了一条 GETEVENTS 应答（475 字节上限）；可能缺少部分超限事件"
        case .tagImage(let anomaly):
            return "标签映像：\(anomaly)"
        case .smarTag(let note):
            return smarTagNote(note)
        case .archiveConflicts(let count):
            return "\(count) 个样本重新读取时得到不同数值；采用首次读取的数值，两者均保存在存档中"
        case .archiveGaps(let count):
            return "相邻读取之间有 \(count) 处间隙未衔接，按未知时间处理"
        case .worded(_, let english), .text(let english):
            return english
        }
    }

    func headlineNote(_ note: HeadlineNote, timeZone: TimeZone) -> String {
        let f = ChartFormatter(timeZone: timeZone, language: language)
        switch note {
        case .excursionsNotAcknowledged(let count):
            return "\(count) 次偏离尚未确认"
        case .excursionsAcknowledged(let count, let by, let at):
            return "\(count) 次偏离均已由 \(by) 于 \(f.dateTime(at)) 确认"
        case .loggerRecordedExcursion(let verdict, let status):
            let detail = verdict + (status.map { ", \($0)" } ?? "")
            return "记录仪自身记录了偏离（\(detail)）"
        }
    }

    func implausibility(_ problem: LogWarning.Implausibility) -> String {
        switch problem {
        case .noSamples: return "没有样本"
        case .interval(let seconds):
            return "采样间隔 \(formatSeconds(seconds)) 不在 1 秒至 1 天之间"
        case .mostOutsideSensorRange(let count, let total):
            return "\(total) 个样本中有 \(count) 个超出传感器量程"
        case .start(let first):
            return "开始于 \(iso(first))，不在 2000 年与读取时间后一天之间"
        }
    }

    func integrity(_ detail: TemperatureLog.Integrity.Detail) -> String {
        switch detail.original {
        case .verified(let method): return method
        case .mismatch(let method, let stored, let computed, let keyGiven):
            let codes = "\(stored.hexString(uppercase: false)) / \(computed.hexString(uppercase: false))"
            return "\(method) 不符：存储值与数据计算值为 \(codes)" + (keyGiven ? "（密钥错误或数据被改动）" : "")
        case .noCheck(let format):
            return "\(format) 格式没有完整性校验"
        case .nhsNoCheck:
            return "NHS31xx 协议不带校验和或签名"
        case .archiveAllVerified: return "所有读取均已验证"
        case .archiveReadFailed: return "存档中有一次读取未通过完整性校验"
        case .archiveNotAllVerified(let reads):
            return "存档中的 \(reads) 次读取，并非全部已验证"
        case .worded(_, let english), .text(let english):
            return english
        }
    }

    func event(_ detail: TemperatureLog.Event.Detail) -> String {
        switch detail {
        case .nhsStatus(let bit, let clock, let stillOut):
            var text = bit.map { statusPhrase(bit: $0) } ?? "无编号的事件"
            if let clock {
                text += "；标签时钟 \(clock) 秒，自时钟丢失后的重启起计，无日期"
            }
            if stillOut { text += "；读取时仍超出限值" }
            return text
        case .smarTag(let motion):
            var parts: [String] = []
            if let orientation = motion.orientation { parts.append("方向 \(orientation)") }
            if let acceleration = motion.accelerationMilliG { parts.append("加速度 \(acceleration) mg") }
            if let tilt = motion.tiltDegrees { parts.append("倾斜 \(tilt)°") }
            if let state = motion.state { parts.append("资产追踪状态 \(state)") }
            return parts.isEmpty ? "运动事件" : parts.joined(separator: "，")
        case .text(let text):
            return text
        }
    }

    func smarTagNote(_ note: SmarTagNote) -> String {
        switch note {
        case .invalidValues(let count):
            return "\(count) 条记录为传感器的无效标记，按缺失点处理"
        case .recordsNotInMessage(let count):
            return "\(count) 条记录位于所读 NDEF 消息之外；请读取整个标签存储器"
        case .outsideCoding(let count):
            return "\(count) 条记录超出传感器编码范围，标记为超量程"
        case .unknownSensors(let ids, let count):
            let list = ids.map(String.init).joined(separator: ", ")
            return "\(count) 条记录属于固件不记录或未配置的传感器 \(list)，已跳过"
        case .emptySlots(let count):
            return "环形缓冲区中有 \(count) 个槽位从未写入，已跳过"
        case .noStartTime:
            return "记录仪没有开始时间（从未配置）：记录时间不是真实日期"
        }
    }

    /// What each NHS31xx status bit means (docs/nhs31xx.md §5.1), by bit.
    let statusPhrases = [
        "复位为初始状态（数据全部清除）", "已配置", "已计划开始", "开始记录（首个样本待采集）", "停止记录",
        "有样本高于有效上限", "有样本低于有效下限", "电池欠压或断电", "存储已满：样本不再保存", "运行时间已到",
        "I2C 错误", "SPI 错误", "冲击", "摇晃", "振动", "倾斜", "已配置冲击检测", "已配置摇晃检测", "已配置振动检测",
        "已配置倾斜检测", "已配置湿度", "湿度过高", "湿度过低",
    ]

    func unlistedStatus(bit: Int) -> String { "状态位 \(bit)" }

    func detection(_ detection: TemperatureLog.Detection) -> String {
        switch detection.original {
        case .forced(let format): return "指定为 \(format)"
        case .forcedDescriptor(let name): return "由记录仪描述文件“\(name)”指定"
        case .detected(let format, _): return "自动识别为 \(format)"
        case .bareURL: return "带 cuplTag 查询参数的 URL"
        case .nhsTranscript(let steps): return "NHS31xx 交换记录（\(steps) 步）"
        case .archiveStitched(let reads): return "由存档中的 \(reads) 次读取拼接"
        case .worded(_, let english), .text(let english): return english
        }
    }
}
