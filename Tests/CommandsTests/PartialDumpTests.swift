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

    /// Issue 44 item 5: a copy cut short (`head -c`) is named as cut off, with where it ends
    /// and what its header says was read, instead of blaming unread pages on the tag.
    @Test func aCutOffFileIsNamedAsSuch() async throws {
        let whole = String(decoding: try Self.flipper(missing: 0..<0), as: UTF8.self)
        let page6 = try #require(whole.range(of: "Page 6: "))
        let lineOfPage6 = whole[..<page6.lowerBound].filter { $0 == "\n" }.count + 1
        let insideALine = Data(whole[..<whole.index(page6.lowerBound, offsetBy: 12)].utf8)
        let atALineEnd = Data(whole[..<page6.lowerBound].utf8)
        let cases = [
            (insideALine, "it ends inside line \(lineOfPage6), after page 5 though its header says 135 pages were read"),
            (atALineEnd, "it ends after page 5 (line \(lineOfPage6 - 1)) though its header says 135 pages were read"),
        ]
        for (bytes, place) in cases {
            for command in ["decode", "report", "tag"] {
                let words = command == "tag" ? ["tag", "-"] : [command, "-", "--read-time", "2026-03-01T12:00:00Z"]
                let result = await runColdTap(words, stdin: bytes)
                #expect(result.status == 65, "\(command): \(result.err)")
                #expect(
                    result.err == "coldtap \(command): standard input: the file is cut off: \(place); copy it again in full from where it was made.\n",
                    "\(command): \(result.err)")
                #expect(!result.err.contains("refused") && !result.err.contains("unread when it was made"))
            }
        }
        // Cut after the NDEF message: what it holds is read, and the cut is said.
        let late = try #require(whole.range(of: "Page 100: "))
        let decoded = await runColdTap(["decode", "-", "--read-time", "2026-03-01T12:00:00Z", "--json"], stdin: Data(whole[..<late.lowerBound].utf8))
        #expect(decoded.status == 0, "\(decoded.err)")
        #expect(decoded.out.contains("the file is cut off: it ends after page 99"), "\(decoded.out)")
        // A whole file is no cut, nor one whose device left pages unread.
        let dump = try MemoryDump.parse(try Self.flipper(missing: 120..<135))
        #expect(dump.cutOff == nil)
        #expect(try MemoryDump.parse(Data(whole.utf8)).cutOff == nil)
    }
}
