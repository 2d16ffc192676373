import Foundation
import Testing

@testable import ColdTapCommands

/// Issue 42 item 7: option values are typed where they are declared; a command reads a date,
/// a zone or a number, and a text that is not one is refused in the option's own words
/// (the same words as before the values were typed).
@Suite struct TypedOptionTests {
    @Test func aTypedOptionGivesItsValueOrItsComplaint() throws {
        let at = OptionSpec.value("--at", placeholder: "TIME", help: "when").typed(.time("is not a time."))
        let count = OptionSpec.value("--count", placeholder: "N", help: "how many").typed(.count(1...9))
        var arguments = try Arguments(["--at", "2026-03-02T09:00:00+01:00", "--count", "3"], options: [at.spec, count.spec])
        #expect(try arguments.value(at) == Date(timeIntervalSince1970: 1_772_438_400))
        #expect(try arguments.value(count) == 3)
        try arguments.finish()
        var absent = try Arguments([], options: [at.spec])
        #expect(try absent.value(at) == nil)
        var bad = try Arguments(["--at=tomorrow"], options: [at.spec])
        let error = try #require(throws: CommandError.self) { try bad.value(at) }
        #expect(error.status == .usage && error.message == "--at 'tomorrow' is not a time.")
        var high = try Arguments(["--count", "10"], options: [count.spec])
        #expect(throws: CommandError.self) { try high.value(count) }
        // A subcommand's words for the same option: read by the same declaration.
        let closeAt = at.helping("when it ended")
        var close = try Arguments(["--at", "2026-03-02T08:00:00Z"], options: [closeAt.spec])
        #expect(try close.value(at) != nil)
        try close.finish()
    }

    @Test func periodBoundsAreDaysInTheZoneOrTimes() throws {
        let bound = try #require(OptionValueParser<PeriodBound>.periodBound.convert("2026-04-09"))
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        #expect(bound.time(in: berlin) == Date(timeIntervalSince1970: 1_775_685_600))
        #expect(OptionValueParser<PeriodBound>.periodBound.convert("2026-04-31") == nil)
        #expect(OptionValueParser<PeriodBound>.periodBound.convert("2026-04-09T08:35:00Z") == .time(Date(timeIntervalSince1970: 1_775_723_700)))
    }

    /// Each typed option refuses a bad value with the message it always gave, before any work.
    @Test(arguments: [
        (
            ["lot", "move", "L", "--by", "a", "--at", "soon"],
            "coldtap lot: --at 'soon' is not an ISO 8601 time with a zone; write it like 2026-03-02T08:00:00Z."
        ),
        (["lot", "add", "L", "--product", "p", "--by", "a", "--quantity", "-1"], "coldtap lot: --quantity '-1' is not a whole number of units."),
        (
            ["lot", "status", "L", "--tz", "Mars/Olympus"],
            "coldtap lot: --tz 'Mars/Olympus' is not a time zone; give a name such as Europe/Berlin, UTC or an offset such as +02:00."
        ),
        (["history", "x", "--from", "April"], "coldtap history: --from 'April' is not a time; write it like 2024-04-09T08:35:00Z or 2024-04-09."),
        (
            ["ack", "x", "--excursion", "noon", "--by", "a", "--comment", "c"],
            "coldtap ack: --excursion 'noon' is not an ISO 8601 time with a zone; write it like 2024-04-09T08:35:00Z."
        ),
        (["read", "--timeout", "0"], "coldtap read: --timeout takes a positive number of seconds, not '0'."),
        (["configure", "--interval", "70000"], "coldtap configure: --interval takes a whole number of seconds from 0 to 65535, not '70000'."),
        (["configure", "--interval", "60", "--valid-min", "-41"], "coldtap configure: --valid-min takes a temperature in °C from -40 to 85, not '-41'."),
        (["push", "--attempts", "0"], "coldtap push: --attempts takes 1 to 100."),
        (["token", "create", "--expires", "0d"], "coldtap token: --expires takes a duration such as 90d, 12h or 30m (up to 10 years), not '0d'."),
        (["serve", "--threads", "0"], "coldtap serve: --threads takes a number from 1 to 256, not '0'."),
        (["report", "x", "--size", "10x10"], "coldtap report: --size '10x10' is not WIDTHxHEIGHT in pixels (200x150 to 8000x8000), e.g. 1200x600."),
        (
            ["decode", "x", "--logger-tz", "Mars"],
            "coldtap decode: --logger-tz 'Mars' is not a time zone; give a name like Europe/Paris or UTC, or an offset like +02:00."
        ),
        (
            ["review", "x", "--from", "2026-13-01", "--to", "2026-04-10", "--meaning", "reviewed", "--user", "u"],
            "coldtap review: --from '2026-13-01' is not a time; write it like 2026-04-09T08:35:00Z or 2026-04-09 (that day's start in --tz)."
        ),
    ])
    func aBadValueIsRefusedInTheOptionsWords(words: [String], message: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-typed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // An archive that is never made: the value is refused before the command opens it.
        let archive = folder.appendingPathComponent("archive.sqlite").path
        let takesArchive = ["lot", "history", "ack", "token", "serve", "review"].contains(words[0])
        let run = await runColdTap(words + (takesArchive ? ["--archive", archive] : []))
        #expect(run.status == 64, "\(words): \(run.err)")
        #expect(run.err.hasPrefix(message + "\n"), "\(words): \(run.err)")
        #expect(!FileManager.default.fileExists(atPath: archive))
    }

    /// No command turns an option's text into a time, a zone or a number itself: the
    /// parsers in TypedOption.swift (and the option declarations) do.
    @Test func noCommandParsesAValueFromText() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ColdTapCommands")
        let patterns = [
            "ISO8601Time.parse(", "Double(text)", "Int(text)", "Int64(text)", "UInt64(text)", "TimeZone(identifier: text)", "parseReadTime(",
            "resolveTimeZone(",
        ]
        var found: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") && file != "TypedOption.swift" {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for pattern in patterns where text.contains(pattern) { found.append("\(file): \(pattern)") }
        }
        #expect(found.isEmpty, "values parsed outside the option declarations: \(found)")
    }
}
