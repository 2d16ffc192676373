import Foundation

/// The worked example of docs/stability.md §5, read from the document itself, so that the
/// tests that build it (the stability model, the command line, the station) check the
/// figures the document states: a change to either that breaks the other fails.
public struct StabilityExample: Sendable {
    /// One leg as its table row describes it.
    public struct Leg: Sendable {
        /// `nil` for "(none)".
        public var logger: String?
        public var from: Date
        public var to: Date
        /// The logger's hourly samples (time, °C), starting before `from` when the row says
        /// it logged earlier.
        public var samples: [(time: Date, celsius: Double)]
    }

    /// An expected leg figure row.
    public struct LegFigures: Sendable {
        public var consumed: Double
        public var kinetics: Double
        public var unknownHours: Double
    }

    public var productName: String
    public var productJSON: String
    public var lot: String
    public var legs: [Leg]
    public var statusTime: Date
    public var legFigures: [LegFigures]
    /// The figure table: name → value as written.
    public var figures: [String: String]

    public static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/stability.md")

    public enum Problem: Error, CustomStringConvertible {
        case missing(String)
        public var description: String {
            switch self {
            case .missing(let what): return "docs/stability.md §5: \(what) not found"
            }
        }
    }

    /// Reads §5 of docs/stability.md.
    public static func load() throws -> StabilityExample {
        let text = try String(contentsOf: document, encoding: .utf8)
        guard let start = text.range(of: "## 5. Worked example"), let end = text.range(of: "## 6.", range: start.upperBound..<text.endIndex)
        else { throw Problem.missing("the section") }
        let section = String(text[start.upperBound..<end.lowerBound])
        guard let jsonStart = section.range(of: "```json\n"), let jsonEnd = section.range(of: "```", range: jsonStart.upperBound..<section.endIndex)
        else { throw Problem.missing("the product file") }
        let productJSON = String(section[jsonStart.upperBound..<jsonEnd.lowerBound])
        guard let object = try JSONSerialization.jsonObject(with: Data(productJSON.utf8)) as? [String: Any], let name = object["name"] as? String
        else { throw Problem.missing("the product's name") }
        guard let lotMatch = section.firstMatch(of: /Lot `([^`]+)`/) else { throw Problem.missing("the lot") }
        guard let atMatch = section.firstMatch(of: /The status is asked at ([0-9TZ:-]+)\./), let statusTime = parseTime(String(atMatch.1))
        else { throw Problem.missing("the status time") }

        var legs: [Leg] = []
        var legFigures: [LegFigures] = []
        var figures: [String: String] = [:]
        for line in section.split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| leg") && !line.hasPrefix("| figure") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.count == 5, let from = parseTime(cells[2]), let to = parseTime(cells[3]) {
                let logger = cells[1] == "(none)" ? nil : cells[1]
                var pieces: [(hours: Int, celsius: Double)] = []
                for match in cells[4].matches(of: /(\d+) h at (−?\d+(?:\.\d+)?) °C/) {
                    if let hours = Int(match.1), let celsius = Double(match.2.replacingOccurrences(of: "−", with: "-")) { pieces.append((hours, celsius)) }
                }
                var samples: [(time: Date, celsius: Double)] = []
                if let earlier = cells[4].firstMatch(of: /logged from (\d\d):00/), let hour = Int(earlier.1), let first = pieces.first {
                    var calendar = Calendar(identifier: .gregorian)
                    calendar.timeZone = TimeZone(identifier: "UTC")!
                    let day = calendar.startOfDay(for: from).addingTimeInterval(Double(hour) * 3600)
                    var time = day
                    while time < from {
                        samples.append((time, first.celsius))
                        time.addTimeInterval(3600)
                    }
                }
                var time = from
                for piece in pieces {
                    for _ in 0..<piece.hours {
                        samples.append((time, piece.celsius))
                        time.addTimeInterval(3600)
                    }
                }
                legs.append(Leg(logger: logger, from: from, to: to, samples: samples))
            } else if cells.count == 4, let consumed = Double(cells[1]), let kinetics = Double(cells[2]), let unknown = Double(cells[3]) {
                legFigures.append(LegFigures(consumed: consumed, kinetics: kinetics, unknownHours: unknown))
            } else if cells.count == 2 {
                figures[cells[0]] = cells[1]
            }
        }
        guard legs.count >= 3, legFigures.count == legs.count, !figures.isEmpty else { throw Problem.missing("the tables") }
        return StabilityExample(
            productName: name, productJSON: productJSON, lot: String(lotMatch.1), legs: legs, statusTime: statusTime, legFigures: legFigures,
            figures: figures)
    }

    /// The figure `name` as a number.
    public func number(_ name: String) throws -> Double {
        guard let text = figures[name], let value = Double(text) else { throw Problem.missing("the figure \(name)") }
        return value
    }

    static func parseTime(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
