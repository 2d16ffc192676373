import ColdTapBase
import Foundation
import NDEF

/// The cuplTag URL format (codec version 2; docs/formats/cupltag.md): the whole log travels in the query
/// of a URI record. Decoding follows the reference order of docs/formats/cupltag.md §8, so the first
/// failure decides the error category.
struct CuplTagFormat: LoggerFormatDecoder {
    var name: String { "cupltag" }

    static let requiredKeys = ["t", "s", "v", "x", "q"]

    /// The URL's base (scheme, host, path) and its query parameters, blank values kept.
    struct ParsedURL {
        var base: String
        var parameters: [String: Substring]

        init?(_ url: String) {
            guard let question = url.firstIndex(of: "?") else { return nil }
            var base = String(url[..<question])
            if base.hasSuffix("/") { base.removeLast() }
            self.base = base
            var parameters: [String: Substring] = [:]
            for item in url[url.index(after: question)...].split(separator: "&", omittingEmptySubsequences: true) {
                if let equals = item.firstIndex(of: "=") {
                    let key = String(item[..<equals])
                    if parameters[key] == nil { parameters[key] = item[item.index(after: equals)...] }
                } else if parameters[String(item)] == nil {
                    parameters[String(item)] = item[item.endIndex...]
                }
            }
            self.parameters = parameters
        }

        var isCuplTag: Bool { ["t", "v", "x", "q"].allSatisfy { parameters[$0] != nil } }
    }

    func uriRecord(in message: NDEFMessage) -> (URIRecord, ParsedURL)? {
        for record in message.records {
            if let uri = record.uriRecord, let parsed = ParsedURL(uri.uri), parsed.isCuplTag { return (uri, parsed) }
        }
        return nil
    }

    func detect(_ message: NDEFMessage, options: DecodeOptions) -> Detection {
        if let (uri, _) = uriRecord(in: message) {
            return .accepted("a URI record (\(uri.uri.prefix(40))…) carries the cuplTag query parameters t, v, x and q")
        }
        if message.records.contains(where: { $0.isWellKnown("U") }) {
            return .refused("its URI record has no cuplTag query (parameters t, s, v, x, q)")
        }
        return .refused("no URI record")
    }

    func decode(_ message: NDEFMessage, options: DecodeOptions) throws -> TemperatureLog {
        guard let (_, parsed) = uriRecord(in: message) else {
            if let uri = message.records.lazy.compactMap(\.uriRecord).first {
                return try decode(url: uri.uri, options: options)
            }
            throw LoggerFormatError(.recordNotFound, format: name, "the message has no URI record carrying a cuplTag URL")
        }
        return try decode(parsed, options: options)
    }

    func decode(url: String, options: DecodeOptions) throws -> TemperatureLog {
        guard let parsed = ParsedURL(url) else {
            throw LoggerFormatError(.malformed, format: name, "the URL has no query string (a cuplTag URL ends in ?t=…&s=…&v=…&x=…&q=…)")
        }
        return try decode(parsed, options: options)
    }

    fileprivate func error(
        _ kind: LoggerFormatError.Kind, field: String? = nil, offset: Int? = nil, _ detail: String,
        hint: UserHint? = nil
    ) -> LoggerFormatError {
        LoggerFormatError(kind, format: name, field: field, offset: offset, detail, hint: hint)
    }

    private func parameter(_ key: String, in parsed: ParsedURL) throws -> Substring {
        guard let value = parsed.parameters[key] else {
            throw error(.malformed, field: key, "the URL lacks the '\(key)' parameter that every cuplTag URL carries")
        }
        return value
    }

    /// Decodes base64 text that is a slice of parameter `field`; `positionInField` maps
    /// an index in `text` to a character offset in the parameter for the error.
    private func base64(
        _ text: Substring, field: String, what: String, bytes expected: Int? = nil,
        positionInField: (Int) -> Int
    ) throws -> [UInt8] {
        switch CuplBase64.decode(text.utf8) {
        case .success(let bytes):
            if let expected, bytes.count != expected {
                throw error(
                    .base64, field: field, offset: positionInField(0),
                    "\(what) decodes to \(bytes.count) byte(s) instead of \(expected) (misplaced padding)")
            }
            return bytes
        case .failure(let bad):
            throw error(
                .base64, field: field, offset: positionInField(bad.index),
                "\(what) is not valid URL-safe base64: \(bad.reason)")
        }
    }

