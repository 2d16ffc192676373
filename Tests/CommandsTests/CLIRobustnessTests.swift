import ColdTapBase
import ColdTapKit
import Foundation
import LoggerFormats
import NDEF
import NFCTags
import TestSupport
import Testing

@testable import ColdTapCommands

/// Damaged input, as a tag or a file can really carry it, must never crash `coldtap`, never
/// end with an exit status other than 0 or 65, never print more than one line on failure,
/// and never report fewer samples than the undamaged input held without saying so.
///
/// Valid inputs of every kind are generated here and mutated deterministically (truncation,
/// bit flips, byte insertions and deletions, length fields set to extremes); every mutation
/// goes through `decode --json`, and in turn through `report --json`, `report`, `decode`
/// and (dumps) `tag`.
@Suite struct CLIRobustnessTests {
    /// One valid input and what is known about it.
    struct Seed {
        var name: String
        var bytes: Data
        /// A tag memory image (binary, hex or Flipper), which `coldtap tag` also takes.
        var isDump: Bool
        /// Bytes whose corruption matters most: length fields, TLV and record headers.
        var headerRange: Range<Int>
    }

    static let readTime = "2026-03-01T12:00:00Z"
    static let secret = "ZS0Smt8LByrYNFts"

    static func seeds() throws -> [Seed] {
        let read = try #require(ISO8601Time.parse(readTime))
        var seeds: [Seed] = []
        let temperatures: [Double] = [4.5, 5.0, 5.5, 9.2, 11.0, 7.5, 5.1, 4.9]
        for kind in LoggerImageFactory.kinds {
            let message = try LoggerImageFactory.message(
                kind: kind, temperatures: temperatures, interval: 600,
                newestSampleTime: read.addingTimeInterval(-300), readTime: read,
                secret: kind == "cupltag-rh" ? secret : nil)
            let ndef = message.serialized()
            seeds.append(Seed(name: "\(kind).ndef", bytes: ndef, isDump: false, headerRange: 0..<min(ndef.count, 24)))
            let hex = ndef.map { String(format: "%02X", $0) }.joined(separator: " ")
            seeds.append(Seed(name: "\(kind).hex", bytes: Data(hex.utf8), isDump: false, headerRange: 0..<min(hex.utf8.count, 36)))
            if kind.hasPrefix("cupltag"), let uri = message.records.first?.uriRecord?.uri {
                seeds.append(Seed(name: "\(kind).url", bytes: Data((uri + "\n").utf8), isDump: false, headerRange: 0..<min(uri.utf8.count, 64)))
            }
            // The chip a logger of this kind really sits on, and one more (generic loggers exist on both tag types).
            var chips: [TagChip] = []
            if let name = LoggerImageFactory.chipName(kind: kind), let chip = TagChip(rawValue: name) { chips.append(chip) }
            chips.append(kind == "generic16" ? .ntag213 : kind == "generic16-unix" ? .icodeSLIX2 : kind == "dtn1" ? .ntag216 : .st25dv64k)
            for chip in chips {
                // An 8 kB tag's Flipper file is 31 kB of text: one of them is enough; the two
                // cuplTag variants have the same layout, so one Flipper file serves both.
                let flipperToo = (chip != .st25dv64k || kind == "dtn1") && kind != "cupltag-rh"
                let memory = try TagImage.memory(for: chip, ndefMessage: ndef)
                let header = chip.technology == .iso14443A ? 8..<40 : 0..<24
                seeds.append(Seed(name: "\(kind)@\(chip.rawValue).bin", bytes: memory, isDump: true, headerRange: header))
                guard flipperToo else { continue }
                let dump = try MemoryDump.parse(memory, hint: .chip(chip))
                let flipper = Data(dump.flipperText().utf8)
                // The header lines' values and the lines holding the CC and the TLVs' first bytes.
                let text = String(decoding: flipper, as: UTF8.self)
                let data =
                    text.range(of: chip.technology == .iso14443A ? "Page 3:" : "Data Content:").map {
                        text.utf8.distance(from: text.startIndex, to: $0.lowerBound)
                    } ?? 0
                seeds.append(
                    Seed(
                        name: "\(kind)@\(chip.rawValue).nfc", bytes: flipper, isDump: true,
                        headerRange: data..<min(flipper.count, data + 48)))
            }
        }
        // Two more chips, with an NTAG215/NT3H2211 factory layout: the generic16 log.
        let generic = try LoggerImageFactory.message(
            kind: "generic16", temperatures: temperatures, interval: 60,
            newestSampleTime: read
        ).serialized()
        for chip in [TagChip.ntag215, .nt3h2111] {
            let memory = try TagImage.memory(for: chip, ndefMessage: generic)
            seeds.append(
                Seed(
                    name: "generic16@\(chip.rawValue).hex", bytes: Data(memory.map { String(format: "%02x", $0) }.joined(separator: ":").utf8),
                    isDump: true, headerRange: 24..<96))
        }
        // Less common but valid shapes: missing and out-of-range samples in chunked records,
        // control TLVs before the NDEF TLV, a Proxmark3 dump, a Flipper file with unread pages.
        let oddSamples = try Generic16Encoder.payload(temperatures: [4.5, nil, 120.0, 5.0, -60.0, 5.5, nil, 6.0], intervalSeconds: 300)
        let odd = NDEFMessage(records: [
            Generic16Encoder.startRecord(read.addingTimeInterval(-3600)),
            Generic16Encoder.record(payload: oddSamples),
        ])
        let chunked = odd.serialized(maxChunkSize: 5)
        seeds.append(Seed(name: "generic16-odd-chunked.ndef", bytes: chunked, isDump: false, headerRange: 0..<min(chunked.count, 40)))
        let controls = TLVLayout(
            controlTLVs: [.lockControl(position: 160, lockBits: 16), .memoryControl(position: 64, size: 8)],
            leadingNulls: 2)
        let withControls = try TagImage.memory(for: .ntag215, ndefMessage: odd.serialized(), layout: controls)
        seeds.append(Seed(name: "generic16-odd@ntag215-controls.bin", bytes: withControls, isDump: true, headerRange: 12..<56))
        let version = try #require(TagChip.ntag215.type2Layout?.version)
        let proxmark = Data(version) + Data(repeating: 0, count: 48) + withControls
        seeds.append(Seed(name: "generic16-odd@ntag215.proxmark", bytes: proxmark, isDump: true, headerRange: 0..<112))
        var partial = try MemoryDump.parse(withControls, hint: .chip(.ntag215))
        partial.missingUnits = Set(120..<135)
        let partialText = Data(partial.flipperText().utf8)
        seeds.append(
            Seed(
                name: "generic16-odd@ntag215-partial.nfc", bytes: partialText, isDump: true,
                headerRange: 0..<min(partialText.count, 300)))
        return seeds
    }

