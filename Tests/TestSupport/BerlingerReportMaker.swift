import Foundation

/// Writes Berlinger Fridge-tag and Q-tag text reports of our own making, laid out as
/// docs/berlinger.md describes (CRLF lines, one space per level, TAB tables, a closing
/// Cert:/Sig Cert:/Sig:), for the tests: no device's report is copied.
public struct BerlingerReportMaker: Sendable {
    public enum Model: String, Sendable {
        case fridgeTag2 = "Q-tag Fridge-tag 2"
        case fridgeTag2L = "Q-tag Fridge-tag 2 L"
        case fridgeTagUltraLow = "Q-tag Fridge-tag Ultra Low"
        case qTagCLmDoc = "Q-tag CLm doc LR"

        public var isFridgeTag: Bool { self != .qTagCLmDoc }
    }

    /// One configured alarm: a Fridge-tag's 0 (low) / 1 (high), or a Q-tag's typed one.
    public struct Alarm: Sendable {
        public var type: Int
        public var limit: Double
        public var minutes: Int

        public init(type: Int, limit: Double, minutes: Int) {
            self.type = type
            self.limit = limit
            self.minutes = minutes
        }
    }

    /// One `Hist:` day.
    public struct Day: Sendable {
        public var date: String
        public var min: Double
        public var minTime: String
        public var max: Double
        public var maxTime: String
        public var mean: Double
        /// Per alarm (low, high): minutes beyond that day and when it fired (`HH:MM`), if it did.
        public var alarms: [(minutes: Int, fired: String?)]
        public var events = 0

        public init(
            date: String, min: Double, minTime: String = "05:10", max: Double, maxTime: String = "14:20", mean: Double,
            alarms: [(minutes: Int, fired: String?)] = [(0, nil), (0, nil)]
        ) {
            self.date = date
            self.min = min
            self.minTime = minTime
            self.max = max
            self.maxTime = maxTime
            self.mean = mean
            self.alarms = alarms
        }
    }

    /// One `Data:` row: the time as printed, the value (`nil` prints `--.-`), the `x` mark.
    public struct Row: Sendable {
        public var time: String
        public var temperature: Double?
        public var flagged: Bool

        public init(_ time: String, _ temperature: Double?, flagged: Bool = false) {
            self.time = time
            self.temperature = temperature
            self.flagged = flagged
        }
    }

    /// How the closing block is filled: the lot key (128 hex digits), and the signatures of
    /// the certificate's bytes and of the report's bytes (each 128 hex digits).
    public struct Signer: Sendable {
        public var publicKey: String
        public var signCertificate: @Sendable (Data) -> String
        public var signReport: @Sendable (Data) -> String

        public init(publicKey: String, signCertificate: @escaping @Sendable (Data) -> String, signReport: @escaping @Sendable (Data) -> String) {
            self.publicKey = publicKey
            self.signCertificate = signCertificate
            self.signReport = signReport
        }

        /// Zeros everywhere: a report whose signature cannot hold.
        public static let none = Signer(
            publicKey: String(repeating: "0", count: 128), signCertificate: { _ in String(repeating: "0", count: 128) },
            signReport: { _ in String(repeating: "0", count: 128) })
    }

    public var model: Model
    public var serial: String
    public var lot = "0001_26_01"
    public var alarms: [Alarm]
    public var activation: String
    public var reportTime: String
    /// Oldest first (printed newest first, as the device does).
    public var days: [Day] = []
    public var rows: [Row] = []
    public var runNumber = 1
    /// Q-tag `Res:` alarm episode lines per alarm number, as printed after the indentation.
    public var episodes: [Int: [String]] = [:]

    public init(model: Model, serial: String, alarms: [Alarm], activation: String, reportTime: String) {
        self.model = model
        self.serial = serial
        self.alarms = alarms
        self.activation = activation
        self.reportTime = reportTime
    }

    /// The report's file name as the device writes it.
    public var fileName: String {
        let stamp = reportTime.filter(\.isNumber)
        return model.isFridgeTag ? "\(serial)_\(stamp).txt" : "\(serial)_\(String(format: "%02d", runNumber))_\(stamp).txt"
    }

    static func signed(_ value: Double) -> String { (value >= 0 ? "+" : "") + String(format: "%.1f", value) }
    static func plain(_ value: Double) -> String { String(format: "%.1f", value) }

