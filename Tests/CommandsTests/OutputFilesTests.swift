import ColdTapKit
import Foundation
import LoggerFormats
import Testing

@testable import ColdTapCommands

/// Issue 17.4 (output names, no silent overwrite, `-o FILE`) and 17.8 (`--fail-on`, a bad
/// `--out` checked before anything is printed).
@Suite struct OutputFilesTests {
    static let readTime = "2024-04-09T08:35:00Z"

    func names(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test func filesAreNamedAfterTheLoggerNeverAfterAURLQuery() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let out = files.directory.appendingPathComponent("out")
        let url = try DecodeFixtures.cuplURL()
        let result = await runColdTap([
            "report", url, "--read-time", Self.readTime, "--secret", DecodeFixtures.key,
            "--out", out.path, "--csv", "--html",
        ])
        #expect(result.status == 0, "\(result.err)")
        // cuplTag, serial AAAACCCC, first sample 2024-04-09 07:43 UTC.
        #expect(try names(out) == ["cupltag-AAAACCCC-20240409T0743Z-report.html", "cupltag-AAAACCCC-20240409T0743Z.csv"])
        #expect(result.out.contains(out.appendingPathComponent("cupltag-AAAACCCC-20240409T0743Z.csv").path + "\n"))
    }

    @Test func anExistingFileIsNeverOverwrittenSilently() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let url = try DecodeFixtures.cuplURL()
        let arguments = [
            "report", url, "--read-time", Self.readTime, "--secret", DecodeFixtures.key,
            "--out", files.directory.path, "--csv",
        ]
        #expect(await runColdTap(arguments).status == 0)
        let second = await runColdTap(arguments)
        #expect(second.status == 0)
        #expect(second.out.contains("cupltag-AAAACCCC-20240409T0743Z-2.csv\n"))
        #expect(try names(files.directory) == ["cupltag-AAAACCCC-20240409T0743Z-2.csv", "cupltag-AAAACCCC-20240409T0743Z.csv"])
        let forced = await runColdTap(arguments + ["--force"])
        #expect(forced.status == 0)
        #expect(try names(files.directory).count == 2)
    }

    @Test func dashOWritesOneFile() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let url = try DecodeFixtures.cuplURL()
        let target = files.directory.appendingPathComponent("audit.html").path
        let common = ["report", url, "--read-time", Self.readTime, "--secret", DecodeFixtures.key]
        let written = await runColdTap(common + ["-o", target])
        #expect(written.status == 0, "\(written.err)")
        #expect(written.out.hasSuffix(target + "\n"))
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        // It exists now: refused before anything is printed, unless --force.
        let again = await runColdTap(common + ["-o", target])
        #expect(again.status == 1)
        #expect(again.out.isEmpty)
        #expect(again.err == "coldtap report: '\(target)' exists; give --force to overwrite it, or another name.\n")
        #expect(await runColdTap(common + ["-o", target, "--force"]).status == 0)
        // The kind comes from one kind flag or the extension.
        let csv = files.directory.appendingPathComponent("samples.txt").path
        #expect(await runColdTap(common + ["--csv", "-o", csv]).status == 0)
        #expect(try String(contentsOfFile: csv, encoding: .utf8).hasPrefix("time (UTC)"))
        let unclear = await runColdTap(common + ["-o", files.directory.appendingPathComponent("x.dat").path])
        #expect(unclear.status == 64)
        #expect(
            unclear.err.hasPrefix(
                "coldtap report: -o FILE writes one file: name one of --png, --pdf, --svg, --html, --csv, or give FILE one of those extensions.\n"))
        #expect(await runColdTap(common + ["-o", csv, "--out", files.directory.path]).status == 64)
    }

    @Test func aBadOutIsCheckedBeforeAnythingIsPrinted() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let blocker = try files.write("plain-file", Data("x".utf8))
        let url = try DecodeFixtures.cuplURL()
        let result = await runColdTap(["report", url, "--read-time", Self.readTime, "--out", blocker + "/reports", "--pdf"])
        #expect(result.status == 1)
        #expect(result.out.isEmpty)
        #expect(
            result.err
                == "coldtap report: The output directory '\(blocker)/reports' is not a directory ('\(blocker)' is a file); give a directory (it is created when missing).\n"
        )
    }

    @Test func failOnMakesScriptsSeeTheVerdict() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        // 12 h at 9 °C: ALARM under vaccine-fridge.
        let temperatures = Array(repeating: 5.0, count: 10) + Array(repeating: 9.0, count: 24) + Array(repeating: 5.0, count: 10)
        let alarm = try files.write(
            "alarm.ndef",
            try LoggerImageFactory.message(
                kind: "generic16", temperatures: temperatures, interval: 1800,
                newestSampleTime: Date(timeIntervalSince1970: 1_775_736_000)
            ).serialized())
        let ok = try files.write(
            "ok.ndef",
            try LoggerImageFactory.message(
                kind: "generic16", temperatures: [5, 5, 5, 5], interval: 1800,
                newestSampleTime: Date(timeIntervalSince1970: 1_775_736_000)
            ).serialized())
        let plain = await runColdTap(["report", alarm, "--read-time", "2026-04-09T12:00:00Z"])
        #expect(plain.status == 0, "the default stays 0")
        #expect(plain.out.hasPrefix("ALARM"))
        let failing = await runColdTap(["report", alarm, "--read-time", "2026-04-09T12:00:00Z", "--fail-on", "alarm", "--json"])
        #expect(failing.status == 2)
        #expect(failing.out.hasPrefix("{"), "everything is printed first")
        #expect(failing.err == "coldtap report: the verdict is ALARM (--fail-on alarm).\n")
        #expect(await runColdTap(["report", alarm, "--read-time", "2026-04-09T12:00:00Z", "--fail-on", "inconclusive"]).status == 2)
        #expect(await runColdTap(["report", ok, "--read-time", "2026-04-09T12:00:00Z", "--fail-on", "inconclusive"]).status == 0)
        let bad = await runColdTap(["report", ok, "--fail-on", "warning"])
        #expect(bad.status == 64)
        #expect(bad.err.hasPrefix("coldtap report: --fail-on takes alarm or inconclusive, not 'warning'.\n"))
        // read checks the same before it waits for a tag.
        #expect(await runColdTap(["read", "--fail-on", "warning"]).status == 64)
        let blocker = try files.write("plain-file", Data("x".utf8))
        let read = await runColdTap(["read", "--out", blocker + "/reports"])
        #expect(read.status == 1)
        #expect(read.err.hasPrefix("coldtap read: The output directory"))
    }
}

