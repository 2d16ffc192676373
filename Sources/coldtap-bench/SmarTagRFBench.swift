import Foundation
import LoggerFormats
import NFCTags
import NFCTagsEmulation

/// The RF row of a full SmarTag2 (docs/smartag.md §4.5): one temperature sensor, 1,014
/// records filling its ring, on a virtual ST25DV64K, read as `coldtap read` reads it (the
/// NDEF message, then in the same session the rest of the memory the log needs).
///
/// Lower bound: the frame timings of reading blocks 0 … 2046 (the capability container
/// through the last record, byte 8187) in the fewest largest legal commands, plus one
/// identification exchange.
func measureSmarTagRF() async throws -> RFBenchRow {
    let encoder = SmarTagEncoder.SmarTag2(sampleTime: 60, start: 1_700_000_000, sensors: [.init(id: 0, mode: 3, threshold1: 0)])
    let readings = (1...1014).map { SmarTagEncoder.SmarTag2.Reading(seconds: UInt32($0) * 60, value: 5 + 2 * sin(Double($0) / 60)) }
    let memory = Data(encoder.memory(after: readings))
    func read(_ strategy: TagReadOptions.Strategy) async throws -> VirtualTag {
        let tag = try VirtualTag(chip: .st25dv64k, memory: memory)
        let (_, dump) = try await TagReader.readNDEFThenMemory(from: tag, options: TagReadOptions(strategy: strategy)) { result in
            result.ndefMessageBytes.map { SmarTagImage(ndefMessageBytes: $0) != nil } ?? false
        }
        guard let dump, let image = SmarTagImage(tagMemory: dump.memory) else {
            throw BenchError.reference("the SmarTag2 was not read as one")
        }
        let log = try LoggerDecoder.decode(smarTag: image, options: DecodeOptions(readTime: Date(timeIntervalSince1970: 1_700_100_000)))
        guard log.samples.count == 1014 else { throw BenchError.reference("SmarTag2 read \(log.samples.count) of 1014 records") }
        return tag
    }
    let fast = try await read(.fewestRoundTrips)
    let naive = try await read(.naive)
    let lastBlock = (8188 - 1) / 4
    let bound = rfLowerBoundMicroseconds(chip: .st25dv64k, firstUnit: 0, lastUnit: lastBlock, limits: fast.limits)
    return RFBenchRow(
        tag: "SmarTag2", bytes: (lastBlock + 1) * 4, commands: await fast.commandCount,
        airTimeMs: await fast.airTimeMicroseconds / 1000, lowerBoundMs: bound / 1000,
        naiveCommands: await naive.commandCount, naiveAirTimeMs: await naive.airTimeMicroseconds / 1000)
}
