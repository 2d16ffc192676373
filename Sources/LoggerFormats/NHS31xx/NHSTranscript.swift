import ColdTapBase
import Foundation
import NDEF

/// The raw read of a message-based logger: the exchange itself (docs/nhs31xx.md §7).
/// JSON Lines, one object per step, keys in this order:
/// `{"write": "HEX" | null, "read": "HEX", "time": "ISO 8601 Z"}` — each value a whole
/// NDEF message (not the TLV); `write` null for a read without a write (the initial message,
/// automatic mode); `read` "" when the tag showed an empty TLV; `time` (optional) the
/// reader's clock after the read, which the clock-drift correction needs.
public struct NHSTranscript: Sendable, Equatable {
    public struct Step: Sendable, Equatable {
        public var write: Data?
        public var read: Data
        public var time: Date?

        public init(write: Data?, read: Data, time: Date? = nil) {
            self.write = write
            self.read = read
            self.time = time
        }
    }

    public var steps: [Step]

    public init(steps: [Step] = []) { self.steps = steps }

    /// The transcript as JSON Lines, each line ending in LF.
    public var jsonLines: String {
        steps.map { step in
            var line = "{\"write\":" + (step.write.map { "\"\(Self.hex($0))\"" } ?? "null") + ",\"read\":\"\(Self.hex(step.read))\""
            if let time = step.time { line += ",\"time\":\"\(time.isoUTCWholeSeconds)\"" }
            return line + "}\n"
        }.joined()
    }

    /// True when the first non-blank line is a JSON object with a `read` key: cheap, for
    /// auto-detection.
    public static func looks(like data: Data) -> Bool {
        guard let text = String(data: data.prefix(4096), encoding: .utf8) else { return false }
        guard let line = text.split(whereSeparator: \.isNewline).first(where: { !$0.allSatisfy(\.isWhitespace) }) else { return false }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.hasPrefix("{") && trimmed.contains("\"read\"")
    }

    /// Parses JSON Lines; blank lines are skipped.
    /// - Throws: `LoggerFormatError` (`.malformed`) with `field` "line N" and the character
    ///   offset in that line, for bad JSON, a missing `read`, or hex that is not hex.
    public static func parse(_ data: Data) throws -> NHSTranscript {
        guard let text = String(data: data, encoding: .utf8) else {
            throw LoggerFormatError(.malformed, format: NHS31xxFormat.formatName, field: "transcript", "the transcript is not UTF-8 text")
        }
        var steps: [Step] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let field = "transcript line \(number + 1)"
            func fail(_ offset: Int?, _ detail: String) -> LoggerFormatError {
                LoggerFormatError(.malformed, format: NHS31xxFormat.formatName, field: field, offset: offset, detail)
            }
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            let object: [String: Any]
            do {
                guard let parsed = try JSONSerialization.jsonObject(with: Data(trimmed.utf8)) as? [String: Any] else {
                    throw fail(0, "a step is a JSON object {\"write\": HEX or null, \"read\": HEX}")
                }
                object = parsed
            } catch let error as LoggerFormatError {
                throw error
            } catch {
                throw fail(nil, "not JSON: \(JSONText.syntaxProblem(in: Data(trimmed.utf8)) ?? "invalid")")
            }
            func hexField(_ key: String) throws -> Data? {
                guard let value = object[key], !(value is NSNull) else { return nil }
                guard let string = value as? String else { throw fail(nil, "\"\(key)\" must be a hex string") }
                var bytes = Data()
                var high: UInt8?
                for (position, character) in string.enumerated() where !character.isWhitespace {
                    guard let nibble = character.hexDigitValue else {
                        throw fail(position, "\"\(key)\" holds '\(character)', which is not a hex digit")
                    }
                    if let first = high { bytes.append(first << 4 | UInt8(nibble)); high = nil } else { high = UInt8(nibble) }
                }
                if high != nil { throw fail(string.count, "\"\(key)\" has an odd number of hex digits") }
                return bytes
            }
            guard object["read"] != nil else { throw fail(nil, "the step has no \"read\"") }
            guard let read = try hexField("read") else { throw fail(nil, "\"read\" must be a hex string, not null") }
            var time: Date?
            if let value = object["time"] as? String {
                guard let parsed = ISO8601Time.parse(value) else { throw fail(nil, "\"time\" '\(value)' is not an ISO 8601 time") }
                time = parsed
            }
            steps.append(Step(write: try hexField("write"), read: read, time: time))
        }
        guard !steps.isEmpty else {
            throw LoggerFormatError(.malformed, format: NHS31xxFormat.formatName, field: "transcript", "the transcript has no step")
        }
        return NHSTranscript(steps: steps)
    }

    /// Every read message taken into a readout, in order; empty reads are skipped.
    /// - Throws: `LoggerFormatError` naming the line whose read is not a valid NDEF message
    ///   or holds a malformed response frame.
    public func readout() throws -> NHSReadout {
        var readout = NHSReadout()
        for (number, step) in steps.enumerated() where !step.read.isEmpty {
            let message: NDEFMessage
            do {
                message = try NDEFParser.message(from: step.read)
            } catch {
                throw LoggerFormatError(
                    .malformed, format: NHS31xxFormat.formatName, field: "transcript line \(number + 1)",
                    "its read is not a valid NDEF message: \(error)")
            }
            do {
                try readout.add(message, readTime: step.time)
            } catch var error as LoggerFormatError {
                error.field = "transcript line \(number + 1), " + (error.field ?? "read")
                throw error
            }
        }
        return readout
    }

    /// The reader's clock at the last step, if recorded.
    public var lastTime: Date? { steps.last(where: { $0.time != nil })?.time }

    static func hex(_ data: Data) -> String { data.hexString() }
}

extension LoggerDecoder {
    /// Decodes an NHS31xx exchange transcript into the log the read gave.
    /// - Parameter options: unless `readTimeSource` is `.given`, the read time is the
    ///   transcript's last recorded reader time.
    /// - Throws: `LoggerFormatError` for a malformed transcript or frame, naming line and offset.
    public static func decode(transcript: NHSTranscript, options: DecodeOptions) throws -> TemperatureLog {
        var options = options
        if options.readTimeSource != .given, let time = transcript.lastTime {
            options.readTime = time
            options.readTimeSource = .tagRead
        }
        var log = try NHS31xxLog.build(try transcript.readout(), options: options)
        log.detection = .nhsTranscript(steps: transcript.steps.count)
        return log
    }
}
