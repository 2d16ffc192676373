import Foundation
import NFCTags
import NFCTagsEmulation
import Testing

@testable import LoggerFormats
@testable import LoggerSessions

/// A phone's NDEF link that may read but whose writes are refused (as Core NFC refuses a
/// write to a tag it found read-only): the session must fall back to automatic mode.
struct ReadOnlyLink: NDEFMessageLink {
    let base: TransportMessageLink
    func readMessage() async throws -> Data { try await base.readMessage() }
    func writeMessage(_ message: Data) async throws { throw NDEFExchangeError.writeFailed("the tag is read-only for this reader") }
}

@Suite struct AutomaticModeTests {
    func loggedTag(samples: Int) async -> VirtualNHS3100 {
        let start = 1_700_000_000.0
        let tag = VirtualNHS3100(logger: NHS3100Logger(now: start) { time in 5 + 4 * sin((time - start) / 7200) })
        await tag.remove()
        await tag.update {
            $0.configure(NHSConfiguration(currentTime: UInt32(start), interval: 60, validMinimum: 20, validMaximum: 80))
            $0.advance(by: Double(samples - 1) * 60 + 30)
        }
        await tag.tap()
        return tag
    }

    func readFallingBack(_ tag: VirtualNHS3100) async throws -> (NHSReadout, Bool, NHSLoggerSession) {
        let link = ReadOnlyLink(base: TransportMessageLink(transport: tag))
        let session = NHSLoggerSession(exchange: NDEFExchangeSession(link: link, options: NDEFExchangeOptions(pollDelay: .zero)))
        try await session.readInitialMessage()
        let (readout, automatic) = try await session.readOutFallingBack()
        return (readout, automatic, session)
    }

    @Test func aRefusedWriteFallsBackToAutomaticModeWithOverlappingChunks() async throws {
        let tag = await loggedTag(samples: 500)
        let (readout, automatic, session) = try await readFallingBack(tag)
        #expect(automatic)
        #expect(readout.config?.count == 500 && readout.samples.count == 500)
        #expect(readout.samples == Dictionary(uniqueKeysWithValues: (await tag.logger.samples).enumerated().map { ($0, $1) }))
        // initial, initial again, 2 GETEVENTS, chunks at 268, 36, 0: nothing written.
        #expect(session.exchange.steps.count == 7 && session.exchange.steps.allSatisfy { $0.written == nil })
        #expect(await tag.automaticModeRunning)
        let log = try LoggerDecoder.decode(transcript: session.transcript, options: DecodeOptions(readTime: .now, readTimeSource: .now))
        #expect(log.samples.count == 500 && log.events.contains { $0.name == "temperatureTooHigh" })
    }

    @Test func aMultipleOf232StopsWhenTheSamplesAreComplete() async throws {
        let tag = await loggedTag(samples: 464)
        let (readout, automatic, session) = try await readFallingBack(tag)
        #expect(automatic && readout.samples.count == 464)
        #expect(session.exchange.steps.count == 6)  // initial ×2, events ×2, chunks 232 and 0
    }

    @Test func anEmptyLoggerEndsOnNoResponse() async throws {
        let tag = VirtualNHS3100(logger: NHS3100Logger(now: 1_700_000_000))
        let (readout, automatic, _) = try await readFallingBack(tag)
        #expect(automatic && readout.samples.isEmpty && readout.config?.status == .pristine)
    }
}
