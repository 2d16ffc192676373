import ColdChain
import Foundation
import LoggerFormats
import Testing

@testable import ColdTapCommands

/// Issue 11.8 (first point) and 17.2/17.9: a help page for every command built from the same
/// option table the parser uses, `--version`, shell completions, `coldtap profiles` and
/// `coldtap formats`, and the README's synopses equal to `coldtap help`.
@Suite struct HelpTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(arguments: ColdTap.commands.map { $0.name })
    func everyCommandHasAHelpPageListingEveryOptionOfItsTable(name: String) async throws {
        let command = try #require(ColdTap.commands.first { $0.name == name })
        let result = await runColdTap([name, "--help"])
        #expect(result.status == 0)
        #expect(result.err.isEmpty)
        #expect(result.out.hasPrefix("OVERVIEW: "))
        let help = await runColdTap(["help", name])
        #expect(help.out == result.out)
        // A group's page lists its subcommands; each subcommand has its own page.
        let pages: [(words: [String], form: CommandForm)]
        if command.subcommands.isEmpty {
            pages = [([name], command.forms[0])]
        } else {
            #expect(result.out.contains("USAGE:\n  coldtap \(name) SUBCOMMAND [options]\n"))
            for form in command.subcommands { #expect(result.out.contains("\n  \(form.verb ?? "")  "), "\(name): \(form.verb ?? "") listed") }
            pages = command.subcommands.map { ([name, $0.verb ?? ""], $0) }
        }
        for (words, form) in pages {
            var page = result
            if words.count > 1 { page = await runColdTap(words + ["--help"]) }
            #expect(page.status == 0)
            #expect(page.out.contains("USAGE:\n  coldtap \(words.joined(separator: " "))"))
            if words.count > 1 {
                let viaHelp = await runColdTap(["help"] + words)
                #expect(viaHelp.out == page.out)
            }
            for option in form.options {
                #expect(page.out.contains("  " + option.names.joined(separator: ", ")), "\(words): \(option.displayName) missing")
                #expect(page.out.contains(CommandHelp.wrap(option.help, width: 72)[0]), "\(words): help of \(option.displayName)")
                if let value = option.defaultValue {
                    #expect(page.out.contains("default: " + CommandHelp.wrap(value, width: 60)[0]), "\(words): default of \(option.displayName)")
                }
                // The parser takes every declared name: never "Unknown option".
                let given = option.names.map { [$0] + option.values.map { _ in "x" } }
                for words in given {
                    let parsed = try Arguments(words, options: form.options)
                    #expect(parsed.occurrences.first?.spec == option.displayName)
                }
            }
            #expect(throws: CommandError.self) { try Arguments(["--no-such-option"], options: form.options) }
        }
    }

    /// Issue 42 item 7 and 44 item 4: a subcommand's help and usage are its own.
    @Test func aSubcommandDocumentsItselfAlone() async throws {
        let move = await runColdTap(["lot", "move", "--help"])
        #expect(move.status == 0)
        #expect(move.out.hasPrefix("OVERVIEW: record a hand-over"))
        #expect(move.out.contains("USAGE:\n  coldtap lot move LOT [--logger LOGGER-ID] [--none] [--at TIME]"))
        for other in ["lot add", "lot close", "lot status", "lot list", "lot report", "--quantity", "--product", "--reason", "--pdf"] {
            #expect(!move.out.contains(other), "lot move --help shows \(other)")
        }
        #expect(move.out.contains("when the hand-over happened"))
        #expect(move.out.split(separator: "\n").count < 30)
        // The same option says what it means in each subcommand.
        let close = await runColdTap(["lot", "close", "--help"]).out
        #expect(close.contains("when the journey ended") && !close.contains("hand-over happened"))
        let status = await runColdTap(["help", "lot", "status"]).out
        #expect(status.contains("the time of the status") && status.contains("default: now"))

        let userAdd = await runColdTap(["user", "add", "--help"])
        #expect(userAdd.out.contains("USAGE:\n  coldtap user add NAME --site NAME --role ROLE"))
        #expect(!userAdd.out.contains("user list") && !userAdd.out.contains("user disable") && !userAdd.out.contains("--json"))

        // The group's page: each subcommand on a line, no options.
        let group = await runColdTap(["lot", "--help"])
        #expect(group.status == 0)
        #expect(group.out.hasPrefix("OVERVIEW: lots of product"))
        #expect(group.out.contains("SUBCOMMANDS:\n  add" + String(repeating: " ", count: 23) + "keep a new lot of a product\n  move  "))
        #expect(!group.out.contains("OPTIONS:") && !group.out.contains("--archive") && !group.out.contains("--quantity"))
        #expect(group.out.contains("'coldtap lot SUBCOMMAND --help'"))
        #expect(group.out.split(separator: "\n").count < 25)
    }

    @Test func aUsageErrorShowsThatSubcommandsUsage() async {
        let unknown = await runColdTap(["lot", "move", "LOT-1", "--bogus"])
        #expect(unknown.status == 64)
        #expect(unknown.err.hasPrefix("coldtap lot: Unknown option '--bogus'.\nusage:\n  coldtap lot move LOT [--logger LOGGER-ID]"))
        #expect(!unknown.err.contains("coldtap lot add") && !unknown.err.contains("coldtap lot status"))
        let missing = await runColdTap(["user", "role", "dana"])
        #expect(missing.status == 64)
        #expect(missing.err.contains("usage:\n  coldtap user role NAME --role ROLE"))
        #expect(!missing.err.contains("coldtap user add"))
        // Without a known subcommand: the subcommands' names, not every synopsis.
        for words in [["lot"], ["lot", "shift"]] {
            let run = await runColdTap(words)
            #expect(run.status == 64)
            #expect(run.err.hasSuffix("usage:\n  coldtap lot add|move|close|status|list|report ...\n'coldtap lot --help' says what each does.\n"))
        }
        // A one-form command still shows its one synopsis.
        let decode = await runColdTap(["decode", "--bogus"])
        #expect(decode.err == "coldtap decode: Unknown option '--bogus'.\nusage:\n" + DecodeCommand.synopsis + "\n")
    }

    @Test func helpListsTheAcceptedValues() async throws {
        let report = await runColdTap(["report", "--help"]).out
        #expect(report.contains("  --profile NAME|FILE"))
        let flatReport = report.replacingOccurrences(of: "\n +", with: " ", options: .regularExpression)
        #expect(flatReport.contains("values: " + (Profile.builtIn.map(\.name) + ["logger"]).joined(separator: ", ")))
        #expect(report.contains("default: vaccine-fridge"))
        #expect(report.contains("values: en, zh-Hans, ja"))
        #expect(report.contains("values: alarm, inconclusive"))
        #expect(report.contains("values: auto, tag2, tag5, ndef, url, hex, flipper"))
        #expect(report.contains("values: cupltag, dtn1, generic16-unix, generic16, nhs31xx, smartag1,"))
        #expect(report.contains("  -o, --output FILE"))
        let emulate = await runColdTap(["emulate", "--help"]).out
        #expect(emulate.contains("values: ntag213"))
        #expect(emulate.contains("may be given more than once"))
        let demo = await runColdTap(["demo", "--help"]).out
        #expect(demo.contains("values: cupltag, generic16, generic16-unix, dtn1"))
        let ndefDecode = await runColdTap(["ndef", "decode", "--help"]).out
        #expect(ndefDecode.contains("USAGE:\n  coldtap ndef decode FILE"))
        let ndefEncode = await runColdTap(["ndef", "encode", "--help"]).out
        #expect(ndefEncode.contains("USAGE:\n  coldtap ndef encode [--text T]..."))
    }

    @Test func anOptionReadButNotDeclaredIsCaught() throws {
        let jsonOption = OptionSpec.flag("--json", help: "JSON")
        let outOption = OptionSpec.value("--out", placeholder: "DIR", help: "where")
        var arguments = try Arguments(["--json"], options: [jsonOption])
        let json = arguments.isSet(jsonOption)
        let out = arguments.value(outOption)
        #expect(json && out == nil)
        #expect(throws: CommandError.self) { try arguments.finish() }
        // A declared option that the command ignores is a usage error, not silently dropped.
        let ignored = try Arguments(["--json"], options: [jsonOption])
        #expect(throws: CommandError.self) { try ignored.finish() }
    }

    /// Options are read by their declaration, never by a string: a value, a repeated option
    /// in order, and a peek that leaves the option for the command that takes it.
    @Test func optionsAreReadByTheirDeclaration() throws {
        let out = OptionSpec.value("-o", "--out", placeholder: "DIR", help: "where")
        let text = OptionSpec.value("--text", placeholder: "T", help: "a text", repeatable: true)
        var arguments = try Arguments(["--text", "a", "-o", "x", "--text", "b"], options: [out, text])
        #expect(arguments.peek(out) == "x" && arguments.isGiven(text))
        let value = arguments.value(out)
        let values = arguments.values(text)
        #expect(value == "x" && values == ["a", "b"])
        try arguments.finish()
    }

    /// No command reads an option by its name as text (`arguments.option("--out")`): the
    /// declaration is the key.
    @Test func noCommandReadsAnOptionByAString() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ColdTapCommands")
        let pattern = try NSRegularExpression(pattern: #"arguments\.[a-zA-Z]+\(\s*"-"#)
        var found: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = String(line)
                if pattern.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil { found.append("\(file):\(number + 1)") }
            }
        }
        #expect(found.isEmpty, "options read by string: \(found)")
    }

    @Test func optionErrorsNameTheOption() async {
        let twice = await runColdTap(["decode", "x", "--secret", "a", "--secret", "b"])
        #expect(twice.status == 64)
        #expect(twice.err.hasPrefix("coldtap decode: --secret is given 2 times; give it once.\n"))
        let flagValue = await runColdTap(["decode", "x", "--json=yes"])
        #expect(flagValue.err.hasPrefix("coldtap decode: --json takes no value.\n"))
        let missing = await runColdTap(["decode", "x", "--secret"])
        #expect(missing.err.hasPrefix("coldtap decode: --secret needs a value (K).\n"))
        // A negative offset is a value, not an option.
        let zone = await runColdTap(["decode", "x", "--tz", "-05:00", "--require-read-time"])
        #expect(!zone.err.contains("Unknown option"))
    }

    @Test func versionIsPrinted() async {
        let result = await runColdTap(["--version"])
        #expect(result.status == 0)
        #expect(result.out == "coldtap \(ColdTap.version)\n")
    }

    @Test func theREADMESynopsesAreCOLDTAPHelps() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- coldtap help: begin -->\n```\n"))
        let end = try #require(readme.range(of: "\n```\n<!-- coldtap help: end -->"))
        let block = String(readme[begin.upperBound..<end.lowerBound])
        #expect(block == ColdTap.synopsisBlock, "run scripts/update-readme.sh")
        #expect(ColdTap.usage.contains(ColdTap.synopsisBlock))
        // The README documents the profile file and the descriptor language as the commands do.
        let schema = ProfilesCommand.profileSchema.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasPrefix("  ") ? String($0.dropFirst(2)) : String($0)
        }
        .joined(separator: "\n")
        #expect(readme.contains(schema))
        #expect(readme.contains(FormatsCommand.descriptorLanguage))
        #expect(readme.hasPrefix("# ColdTap\n"))
        #expect(readme.contains("## I have a dump file"))
        for word in ["**OK**", "**ALARM**", "**INCONCLUSIVE**", "**time base**"] { #expect(readme.contains(word)) }
        // Issue 44 item 10: what an upload's read time answers, as StationSecurityTests.readTimesAreChecked
        // holds the station to: not a time 400, out of range 422.
        #expect(
            readme.contains(
                "`X-ColdTap-Read-Time` (ISO 8601 with a zone, else 400; from 2000-01-01 to a day after the upload arrives, else 422;"))
    }

    @Test func bashCompletionIsValidAndKnowsCommandsOptionsAndValues() async throws {
        let result = await runColdTap(["completions", "bash"])
        #expect(result.status == 0)
        let script = result.out
        let names = ColdTap.commands.map { $0.name }
        for name in names {
            let line = "    " + name + ")"
            #expect(script.contains(line))
        }
        #expect(script.contains("--require-read-time"))
        let profiles = Profile.builtIn.map { $0.name }.joined(separator: " ")
        let profileLine = "--profile) COMPREPLY=($(compgen -W '" + profiles
        #expect(script.contains(profileLine))
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try files.write("coldtap.bash", Data(script.utf8))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        // Load it and ask for the completions of "coldtap report --lang ".
        let shellCommand = "source '" + path + "'; COMP_WORDS=(coldtap report --lang ''); COMP_CWORD=3; _coldtap; echo \"${COMPREPLY[*]}\""
        process.arguments = ["-c", shellCommand]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(output == "en zh-Hans ja\n")
    }

    /// A group completes its subcommands, then the options of the subcommand given only.
    @Test func bashCompletesASubcommandsOwnOptions() async throws {
        let script = await runColdTap(["completions", "bash"]).out
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try files.write("coldtap.bash", Data(script.utf8))
        func complete(_ words: [String]) throws -> [String] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            process.arguments = [
                "-c", "source '\(path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _coldtap; printf '%s\\n' \"${COMPREPLY[@]}\"",
            ]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.currentDirectoryURL = files.directory
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            return output.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["coldtap", "lot", ""]) == ["add", "move", "close", "status", "list", "report", "--help"])
        let move = try complete(["coldtap", "lot", "move", "--"])
        #expect(move.contains("--logger") && move.contains("--none") && move.contains("--at"))
        #expect(!move.contains("--quantity") && !move.contains("--reason") && !move.contains("--pdf"))
        #expect(try complete(["coldtap", "lot", "close", "--reason", ""]) == ["used", "discarded", "returned"])
        let fish = await runColdTap(["completions", "fish"]).out
        #expect(
            fish.contains(
                "complete -c coldtap -f -n '__fish_seen_subcommand_from lot; and not __fish_seen_subcommand_from add move close status list report' -a move"))
        #expect(fish.contains("complete -c coldtap -n '__fish_seen_subcommand_from lot; and __fish_seen_subcommand_from move' -l none"))
        let zsh = await runColdTap(["completions", "zsh"]).out
        #expect(zsh.contains("        case $words[3] in\n        add)\n            _arguments \\\n"))
    }

    @Test func zshAndFishCompletionsNameEveryOption() async {
        for shell in ["zsh", "fish"] {
            let result = await runColdTap(["completions", shell])
            #expect(result.status == 0)
            #expect(result.out.contains(shell == "zsh" ? "'--fail-on[" : "-l fail-on -r -f -a 'alarm inconclusive'"))
            #expect(result.out.contains(shell == "zsh" ? "#compdef coldtap" : "__fish_seen_subcommand_from report"))
        }
        let bad = await runColdTap(["completions", "tcsh"])
        #expect(bad.status == 64)
        #expect(bad.err.hasPrefix("coldtap completions: No completions for 'tcsh'; say bash, zsh or fish.\n"))
    }

    @Test func profilesSaysEachBandAndRuleInWordsAndItsJSONIsAProfileFile() async throws {
        let text = await runColdTap(["profiles"])
        #expect(text.status == 0)
        for profile in Profile.builtIn { #expect(text.out.contains(profile.name)) }
        #expect(text.out.contains("vaccine-fridge (the default)\n"))
        #expect(text.out.contains("  band: 2–8 °C (excursions are counted outside it)\n  ALARM when the temperature is > 8 °C for 10 h without a break\n"))
        let json = await runColdTap(["profiles", "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]])
        #expect(list.count == Profile.builtIn.count)
        // Each entry is a valid profile file that gives the same rules back.
        for (index, entry) in list.enumerated() {
            let data = try JSONSerialization.data(withJSONObject: entry)
            let profile = try Profile.fromJSON(data)
            #expect(profile.rules == Profile.builtIn[index].rules, "\(profile.name)")
            #expect(profile.band == Profile.builtIn[index].band)
        }
        let schema = await runColdTap(["profiles", "--schema"])
        for field in [
            "name", "summary", "band", "min", "max", "rules", "kind", "comparator", "limit", "hours | minutes | seconds",
            "strictlyLonger", "per", "continuous", "cumulative", "instantaneous", "mkt",
        ] {
            #expect(schema.out.contains("  \(field) ") || schema.out.contains("  \(field)\n"), "\(field)")
        }
        // The schema's example is a profile file that loads.
        let example = try #require(schema.out.range(of: "Example:\n"))
        let exampleJSON = Data(schema.out[example.upperBound...].utf8)
        let loaded = try Profile.fromJSON(exampleJSON)
        #expect(loaded.rules.count == 3)
        #expect(Set(loaded.rules.map(\.kind)) == [.continuous, .cumulative, .instantaneous])
    }

    @Test func formatsListsTheBuiltInsAndTheDescriptorLanguage() async throws {
        let text = await runColdTap(["formats"])
        #expect(text.status == 0)
        for name in LoggerDecoder.builtInNames { #expect(text.out.contains("\n  \(name) ")) }
        #expect(text.out.contains("Logger descriptors (--logger FILE.json)"))
        for field in [
            "record.match[]", "header[]", "samples", "sensorRange", "ringBuffer.capacity", "deviceInformation", "timeBase",
            "detection", "integrityNote",
        ] {
            #expect(text.out.contains("  \(field) "), "\(field)")
        }
        // Each built-in descriptor printed by --json decodes a log when given back with --logger FILE.
        let json = await runColdTap(["formats", "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]])
        let generic = try #require(list.first { $0["name"] as? String == "generic16" }?["descriptor"])
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let descriptor = try files.write("g16.json", try JSONSerialization.data(withJSONObject: generic))
        let log = try files.write("log.ndef", try DecodeFixtures.generic16Message.serialized())
        let decoded = await runColdTap(["decode", log, "--logger", descriptor, "--read-time", "2026-08-18T06:00:00Z"])
        #expect(decoded.status == 0, "\(decoded.err)")
        #expect(decoded.out.contains("Samples:     4 (1 flagged)"))
    }
}