    private func decode(_ parsed: ParsedURL, options: DecodeOptions) throws -> TemperatureLog {
        let (version, formatCode) = try readVersion(parsed)
        let withHumidity = formatCode == 1
        let status = try readStatus(parsed)
        let buffer = try CircularBuffer(try parameter("q", in: parsed), decoder: self)
        let endStop = try readEndStop(buffer)
        let pairs = try readPairs(buffer, endStop: endStop)
        var warnings: [LogWarning] = []
        let integrity = checkIntegrity(
            pairs: pairs, status: status, marker: buffer.marker, storedHash: endStop.storedHash, options: options, warnings: &warnings)
        let (interval, intervalMinutes) = try readInterval(parsed, options: options, warnings: &warnings)
        let newest = options.readTime.addingTimeInterval(-TimeInterval(endStop.elapsedMinutes * 60))
        let samples = Self.samples(pairs, withHumidity: withHumidity, newest: newest, interval: interval)

        var metadata: [String: MetadataValue] = [
            "baseURL": .text(parsed.base),
            "codecVersion": .integer(Int64(version)),
            "formatCode": .integer(Int64(formatCode)),
            "variant": withHumidity ? "temperature+humidity" : "temperature",
            "loopCount": .integer(Int64(status.loopCount)),
            "resetsAllTime": .integer(Int64(status.resetsAllTime)),
            "resetCause": .text(CuplTagFormat.describeResetCause(status.resetCause)),
            "batteryRaw": .integer(Int64(status.batteryRaw)),
            "batteryMillivolts": status.batteryRaw == 0 ? "unknown" : .number(384_000.0 / Double(status.batteryRaw)),
            "minutesElapsed": .integer(Int64(endStop.elapsedMinutes)),
            "intervalMinutes": .integer(Int64(intervalMinutes)),
            "pairCount": .integer(Int64(endStop.pairCount)),
            "endMarkerIndex": .integer(Int64(buffer.marker)),
        ]
        metadata["intervalSource"] = .text(intervalMinutes == 0 ? DecodeOptions.givenIntervalSource : "URL parameter t")
        let serial = parsed.parameters["s"].map(String.init)
        var log = TemperatureLog(
            format: .cupltag,
            logger: .init(
                tagUID: options.tagUID, vendor: "cuplTag", model: .cuplTagHDC2021(humidity: withHumidity),
                serial: serial),
            samples: samples, interval: interval, timeBase: .readTime, integrity: integrity, readTime: options.readTime,
            metadata: metadata, warnings: warnings, readTimeSource: options.readTimeSource,
            timeBaseDetail: "the newest sample is \(endStop.elapsedMinutes) min before the read time (end-stop elapsed minutes)")
        log.resolution = 165.0 / 4096  // one step of celsius(_:)
        return log
    }

    /// 1. Version and format code: the last four characters of v.
    private func readVersion(_ parsed: ParsedURL) throws -> (version: Int, formatCode: Int) {
        let v = try parameter("v", in: parsed)
        guard v.count >= 4 else {
            throw error(.malformed, field: "v", "the version parameter has \(v.count) character(s); it needs at least 4")
        }
        let vStart = v.count - 4
        let versionBytes = try base64(v.suffix(4), field: "v", what: "the version", bytes: 3) { vStart + $0 }
        let version = Int(versionBytes[0]) << 8 | Int(versionBytes[1])
        let formatCode = Int(versionBytes[2])
        guard version == 2 else {
            throw error(
                .cupltagVersion(version), field: "v",
                "codec version \(version) is not supported; ColdTap decodes cuplTag codec version 2")
        }
        guard formatCode == 1 || formatCode == 2 else {
            throw error(
                .cupltagFormat(formatCode), field: "v",
                "format code \(formatCode) is unknown; cuplTag uses 1 (temperature + humidity) or 2 (temperature only)")
        }
        return (version, formatCode)
    }

    /// 2. Status: loop count, resets, reset cause, battery.
    private struct Status {
        var loopCount: Int
        var resetsAllTime: Int
        var resetCause: UInt8
        var batteryRaw: UInt8
    }

    private func readStatus(_ parsed: ParsedURL) throws -> Status {
        let x = try parameter("x", in: parsed)
        let status = try base64(x, field: "x", what: "the status") { $0 }
        guard status.count == 6 else {
            throw error(.malformed, field: "x", "the status holds \(status.count) bytes instead of 6")
        }
        return Status(
            loopCount: Int(status[0]) | Int(status[1]) << 8, resetsAllTime: Int(status[2]) | Int(status[3]) << 8, resetCause: status[4],
            batteryRaw: status[5])
    }

    /// 3. The circular buffer q, read from just after its end marker '~' (the oldest
    /// character) round to the marker (the newest).
    private struct CircularBuffer {
        let q: [UInt8]
        let marker: Int
        let linear: [UInt8]

