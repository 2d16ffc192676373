import Foundation
import NFCTags
import TestSupport
import Testing

@testable import ColdTapCommands

/// `coldtap emulate FILE` with damaged dumps: the virtual tag is refused with a command
/// error, or it is made and a reader can read it (or is refused by it) without a crash.
@Suite struct EmulateRobustnessTests {
    @Test(.tags(.slow)) func damagedDumpsMakeATagOrAClearError() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        var generator = SeededGenerator(seed: 0xE37)
        let seeds = try CLIRobustnessTests.seeds().filter { $0.isDump && ($0.name.hasSuffix(".bin") || $0.name.hasSuffix(".nfc")) }
        var made = 0, refused = 0
        for seed in seeds {
            let bytes = Array(seed.bytes)
            var variants: [Data] = stride(from: 0, to: bytes.count, by: max(1, bytes.count / 24)).map { Data(bytes.prefix($0)) }
            for _ in 0..<12 {
                var copy = bytes
                let index = seed.headerRange.lowerBound + generator.below(seed.headerRange.count)
                copy[min(index, copy.count - 1)] ^= UInt8(1 << generator.below(8))
                variants.append(Data(copy))
            }
            for variant in variants {
                let path = try files.write("dump", variant)
                do {
                    let tag = try VirtualTags.make(
                        .file(path), chip: nil, readTime: Date(timeIntervalSince1970: 1_772_366_400),
                        console: .capturing()
                    ).tag
                    made += 1
                    do {
                        _ = try await TagReader.read(from: tag)
                    } catch is TagReadError {
                        // A damaged image may be unreadable; it must say so, not crash.
                    }
                } catch let error as CommandError {
                    refused += 1
                    #expect(!error.message.contains("\n"), "\(seed.name): \(error.message)")
                    #expect([.usage, .dataError].contains(error.status), "\(seed.name): \(error.status) \(error.message)")
                }
            }
        }
        #expect(made > 100 && refused > 10, "made \(made), refused \(refused)")
    }
}
