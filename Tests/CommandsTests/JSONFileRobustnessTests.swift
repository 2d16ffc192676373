import Foundation
import LoggerFormats
import Testing

@testable import ColdTapCommands

/// The JSON files users write — logger descriptors (`--logger FILE`) and alarm profiles
/// (`--profile FILE`) — cut at every byte and with every number set to extremes: never a
/// crash, exit 0 or 65 only, one line on stderr when refused.
@Suite struct JSONFileRobustnessTests {
    static let profile = """
        {"name": "pharmacy", "summary": "our fridge", "band": {"min": 2, "max": 8}, "rules": [
          {"kind": "continuous", "comparator": ">", "limit": 8, "hours": 10},
          {"kind": "cumulative", "comparator": ">=", "limit": 30, "hours": 2, "per": "day"},
          {"kind": "instantaneous", "comparator": "<", "limit": -50},
          {"kind": "mkt", "comparator": ">", "limit": 25}
        ]}
        """
    static let extremes = [
        "0", "-1", "1", "255", "4294967296", "9223372036854775807", "-9223372036854775808",
        "1e308", "-1e308", "0.5", "1e-300",
    ]

    /// Cuts at every byte, and each number in turn replaced by each extreme value.
    static func variants(of text: String) -> [(String, String)] {
        let bytes = Array(text.utf8)
        var out = (0..<bytes.count).map { ("cut at \($0)", String(decoding: bytes.prefix($0), as: UTF8.self)) }
        let numbers = try! NSRegularExpression(pattern: #"(?<=[:\[,]\s{0,2})-?[0-9][0-9.eE+-]*"#)
        let whole = NSRange(text.startIndex..., in: text)
        for match in numbers.matches(in: text, range: whole) {
            guard let range = Range(match.range, in: text) else { continue }
            for value in extremes {
                out.append(("\(text[range]) at \(match.range.location) → \(value)", text.replacingCharacters(in: range, with: value)))
            }
        }
        return out
    }

    @Test func damagedDescriptorsAndProfilesAreRefusedInOneLine() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let log = try files.write("log.ndef", DecodeFixtures.generic16Message.serialized())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let descriptor = String(decoding: try encoder.encode(try LoggerDecoder.builtInDescriptor(named: "generic16")), as: UTF8.self)
        var failures: [String] = []
        var runs = 0
        for (option, text, command) in [("--logger", descriptor, "decode"), ("--profile", Self.profile, "report")] {
            // The undamaged file works.
            let good = try files.write("good.json", Data(text.utf8))
            let zone = command == "report" ? ["--tz", "UTC"] : []
            let baseline = await runColdTap([command, log, option, good, "--read-time", "2026-08-18T06:00:00Z"] + zone)
            #expect(baseline.status == 0, "\(option): \(baseline.err)")
            for (what, variant) in Self.variants(of: text) {
                runs += 1
                let path = try files.write("variant.json", Data(variant.utf8))
                let result = await runColdTap([command, log, option, path, "--read-time", "2026-08-18T06:00:00Z"] + zone)
                switch result.status {
                case 0: break
                case 65:
                    if !CLIMessageTests.oneLine(result.err) { failures.append("\(option) \(what): \(result.err.debugDescription)") }
                default:
                    failures.append("\(option) \(what): exit \(result.status): \(result.err)")
                }
            }
        }
        print("JSONFileRobustnessTests: \(runs) damaged JSON files")
        #expect(runs > 1000)
        for failure in failures.prefix(20) { Issue.record("\(failure)") }
        #expect(failures.isEmpty)
    }
}