        init(_ text: Substring, decoder: CuplTagFormat) throws {
            q = Array(text.utf8)
            guard !q.isEmpty else {
                throw decoder.error(
                    .noCircularBuffer, field: "q",
                    "the circular buffer q is empty: the logger stopped in its error state and recorded nothing")
            }
            let buffer = q
            let markers = buffer.indices.filter { buffer[$0] == UInt8(ascii: "~") }
            guard markers.count == 1, let marker = markers.first else {
                throw decoder.error(
                    .noEndMarker(count: markers.count), field: "q",
                    markers.isEmpty
                        ? "the circular buffer has no end marker '~': the logger was started but never logged a sample, or the URL is cut short"
                        : "the circular buffer has \(markers.count) end markers '~' instead of one")
            }
            self.marker = marker
            linear = Array(buffer[(marker + 1)...] + buffer[...marker])
            guard linear.count >= 16 else {
                throw decoder.error(
                    .malformed, field: "q", offset: 0,
                    "the circular buffer is \(buffer.count) characters, too short for its 16-character end-stop")
            }
        }

        /// Where character `linearIndex` of the linear buffer is in q.
        func qIndex(_ linearIndex: Int) -> Int { (marker + 1 + linearIndex) % q.count }
    }

    /// 4. End-stop: hash (7 bytes), npairs (u16 BE), elapsed minutes (u16 LE) + '~'.
    private struct EndStop {
        var start: Int
        var storedHash: [UInt8]
        var pairCount: Int
        var elapsedMinutes: Int
    }

    private func readEndStop(_ buffer: CircularBuffer) throws -> EndStop {
        let endStopStart = buffer.linear.count - 16
        let endStop = buffer.linear[endStopStart...]
        let hashAndCount = try base64(
            Substring(decoding: endStop.prefix(12), as: UTF8.self), field: "q",
            what: "the end-stop", bytes: 9
        ) { buffer.qIndex(endStopStart + $0) }
        let elapsedText = Substring(decoding: Array(endStop.dropFirst(12).prefix(3)) + [UInt8(ascii: ".")], as: UTF8.self)
        let elapsedBytes = try base64(elapsedText, field: "q", what: "the end-stop's elapsed minutes", bytes: 2) {
            buffer.qIndex(endStopStart + 12 + $0)
        }
        return EndStop(
            start: endStopStart, storedHash: Array(hashAndCount[0..<7]), pairCount: Int(hashAndCount[7]) << 8 | Int(hashAndCount[8]),
            elapsedMinutes: Int(elapsedBytes[0]) | Int(elapsedBytes[1]) << 8)
    }

    /// 5. The valid pairs, newest first.
    private func readPairs(_ buffer: CircularBuffer, endStop: EndStop) throws -> [[UInt8]] {
        let payloadLength = endStop.start
        guard payloadLength % 8 == 0 else {
            throw error(
                .malformed, field: "q", offset: buffer.qIndex(0),
                "the circular buffer holds \(payloadLength) characters before its end-stop, not a whole number of 8-character demis (is the URL cut short?)")
        }
        let demis = payloadLength / 8
        let pairCount = endStop.pairCount
        let neededDemis = (pairCount + 1) / 2
        guard neededDemis <= demis else {
            throw error(
                .malformed, field: "q", offset: buffer.qIndex(endStop.start),
                "the end-stop says \(pairCount) pairs but the circular buffer has room for only \(demis * 2)")
        }
        var pairs: [[UInt8]] = []
        pairs.reserveCapacity(pairCount)
        var demi = demis - 1
        func pair(at linearStart: Int) throws -> [UInt8] {
            let text = Substring(decoding: buffer.linear[linearStart..<(linearStart + 4)], as: UTF8.self)
            return try base64(text, field: "q", what: "a sample pair", bytes: 3) { buffer.qIndex(linearStart + $0) }
        }
        if pairCount % 2 == 1 {
            pairs.append(try pair(at: demi * 8))
            demi -= 1
        }
        while pairs.count < pairCount {
            pairs.append(try pair(at: demi * 8 + 4))
            pairs.append(try pair(at: demi * 8))
            demi -= 1
        }
        return pairs
    }

