import Foundation
import LoggerFormats
import NDEF
import Testing

@testable import ColdTapCommands

/// `coldtap decode` on an NHS31xx exchange transcript (docs/nhs31xx.md §7), built from the
/// worked examples of docs/nhs31xx.md §3 (the 5-sample tag, read at its own clock 1700002501).
@Suite struct NHSTranscriptCommandTests {
    static func message(_ hex: String) -> String {
        let payload = Data(hex.split(separator: " ").map { UInt8($0, radix: 16)! })
        return NDEFMessage(records: [NDEFRecord(tnf: .media, type: "n/p", payload: payload)]).serialized()
            .map { String(format: "%02X", $0) }.joined()
    }

    static var transcript: String {
        let steps: [(String?, String)] = [
            ("48 00", "48 01 00 00 00 00 00 F1 53 65 58 02 00 00 00 00 00 00 00 00 14 00 50 00 2D 00 55 00 05 00 2F 00 00 00 01 F1 53 65 C5 FA 53 65"),
            ("5B 00 00 00 60 00 00 00 0F", "5B 01 00 00 60 00 00 00 0F 01 00 04 00 09 F8 53 65 05 61 FA 53 65"),
            ("46 00 00 00", "46 01 00 00 00 00 00 00 05 00 00 00 2D 00 2F 00 33 00 55 00 3C 00"),
        ]
        return steps.map { write, read in
            "{\"write\":" + (write.map { "\"\(message($0))\"" } ?? "null") + ",\"read\":\"\(message(read))\",\"time\":\"2023-11-14T22:55:01Z\"}\n"
        }.joined()
    }

    @Test func decodeAutoDetectsATranscriptAndPrintsItsEvents() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try files.write("nhs.jsonl", Data(Self.transcript.utf8))
        let json = await runColdTap(["decode", path, "--json"])
        #expect(json.status == 0, "\(json.err)")
        #expect(json.out.contains("\"format\": \"nhs31xx\"") || json.out.contains("\"format\":\"nhs31xx\""))
        #expect(json.out.contains("\"timeBase\": \"logger-clock\"") || json.out.contains("\"timeBase\":\"logger-clock\""))
        #expect(json.out.contains("temperatureTooHigh"))
        #expect(json.out.contains("2023-11-14T22:43:21Z"))  // the excursion began (1700001801)
        #expect(json.out.contains("2023-11-14T22:53:21Z"))  // and ended (1700002401)
        let text = await runColdTap(["decode", path])
        #expect(text.status == 0)
        #expect(text.out.contains("Event:"))
        #expect(text.out.contains("an NHS31xx exchange transcript"))
        let forced = await runColdTap(["decode", path, "--input", "nhs-transcript", "--json"])
        #expect(forced.out == json.out)
    }

    @Test func aBrokenTranscriptNamesTheLine() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let broken = Self.transcript + "{\"write\":null,\"read\":\"C2 0G\"}\n"
        let path = try files.write("broken.jsonl", Data(broken.utf8))
        let result = await runColdTap(["decode", path])
        #expect(result.status == 65)
        #expect(result.err.contains("transcript line 4 at offset 4"))
    }
}
