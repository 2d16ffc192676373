import Foundation
import NDEF

/// Everything learnt from an NHS31xx over one tap: the answers of any number of NDEF
/// messages read back (the initial message, command answers, automatic-mode messages),
/// assembled into one log (docs/nhs31xx.md §4–§5).
public struct NHSReadout: Sendable, Equatable {
    public var version: NHSVersion?
    /// GETNFCUID: RF pages 0–1.
    public var nfcUID: [UInt8]?
    /// GETUID: the chip serial.
    public var serial: [UInt32]?
    /// The newest GETCONFIG answer.
    public var config: NHSConfig?
    /// When (reader clock) the message holding `config` was read, if known.
    public var configReadTime: Date?
    /// The status text records of the newest initial message, NULs dropped.
    public var statusTexts: [String] = []
    /// Every GETEVENTS answer, in the order read.
    public var eventAnswers: [NHSEvents] = []
    /// GETMEASUREMENTS samples by absolute index (0 = oldest).
    public var samples: [Int: Int16] = [:]
    /// Result-only refusals other than the expected ones (phantom, nothing queued), by message name.
    public var refusals: [NHSRefusal] = []
    /// The last MEASURETEMPERATURE result, deci-°C.
    public var liveTemperature: Int16?
    /// The last CHECKBATTERY result (negative = never tripped).
    public var batteryThreshold: Int32?
    public var calibrationTime: UInt32?
    /// Messages taken in, and how many of them were repeats of the one before.
    public private(set) var messageCount = 0
    public private(set) var frameCount = 0
    private var lastMessage: NDEFMessage?

    public init() {}

    /// The response frames of a message: every MIME record whose payload has the response
    /// direction byte `01`, whatever its type string (§4.1). Text records are returned apart.
    public static func frames(in message: NDEFMessage) -> (frames: [(record: Int, frame: NHSFrame)], texts: [String]) {
        var frames: [(Int, NHSFrame)] = []
        var texts: [String] = []
        for (index, record) in message.records.enumerated() {
            if record.tnf == .media, record.payload.count >= 2,
                record.payload[record.payload.startIndex + 1] == NHSFrame.responseDirection,
                let frame = try? NHSFrame(bytes: record.payload)
            {
                frames.append((index, frame))
            } else if record.isWellKnown("T"), let text = record.textRecord {
                texts.append(text.text)
            }
        }
        return (frames, texts)
    }

    /// Takes in one NDEF message read from the tag.
    /// - Parameter readTime: the reader's clock when it was read, if known.
    /// - Throws: `LoggerFormatError` for a response frame that does not have its layout, with
    ///   the record number and the offset inside the frame.
    public mutating func add(_ message: NDEFMessage, readTime: Date? = nil) throws {
        messageCount += 1
        defer { lastMessage = message }
        if message == lastMessage { return }
        let (frames, texts) = Self.frames(in: message)
        for (record, frame) in frames {
            let response: NHSResponse
            do {
                response = try NHSResponse.parse(frame)
            } catch var error as LoggerFormatError {
                error.field = "record \(record + 1) (\(frame.name) response)"
                throw error
            }
            frameCount += 1
            if case .config = response { configReadTime = readTime }
            add(response)
        }
        if frames.contains(where: { $0.frame.id == NHSMessageID.getVersion.rawValue }) {
            statusTexts = texts.map { text in
                text.split(separator: "\n").map { $0.filter { $0 != "\0" }.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty }.joined(separator: " / ")
            }.filter { !$0.isEmpty }
        }
    }

    /// Takes in one parsed response.
    public mutating func add(_ response: NHSResponse) {
        switch response {
        case .version(let value): version = value
        case .nfcUID(let value): nfcUID = value
        case .uid(let value): serial = value
        case .config(let value): config = value
        case .events(let value): eventAnswers.append(value)
        case .measurements(let chunk):
            for (position, sample) in chunk.samples.enumerated() { samples[Int(chunk.offset) + position] = sample }
        case .temperature(let result, let value):
            if result.isOK { liveTemperature = value } else { refusals.append(NHSRefusal(message: "MEASURETEMPERATURE", result: result)) }
        case .battery(_, let threshold): batteryThreshold = threshold
        case .calibrationTimestamp(let result, let time): if result.isOK { calibrationTime = time }
        case .result(let id, let result):
            let name = NHSMessageID(rawValue: id)?.name ?? String(format: "message 0x%02X", id)
            let expected =
                result.isOK || result == .noResponse
                || (id == NHSMessageID.getMeasurements.rawValue && result == .badLength)  // the phantom, §1.6
            if !expected { refusals.append(NHSRefusal(message: name, result: result)) }
        case .diagnostics, .periodicData, .register, .memory, .other: break
        }
    }

    /// The events of every GETEVENTS answer merged by absolute number (data from the
    /// answer that carried them), oldest first.
    public var mergedEvents: [NHSEventBlock] {
        var byIndex: [UInt16: NHSEventBlock] = [:]
        var unnumbered: [NHSEventBlock] = []
        for answer in eventAnswers {
            for block in answer.blocks {
                guard let index = block.index else {
                    if !unnumbered.contains(block) { unnumbered.append(block) }
                    continue
                }
                var merged = byIndex[index] ?? block
                merged.timestamp = merged.timestamp ?? block.timestamp
                merged.number = merged.number ?? block.number
                if let end = block.endTime { merged.endTime = end }
                byIndex[index] = merged
            }
        }
        let numbered = byIndex.keys.sorted().compactMap { byIndex[$0] }
        let extra = unnumbered.filter { block in !numbered.contains { $0.timestamp == block.timestamp && $0.number == block.number } }
        // The absolute number is the tag's own order; timestamps may jump back after a clock loss.
        return numbered + extra.sorted { ($0.timestamp ?? 0) < ($1.timestamp ?? 0) }
    }
}