    /// 6. Integrity: the first 7 bytes of MD5 (HMAC-MD5 with the secret) over the pairs and status.
    private func checkIntegrity(
        pairs: [[UInt8]], status: Status, marker: Int, storedHash: [UInt8], options: DecodeOptions, warnings: inout [LogWarning]
    ) -> TemperatureLog.Integrity {
        var hashInput: [UInt8] = pairs.flatMap { $0 }
        hashInput += [
            UInt8(status.loopCount >> 8), UInt8(status.loopCount & 0xFF), UInt8(status.resetsAllTime >> 8), UInt8(status.resetsAllTime & 0xFF),
            status.batteryRaw, status.resetCause, UInt8(marker >> 8 & 0xFF), UInt8(marker & 0xFF),
        ]
        let computed: [UInt8]
        let method: String
        if let secret = options.secret {
            let key = Array(secret.utf8)
            if key.count > 16 {
                warnings.append(.secretTooLong(bytes: key.count))
            }
            computed = HMACMD5.authenticationCode(key: key, message: hashInput)
            method = "HMAC-MD5"
        } else {
            computed = MD5.digest(hashInput)
            method = "MD5"
        }
        if Array(computed.prefix(7)) == storedHash {
            return .init(status: .verified, detail: .verified(method: method))
        }
        let detail = TemperatureLog.Integrity.Detail.mismatch(
            method: method, stored: storedHash, computed: Array(computed.prefix(7)),
            keyGiven: options.secret != nil)
        // Without a secret, the tag may simply sign with HMAC-MD5: the hint says to give its key.
        warnings.append(.integrityFailed(detail))
        return .init(status: .failed, detail: detail, hint: options.secret == nil ? .needsSecret : nil)
    }

    /// 7. The interval: t, else the user's (a given one that differs is said and not used).
    private func readInterval(_ parsed: ParsedURL, options: DecodeOptions, warnings: inout [LogWarning]) throws -> (TimeInterval, Int) {
        let t = try parameter("t", in: parsed)
        let intervalBytes = try base64(t, field: "t", what: "the interval") { $0 }
        guard intervalBytes.count == 2 else {
            throw error(.malformed, field: "t", "the interval holds \(intervalBytes.count) bytes instead of 2")
        }
        let intervalMinutes = Int(intervalBytes[0]) | Int(intervalBytes[1]) << 8
        var interval = TimeInterval(intervalMinutes * 60)
        if interval == 0 {
            guard let given = options.interval, given > 0 else {
                throw error(.intervalUnknown, field: "t", "the sampling interval is 0 minutes", hint: .needsInterval)
            }
            interval = given
        } else if let given = options.interval, given != interval {
            warnings.append(.givenIntervalNotUsed(given: given, used: interval, from: .url))
        }
        return (interval, intervalMinutes)
    }

    /// 8. The samples, oldest first, the newest at `newest` (a pair holds two temperatures,
    /// or a temperature and a humidity).
    private static func samples(_ pairs: [[UInt8]], withHumidity: Bool, newest: Date, interval: TimeInterval) -> [TemperatureLog.Sample] {
        var readingsNewestFirst: [(Double, Double?)] = []
        for bytes in pairs {
            let rd0 = Int(bytes[0]) << 4 | Int(bytes[2]) >> 4
            let rd1 = Int(bytes[1]) << 4 | Int(bytes[2]) & 0x0F
            if withHumidity {
                readingsNewestFirst.append((CuplTagFormat.celsius(rd0), CuplTagFormat.humidity(rd1)))
            } else {
                if rd1 != 0xFFF { readingsNewestFirst.append((CuplTagFormat.celsius(rd1), nil)) }
                readingsNewestFirst.append((CuplTagFormat.celsius(rd0), nil))
            }
        }
        var samples: [TemperatureLog.Sample] = []
        samples.reserveCapacity(readingsNewestFirst.count)
        for (age, reading) in readingsNewestFirst.enumerated().reversed() {
            samples.append(
                TemperatureLog.Sample(
                    time: newest.addingTimeInterval(-TimeInterval(age) * interval),
                    temperature: reading.0, humidity: reading.1))
        }
        return samples
    }

    /// TI HDC2021 temperature transfer function; exact in binary floating point.
    static func celsius(_ raw: Int) -> Double { Double(raw * 165) / 4096 - 40 }
    /// TI HDC2021 humidity transfer function, %RH.
    static func humidity(_ raw: Int) -> Double { Double(raw * 100) / 4096 }

    static let resetCauseNames = [
        "brownout", "supply-voltage supervisor", "watchdog", "misc", "LPM x.5 wake-up",
        "clock failure", "unused bit 6", "scan timeout",
    ]

    static func describeResetCause(_ cause: UInt8) -> String {
        let names = (0..<8).filter { cause & (1 << $0) != 0 }.map { resetCauseNames[$0] }
        let hexText = "0x" + String(format: "%02X", cause)
        return names.isEmpty ? "\(hexText) (none)" : "\(hexText) (\(names.joined(separator: ", ")))"
    }
}

func hex(_ bytes: [UInt8]) -> String { bytes.hexString(uppercase: false) }
