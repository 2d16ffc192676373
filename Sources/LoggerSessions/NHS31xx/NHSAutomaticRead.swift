import Foundation
import LoggerFormats
import NDEF
import NFCTags

/// Reading an NHS31xx without writing (docs/nhs31xx.md §4.2): after each complete read the
/// firmware shows the next message of its script — the initial message again, two GETEVENTS
/// answers, GETMEASUREMENTS chunks newest first (overlapping), then GETRESPONSE for ever.
/// For a reader that can only read (an iPhone app whose write is refused).
public enum NHSAutomaticRead {
    /// Reads until every sample 0 … count−1 is in, a NO_RESPONSE frame arrives, or two
    /// identical reads follow the measurement phase; at most `maxReads` reads. The chunk loop
    /// of a count that is a multiple of 232 ends when the samples are complete.
    /// - Parameter readout: what is known already (the initial message, for instance).
    /// - Returns: the readout; samples that never came are missing from it (the log says so).
    /// - Throws: `NHSSessionError` (`.exchange(.tagRemoved)` after N reads, `.malformed`).
    public static func read(
        _ session: NDEFExchangeSession, readout start: NHSReadout = NHSReadout(), maxReads: Int = 400,
        progress: (@Sendable (NHSReadProgress) -> Void)? = nil
    ) async throws -> NHSReadout {
        var readout = start
        var previous: Data?
        var measuring = false
        for _ in 0..<maxReads {
            if let count = readout.config?.count, measuring || count == 0,
                (0..<Int(count)).allSatisfy({ readout.samples[$0] != nil }), !readout.eventAnswers.isEmpty
            {
                break
            }
            let bytes: Data
            do { bytes = try await session.read() } catch let error as NDEFExchangeError { throw NHSSessionError.exchange(error) }
            if bytes.isEmpty { continue }
            if bytes == previous {
                if measuring { break }
                continue
            }
            previous = bytes
            let message: NDEFMessage
            do {
                message = try NDEFParser.message(from: bytes)
            } catch {
                throw NHSSessionError.notNHS31xx("read \(session.exchangeCount) is not a valid NDEF message: \(error)")
            }
            do {
                try readout.add(message, readTime: session.steps.last?.time)
            } catch let error as LoggerFormatError {
                throw NHSSessionError.malformed(error)
            }
            let ids = NHSReadout.frames(in: message).frames.map(\.frame)
            if ids.contains(where: { $0.id == NHSMessageID.getMeasurements.rawValue }) { measuring = true }
            if ids.contains(where: { $0.id == NHSMessageID.getResponse.rawValue && $0.payload == [0x0B, 0x00, 0x01, 0x00] }) { break }
            progress?(
                NHSReadProgress(
                    phase: measuring ? "samples" : "events", samplesRead: readout.samples.count,
                    samplesTotal: Int(readout.config?.count ?? 0), exchanges: session.exchangeCount))
        }
        return readout
    }
}

extension NHSLoggerSession {
    /// The command-mode readout, falling back to automatic mode when the link refuses the
    /// first write (a read-only NDEF link such as a phone that may not write this tag).
    /// - Returns: the readout and whether it was read in automatic mode.
    public func readOutFallingBack(progress: (@Sendable (NHSReadProgress) -> Void)? = nil) async throws -> (NHSReadout, automatic: Bool) {
        do {
            return (try await readOut(progress: progress), false)
        } catch NHSSessionError.exchange(.writeFailed) where exchange.steps.allSatisfy({ $0.written == nil }) {
            var start = NHSReadout()
            if let initial = initialMessage { try? start.add(initial, readTime: exchange.steps.first?.time) }
            return (try await NHSAutomaticRead.read(exchange, readout: start, progress: progress), true)
        }
    }
}