/// `read`'s side of 17.4 and 17.8, on a logger read through the in-process virtual tag (the
/// reader wait is the only part of `read` not run here; ReaderCommandsTests and the pcscd
/// end-to-end script cover it).
@Suite struct ReadOutputTests {
    @Test func readFailsOnTheVerdictAndNamesFilesAfterTheLogger() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let made = try VirtualTags.make(.logger(.cupltag), chip: nil, readTime: Date(), console: .capturing())
        let outcome = try await CommandLineRead.read(made.tag, options: LogInput.Options(), saveDump: nil, console: .capturing())
        // The demo logger sits at 4–12 °C: ALARM under the frozen profile.
        var arguments = try Arguments(
            ["--profile", "frozen", "--fail-on", "alarm", "--json", "--out", files.directory.path, "--html"],
            options: ReadCommand.forms[0].options)
        var output = try LoggerOutput.parse(&arguments)
        try output.artifacts.validate()
        let console = Console.capturing()
        let verdict = try output.emit(outcome, source: "NT3H2111 on test", console: console)
        #expect(verdict == .alarm)
        #expect(console.output.hasPrefix("{"))
        do {
            try ReportCommand.checkFailOn(output.failOn, verdict: verdict)
            Issue.record("--fail-on alarm did not fail on ALARM")
        } catch let error as CommandError {
            #expect(error.status == .verdict)
            #expect(error.status.rawValue == 2)
            #expect(error.message == "the verdict is ALARM (--fail-on alarm).")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: files.directory.path)
        #expect(names.count == 1)
        #expect(names.first?.hasPrefix("cupltag-CTDEMO01-") == true && names.first?.hasSuffix("-report.html") == true)
        let html = try String(contentsOf: files.directory.appendingPathComponent(try #require(names.first)), encoding: .utf8)
        #expect(html.contains("NDEF message read from the NT3H2111 on test"))
    }
}