    /// The lines above `Cert:`.
    public var bodyLines: [String] {
        var lines = ["Device: \(model.rawValue)", model.isFridgeTag ? "Vers: 0.5" : "Vers: 1.9", "Fw Vers: 9.9t0"]
        if !model.isFridgeTag { lines.append("Device ID: 80") }
        lines += ["Sensor: 1", "Conf:", " Serial: \(serial)", " PCB: TEST0001", " CID: 1", " Lot: \(lot)", " Zone: 0.00"]
        if model.isFridgeTag {
            lines += [" Measurement delay: 10", " Temp unit: C", " Alarm:"]
            for (index, alarm) in alarms.enumerated() {
                lines += ["  \(index):", "   T AL: \(Self.signed(alarm.limit)), t AL: \(alarm.minutes)"]
            }
            lines += [" Report history length: \(model == .fridgeTag2 ? 60 : 56)"]
            if model != .fridgeTag2 { lines.append(" Logging Interval: 5") }
            lines += [" Test Res: 1, Test TS: 2026-01-05 08:00", "Hist:", " TS Actv: \(activation)", " TS Report Creation: \(reportTime)"]
            for (number, day) in days.reversed().enumerated() {
                lines += [
                    " \(number + 1):", "  Date: \(day.date)", "  Min T: \(Self.signed(day.min)), TS Min T: \(day.minTime)",
                    "  Max T: \(Self.signed(day.max)), TS Max T: \(day.maxTime)", "  Avrg T: \(Self.signed(day.mean))", "  Alarm:",
                ]
                for (index, alarm) in day.alarms.enumerated() {
                    lines += ["   \(index):", "    t Acc: \(alarm.minutes)" + (alarm.fired.map { ", TS A: \($0)" } ?? "")]
                }
                lines += ["  Int Sensor timeout:", "   t AccST: 0", "  Events: \(day.events)"]
            }
            if model != .fridgeTag2 {
                lines += ["Data:", "\tyyyy-MM-dd hh:mm\tT\tOut of limits"]
                lines += rows.map { "\t\($0.time)\t\($0.temperature.map(Self.plain) ?? "--.-")" + ($0.flagged ? "\tx" : "") }
            }
        } else {
            lines += [" Start Delay: 0", " MKT Energy: 83.0", " Logging Interval: 10", " Alarm:"]
            for (index, alarm) in alarms.enumerated() {
                lines += ["  \(index + 1):", "   Type: \(alarm.type), T AL: \(Self.plain(alarm.limit)), t AL: \(alarm.minutes)"]
            }
            let values = rows.compactMap(\.temperature)
            lines += [
                "Res:", " TS Actv: \(activation)", " TS Start: \(rows.first?.time ?? activation)", " TS Stop: \(reportTime)",
                " TS Batt Temp:", " Min T: \(Self.plain(values.min() ?? 0)), TS Min T: \(rows.first?.time ?? activation)",
                " Max T: \(Self.plain(values.max() ?? 0)), TS Max T: \(rows.last?.time ?? activation)", " MKT: 5.0", " Avrg T: 5.0",
                " Run Number: \(runNumber)", " Alarm:",
            ]
            for index in alarms.indices {
                lines.append("  \(index + 1):")
                lines += (episodes[index + 1] ?? []).map { "   " + $0 }
            }
            lines += ["Marker:", "\tNumber\tT\tyyyy-MM-dd hh:mm\t", "Data:", "\tyyyy-MM-dd hh:mm\tT\tOut of limits"]
            lines += rows.map { "\t\($0.time)\t\($0.temperature.map(Self.plain) ?? "--.-")\t" + ($0.flagged ? "x" : "") }
        }
        return lines
    }

    /// The whole report, signed by `signer`.
    public func report(signer: Signer = .none) -> Data {
        func crlf(_ lines: [String]) -> String { lines.map { $0 + "\r\n" }.joined() }
        let certificate = crlf([
            "Cert:", " Vers: 1.0", " Lot: \(lot)", " Issuer: ColdTap Tests", " Valid from: 2026-01-01 00:00", " Owner: ColdTap Tests",
            " Public Key: \(signer.publicKey)",
        ])
        let head = crlf(bodyLines) + certificate + crlf(["Sig Cert: \(signer.signCertificate(Data(certificate.utf8)))"])
        return Data((head + crlf(["Sig: \(signer.signReport(Data(head.utf8)))"])).utf8)
    }

    /// Readings every `minutes` from `start` (`YYYY-MM-DD HH:MM`, as wall-clock text), `count` of them.
    public static func rows(from start: String, every minutes: Int, count: Int, value: (Int) -> Double?) -> [Row] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        guard let first = formatter.date(from: start) else { return [] }
        return (0..<count).map { index in
            Row(formatter.string(from: first.addingTimeInterval(Double(index * minutes * 60))), value(index))
        }
    }
}
