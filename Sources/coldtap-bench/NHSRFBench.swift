import Foundation
import LoggerFormats
import LoggerSessions
import NDEF
import NFCTags
import NFCTagsEmulation

/// The RF row of a message-based logger: a virtual NHS3100 holding 4,000 samples, read in
/// command mode (docs/nhs31xx.md §8) through the NDEF exchange session.
///
/// Lower bound: only the GETMEASUREMENTS exchanges the samples need (ceil(4000 / 232)), each
/// one write of the command message in the fewest WRITEs (data pages, then page 6 with the
/// length once) plus one read of the answer from page 6 in the fewest READs (16 bytes each:
/// the chip is not known to offer FAST_READ, so ColdTap reads it as a generic Type 2 tag).
/// Reading the initial message and the events is not part of the bound.
func measureNHSRF(samples: Int = 4000) async throws -> RFBenchRow {
    let start = 1_700_000_000.0
    let logger = NHS3100Logger(now: start, capacity: samples) { time in 5 + 2 * sin((time - start) / 3600) }
    let tag = VirtualNHS3100(logger: logger)
    await tag.remove()
    await tag.update {
        $0.configure(NHSConfiguration(currentTime: UInt32(start), interval: 60))
        $0.advance(by: Double(samples) * 60 - 30)
    }
    await tag.tap()
    let session = NHSLoggerSession(
        transport: tag, options: NDEFExchangeOptions(pollDelay: .zero),
        clock: { Date(timeIntervalSince1970: start + Double(samples) * 60) })
    let readout = try await session.readOut()
    guard readout.samples.count == samples, readout.config?.count == UInt16(samples) else {
        throw BenchError.reference("NHS3100 read \(readout.samples.count) of \(samples) samples")
    }
    let chunks = (samples + 231) / 232
    var bound = 0.0
    for chunk in 0..<chunks {
        let frame = NHSCommand.getMeasurements(offset: UInt16(chunk * 232)).frame.bytes
        let command = NDEFMessage(records: [NDEFRecord(tnf: .media, type: "n/p", payload: Data(frame))]).serialized()
        let commandTLV = 2 + command.count + 1
        let writes = (commandTLV + 3) / 4
        bound += Double(writes) * AirTime.iso14443Exchange(commandBytes: 6, answerBytes: nil, processing: AirTime.type2WriteTime)
        let count = min(232, samples - chunk * 232)
        let answerRecord = 6 + 3 + 2 + 10 + 2 * count
        let answerTLV = (answerRecord > 254 ? 4 : 2) + answerRecord
        let reads = (answerTLV + 15) / 16
        bound += Double(reads) * AirTime.iso14443Exchange(commandBytes: 2, answerBytes: 16)
    }
    return RFBenchRow(
        tag: "NHS3100 4k", bytes: samples * 2, commands: session.exchange.exchangeCount,
        airTimeMs: await tag.airTimeMicroseconds / 1000, lowerBoundMs: bound / 1000,
        naiveCommands: await tag.commandCount, naiveAirTimeMs: await tag.airTimeMicroseconds / 1000)
}

/// Prints the NHS3100 row: exchanges (not commands), modelled air time, the bound, the ratio.
func printNHSRFRow(_ row: RFBenchRow) {
    print("message-based logger (command mode): exchanges = NDEF messages written and read back; bound = the GETMEASUREMENTS exchanges alone")
    print(
        String(
            format: "%@  samples %d  exchanges %d  tag commands %d  air ms %.1f  bound ms %.1f  ratio %.3f (target ≤ 1.15): %@",
            row.tag, row.bytes / 2, row.commands, row.naiveCommands, row.airTimeMs, row.lowerBoundMs, row.ratio,
            row.ratio <= 1.15 ? "met" : "NOT met"))
}