    /// Deterministic mutations of `seed`, each with a name saying what was done.
    static let flips = ProcessInfo.processInfo.environment["COLDTAP_ROBUSTNESS_FLIPS"].flatMap { Int($0) } ?? 24

    static func mutations(of seed: Seed, generator: inout SeededGenerator) -> [(String, Data)] {
        let bytes = Array(seed.bytes)
        let small = bytes.count <= 128
        let header = seed.headerRange.clamped(to: 0..<bytes.count)
        var out: [(String, Data)] = []
        // Truncation: at every byte of small inputs; else at 32 spread points and at every
        // other byte of the header region.
        var cuts = Set<Int>()
        if small {
            cuts.formUnion(0..<bytes.count)
        } else {
            for index in 0..<32 { cuts.insert(index * bytes.count / 32) }
            cuts.formUnion(header.filter { $0 % 2 == 0 })
        }
        for cut in cuts.sorted() { out.append(("truncated to \(cut) bytes", Data(bytes.prefix(cut)))) }
        // Single bit flips, half anywhere and half in the header region (more, and a
        // different generator seed, with COLDTAP_ROBUSTNESS_FLIPS=N for a longer hunt).
        for round in 0..<flips {
            var copy = bytes
            let range = round % 2 == 0 ? 0..<bytes.count : header
            let index = range.lowerBound + generator.below(range.count)
            let bit = generator.below(8)
            copy[index] ^= 1 << bit
            out.append(("bit \(bit) of byte \(index) flipped", Data(copy)))
        }
        // Byte insertions and deletions.
        for round in 0..<8 {
            var copy = bytes
            if round % 2 == 0 {
                let index = generator.below(bytes.count + 1)
                let value = UInt8(truncatingIfNeeded: generator.next())
                copy.insert(value, at: index)
                out.append(("byte \(String(format: "%02X", value)) inserted at \(index)", Data(copy)))
            } else {
                let index = generator.below(bytes.count)
                copy.remove(at: index)
                out.append(("byte \(index) deleted", Data(copy)))
            }
        }
        // Length and header fields set to extremes and off by one (large inputs: two of the four).
        for index in header {
            let values = [UInt8(0x00), 0xFF, bytes[index] &+ 1, bytes[index] &- 1]
            for (choice, value) in values.enumerated() where value != bytes[index] && (small || choice % 2 == index % 2) {
                var copy = bytes
                copy[index] = value
                out.append(("byte \(index) set to \(String(format: "%02X", value))", Data(copy)))
            }
        }
        return out
    }

    struct Failure: CustomStringConvertible {
        var seed: String
        var mutation: String
        var command: [String]
        var problem: String
        var description: String { "\(seed), \(mutation), coldtap \(command.joined(separator: " ")): \(problem)" }
    }

    static func run(_ arguments: [String], input: Data) async -> (status: Int32, out: String, err: String) {
        let console = Console.capturing(stdin: input)
        let status = await ColdTap.main(arguments, console: console)
        return (status, console.output, console.errorOutput)
    }

