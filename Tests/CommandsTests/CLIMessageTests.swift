import Foundation
import LoggerFormats
import NDEF
import NFCTags
import Testing

@testable import ColdTapCommands

/// What a new user meets when they get something wrong: one line on stderr that says what
/// is wrong and what to do, and the right exit status. Each case was found running the
/// commands by hand.
@Suite struct CLIMessageTests {
    static func oneLine(_ text: String) -> Bool {
        text.hasSuffix("\n") && text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).count == 1
    }

    @Test func anEmptyFileSaysItIsEmpty() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        for content in [Data(), Data(" \n\t\n".utf8)] {
            let path = try files.write("empty.bin", content)
            for command in ["decode", "report"] {
                let result = await runColdTap([command, path])
                #expect(result.status == 65)
                #expect(result.err == "coldtap \(command): '\(path)' is empty; give a tag memory dump, an NDEF message, a cuplTag URL or hex text.\n")
            }
        }
    }

    @Test func aFileOfNoKnownKindSaysSoAndPointsToInput() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        // Bytes of no kind at all (a known file type or text says what it is instead).
        let path = try files.write("unknown.bin", Data([0x91, 0xFE, 0x00, 0x13, 0x37, 0x99, 0x42, 0x01, 0x00, 0x7F, 0x80, 0x03]))
        let result = await runColdTap(["decode", path])
        #expect(result.status == 65)
        #expect(Self.oneLine(result.err))
        #expect(result.err.hasPrefix("coldtap decode: '\(path)' is no tag dump, URL or hex text, and read as an NDEF message it is malformed at offset "))
        #expect(result.err.hasSuffix("; if you know what it holds, say so with --input.\n"))
    }

    @Test func anIntervalBeyond31DaysIsAUsageError() async throws {
        for text in ["1e300", "2678401", "0", "-5", "nan", "inf"] {
            let result = await runColdTap(["decode", "x", "--interval", text])
            #expect(result.status == 64)
            #expect(result.err.hasPrefix("coldtap decode: --interval takes a number of seconds above 0 and up to 2678400 (31 days), not '\(text)'.\n"))
        }
    }

    @Test func aReadTimeWithoutZoneShowsBothForms() async throws {
        let result = await runColdTap(["decode", "x", "--read-time", "2024-04-09T08:35:00"])
        #expect(result.status == 64)
        #expect(
            result.err.hasPrefix(
                "coldtap decode: --read-time '2024-04-09T08:35:00' is not an ISO 8601 date-time with a time zone; write it like 2024-04-09T08:35:00Z or 2024-04-09T10:35:00+02:00.\n"
            ))
    }

    @Test func filesThatAreNoReadSayWhatTheyAre() async throws {
        let files: [(Data, String)] = [
            (Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]), "a PNG image"),
            (Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16]), "a JPEG image"), (Data("%PDF-1.7\n%âãÏÓ\n".utf8), "a PDF document"),
            (Data([0x50, 0x4B, 0x03, 0x04, 20, 0, 0, 0]), "a ZIP archive"),
            (Data("Dear logger, these are not hex bytes.\n".utf8), "text that is neither hex bytes"),
        ]
        for (content, kind) in files {
            let result = await runColdTap(["decode", "-"], stdin: content)
            #expect(result.status == 65)
            #expect(result.err.contains("is \(kind)") && !result.err.contains("declares"), "\(kind): \(result.err)")
        }
    }

    @Test func aReadTimeAheadOfTheClockIsRefused() async throws {
        let ahead = Date().addingTimeInterval(3 * 86_400)
        let text = ISO8601DateFormatter().string(from: ahead)
        let result = await runColdTap(["decode", "x", "--read-time", text])
        #expect(result.status == 64)
        #expect(result.err.contains("more than a day after this computer's clock"), "\(result.err)")
        // Within a day (another zone's clock) is taken.
        let soon = ISO8601DateFormatter().string(from: Date().addingTimeInterval(6 * 3600))
        let taken = await runColdTap(["decode", "x", "--read-time", soon])
        #expect(!taken.err.contains("--read-time"), "\(taken.err)")
    }

    @Test func aSecretOnALogWithoutHMACIsReportedUnused() async throws {
        let message = try LoggerImageFactory.message(
            kind: "generic16", temperatures: [5, 6], interval: 60,
            newestSampleTime: Date(timeIntervalSince1970: 1_772_366_400))
        let result = await runColdTap(
            ["decode", "-", "--read-time", "2026-03-01T12:00:00Z", "--secret", "k", "--json"],
            stdin: message.serialized())
        #expect(result.status == 0, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let warnings = try #require(object["warnings"] as? [String])
        #expect(warnings.contains("--secret was not used: only cuplTag logs carry an HMAC to check, and this is a generic16 log"))
    }

    @Test func aDirectoryOrMissingFileAsProfileOrLoggerSaysWhich() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let directory = files.directory.path
        let input = try files.write("log.ndef", DecodeFixtures.generic16Message.serialized())
        let profile = await runColdTap(["report", input, "--profile", directory])
        #expect(profile.status == 1)
        #expect(profile.err == "coldtap report: Cannot read '\(directory)': it is a directory. Give a file.\n")
        let missing = await runColdTap(["report", input, "--profile", directory + "/nosuch.json"])
        #expect(missing.status == 1)
        #expect(missing.err == "coldtap report: Cannot read '\(directory)/nosuch.json': no such file. Check the path.\n")
        let logger = await runColdTap(["decode", input, "--logger", directory])
        #expect(logger.status == 1)
        #expect(logger.err == "coldtap decode: Cannot read '\(directory)': it is a directory. Give a file.\n")
    }

    @Test func aBrokenProfileFileNamesTheProblemOnce() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let input = try files.write("log.ndef", DecodeFixtures.generic16Message.serialized())
        let broken = try files.write("broken.json", Data(#"{"name": "x", "band": "#.utf8))
        let result = await runColdTap(["report", input, "--profile", broken])
        #expect(result.status == 65)
        #expect(Self.oneLine(result.err))
        #expect(result.err.hasPrefix("coldtap report: The profile file '\(broken)' is not valid: not valid JSON ("))
        #expect(result.err.hasSuffix("); fix its syntax.\n"))
        #expect(!result.err.contains(".)") && !result.err.contains(".."))
        let nameless = try files.write("nameless.json", Data("{}".utf8))
        let missingName = await runColdTap(["report", input, "--profile", nameless])
        #expect(missingName.err == "coldtap report: The profile file '\(nameless)' is not valid: name: missing; give the profile a name.\n")
    }

    @Test func writeAndEmulateSayWhyAFileCannotBeRead() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let missing = files.directory.path + "/nosuch.ndef"
        let write = await runColdTap(["write", missing])
        #expect(write.status == 1)
        #expect(write.err == "coldtap write: Cannot read '\(missing)': no such file. Check the path.\n")
        let emulate = await runColdTap(["emulate", files.directory.path])
        #expect(emulate.status == 1)
        #expect(emulate.err == "coldtap emulate: Cannot read '\(files.directory.path)': it is a directory. Give a file.\n")
    }

    @Test func tagRefusesABlockSizeItWouldIgnore() async throws {
        let result = await runColdTap(["tag", "x", "--block-size", "8"])
        #expect(result.status == 64)
        #expect(result.err.hasPrefix("coldtap tag: --block-size applies to Type 5 dumps only; add --input tag5.\n"))
    }
}

