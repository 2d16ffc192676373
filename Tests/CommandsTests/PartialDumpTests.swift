import Foundation
import LoggerFormats
import NDEF
import NFCTags
import Testing

@testable import ColdTapCommands

/// Flipper files of tags whose device could not read every page ('??' lines). Found by the
/// robustness run: `coldtap tag` failed with "the tag refused FAST_READ at page 120 (NAK
/// 0x0)" on a dump whose NDEF message `decode` read without trouble.
@Suite struct PartialDumpTests {
    static func flipper(missing: Range<Int>) throws -> Data {
        let message = try LoggerImageFactory.message(
            kind: "generic16", temperatures: [4.5, 5.0, 5.5], interval: 60,
            newestSampleTime: Date(timeIntervalSince1970: 1_772_366_400))
        var dump = try MemoryDump.parse(try TagImage.memory(for: .ntag215, ndefMessage: message.serialized()), hint: .chip(.ntag215))
        dump.missingUnits = Set(missing)
        return Data(dump.flipperText().utf8)
    }

    @Test func tagShowsWhatItCanAndNamesTheUnreadPages() async throws {
        let result = await runColdTap(["tag", "-", "--json"], stdin: try Self.flipper(missing: 120..<135))
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("the file lacks pages 120–134 (unread when it was made), so the data area past the NDEF message was not checked"))
        let decoded = await runColdTap(
            ["decode", "-", "--read-time", "2026-03-01T12:00:00Z", "--json"],
            stdin: try Self.flipper(missing: 120..<135))
        #expect(decoded.status == 0, "\(decoded.err)")
    }

    @Test func pagesTheMessageNeedsAreNamedWhenMissing() async throws {
        for command in [["tag", "-"], ["decode", "-"]] {
            let result = await runColdTap(command, stdin: try Self.flipper(missing: 5..<7))
            #expect(result.status == 65)
            #expect(
                result.err.hasPrefix("coldtap \(command[0]): standard input: the file lacks pages 5–6 (unread when it was made), which "),
                "\(result.err)")
            #expect(CLIMessageTests.oneLine(result.err))
        }
    }
}