    /// The number of samples and whether anything in the JSON says the log is not whole.
    static func sampleAccount(_ json: String) -> (samples: Int, notes: Int)? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let samples = object["samples"] as? [[String: Any]]
        else { return nil }
        let warnings = (object["warnings"] as? [Any])?.count ?? 0
        let integrity = (object["integrity"] as? [String: Any])?["status"] as? String
        let flagged = samples.filter { !(($0["flags"] as? [Any])?.isEmpty ?? true) }.count
        return (samples.count, warnings + flagged + (integrity == "failed" ? 1 : 0))
    }

    @Test(.tags(.slow)) func damagedInputsNeverCrashMisleadOrShortenSilently() async throws {
        let common = ["-", "--read-time", Self.readTime]
        var generator = SeededGenerator(seed: 0xC01D_7A9 &+ UInt64(Self.flips == 24 ? 0 : Self.flips))
        var failures: [Failure] = []
        var mutated = 0
        var invocations = 0
        for seed in try Self.seeds() {
            let secretOption = seed.name.hasPrefix("cupltag-rh") ? ["--secret", Self.secret] : []
            let baseline = await Self.run(["decode"] + common + secretOption + ["--json"], input: seed.bytes)
            #expect(baseline.status == 0, "\(seed.name) does not decode: \(baseline.err)")
            let original = try #require(Self.sampleAccount(baseline.out), "\(seed.name): no JSON")
            #expect(original.samples == 8, "\(seed.name): \(baseline.out)")
            if seed.name.contains("-odd") { #expect(original.notes > 0, "\(seed.name): missing and out-of-range samples are flagged") }
            if seed.isDump {
                let tag = await Self.run(["tag", "-"], input: seed.bytes)
                #expect(tag.status == 0, "\(seed.name): \(tag.err)")
            }
            for (index, (mutation, bytes)) in Self.mutations(of: seed, generator: &generator).enumerated() {
                mutated += 1
                // decode --json for every input (it accounts for the samples), and in turn
                // report --json, report, decode (text) and tag.
                var commands: [[String]] = [["decode"] + common + secretOption + ["--json"]]
                switch index % 4 {
                case 0: commands.append(["report"] + common + secretOption + ["--json", "--tz", "UTC"])
                case 1: commands.append(["report"] + common + secretOption + ["--tz", "UTC"])
                case 2: commands.append(["decode"] + common + secretOption)
                default: commands.append(seed.isDump ? ["tag", "-"] : ["report"] + common + secretOption + ["--json", "--tz", "UTC"])
                }
                for command in commands {
                    invocations += 1
                    let result = await Self.run(command, input: bytes)
                    func fail(_ problem: String) {
                        failures.append(Failure(seed: seed.name, mutation: mutation, command: command, problem: problem))
                        // COLDTAP_KEEP_FAILURES=DIR keeps each failing input, to replay by hand.
                        if let directory = ProcessInfo.processInfo.environment["COLDTAP_KEEP_FAILURES"] {
                            let file = "\(seed.name)-\(mutation)".map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }
                            try? bytes.write(to: URL(fileURLWithPath: directory).appendingPathComponent(String(file)))
                        }
                    }
                    switch result.status {
                    case 0:
                        if command.contains("--json"),
                            (try? JSONSerialization.jsonObject(with: Data(result.out.utf8))) == nil
                        {
                            fail("exit 0 but the output is not JSON")
                        }
                        // Only cuts and deletions must never lose samples unannounced: a flipped
                        // header field may honestly describe a shorter log (a DTN1 point count
                        // of 0; a cuplTag `v` naming T+RH, which the format's hash does not cover).
                        let removesBytes = mutation.hasPrefix("truncated") || mutation.hasSuffix("deleted")
                        if command.first == "decode" && command.contains("--json") && removesBytes {
                            if let account = Self.sampleAccount(result.out) {
                                if account.samples < original.samples && account.notes <= original.notes {
                                    fail(
                                        "exit 0 with \(account.samples) of \(original.samples) samples and no more warnings, flags or failed integrity than the whole input"
                                    )
                                }
                            } else {
                                fail("exit 0 without samples in the JSON")
                            }
                        }
                    case 65:
                        let lines = result.err.split(separator: "\n", omittingEmptySubsequences: false)
                        if lines.count != 2 || lines[1] != "" || lines[0].isEmpty {
                            fail("stderr is not one line: \(result.err.debugDescription)")
                        }
                        if !result.out.isEmpty { fail("exit 65 but something on stdout") }
                    default:
                        fail("exit \(result.status): \(result.err)")
                    }
                }
            }
        }
        // Thousands of inputs: the figure also goes into the test log.
        print("CLIRobustnessTests: \(mutated) mutated inputs, \(invocations) command runs, \(failures.count) failures")
        #expect(mutated > 2000)
        for failure in failures.prefix(40) { Issue.record("\(failure)") }
        #expect(failures.isEmpty, "\(failures.count) failures")
    }
}