/// `coldtap tag` given what `decode` reads (found by hand: it explained BCC0 check bytes).
@Suite struct TagCommandMisuseTests {
    @Test func anNDEFMessageOrURLPointsToDecode() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let ndef = try files.write("log.ndef", DecodeFixtures.generic16Message.serialized())
        let message = await runColdTap(["tag", ndef])
        #expect(message.status == 65)
        #expect(message.err == "coldtap tag: \(ndef) holds an NDEF message (1 record(s)), not a tag memory dump; read it with 'coldtap decode \(ndef)'.\n")
        let url = try files.write("tag.url", Data((try DecodeFixtures.cuplURL() + "\n").utf8))
        let bare = await runColdTap(["tag", url])
        #expect(bare.status == 65)
        #expect(bare.err == "coldtap tag: \(url) holds a URL, not a tag memory dump; read it with 'coldtap decode \(url)'.\n")
    }
}

/// `--tz` as people type it (found by hand: 'europe/berlin' was refused).
@Suite struct TimeZoneOptionTests {
    @Test func zoneNamesIgnoreCase() throws {
        #expect(OptionValueParser<TimeZone>.zone.convert("europe/berlin")?.identifier == "Europe/Berlin")
        #expect(OptionValueParser<TimeZone>.zone.convert("AMERICA/NEW_YORK")?.identifier == "America/New_York")
        #expect(OptionValueParser<TimeZone>.zone.convert("+02:00")?.secondsFromGMT() == 7200)
        #expect(OptionValueParser<TimeZone>.zone.convert("Mars/Olympus") == nil)
    }
}

/// `--input tag2` on a Type 5 dump (and the reverse) finds no NDEF message: say which to try.
@Suite struct WrongTagTypeTests {
    @Test func theOtherTypeIsSuggested() async throws {
        let message = try LoggerImageFactory.message(
            kind: "generic16", temperatures: [5], interval: 60,
            newestSampleTime: Date(timeIntervalSince1970: 1_772_366_400)
        ).serialized()
        let type5 = try TagImage.memory(for: .icodeSLIX2, ndefMessage: message)
        let forced2 = await runColdTap(["decode", "-", "--input", "tag2"], stdin: type5)
        #expect(forced2.status == 65)
        // Issue 17.9: the error names the real type.
        #expect(forced2.err == "coldtap decode: standard input is a Type 5 tag memory dump (320 bytes), not Type 2: give --input tag5, or leave --input out.\n")
        let type2 = try TagImage.memory(for: .ntag215, ndefMessage: message)
        let forced5 = await runColdTap(["decode", "-", "--input", "tag5"], stdin: type2)
        #expect(forced5.status == 65)
        #expect(
            forced5.err
                == "coldtap decode: standard input is a Type 2 tag memory dump (540 bytes, NTAG215), not Type 5: give --input tag2, or leave --input out.\n")
    }
}
