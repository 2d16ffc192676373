import Foundation
import NDEF

/// Builds the URL a cuplTag (codec version 2) writes to its tag, laid out as docs/formats/cupltag.md
/// describes: the `0` padding run in `v` that block-aligns `q`, the 96-demi circular
/// buffer with its `MDAw` filler, the end-stop after the cursor demi (wrapping round),
/// `npairs` alternating 187/188 once full, the loop count, and the MD5 / HMAC-MD5 hash.
public struct CuplTagEncoder: Sendable {
    public enum Variant: Sendable, Equatable {
        /// Format code 1: one temperature + humidity sample per pair.
        case temperatureHumidity
        /// Format code 2: two temperature readings per pair.
        case temperatureOnly

        var formatCode: UInt8 { self == .temperatureHumidity ? 1 : 2 }
    }

    public var variant: Variant
    /// Host and path without scheme, e.g. `t.plotsensor.com`.
    public var baseURL: String
    /// `https://` (URI code 4) or `http://` (code 3).
    public var https: Bool
    /// The 8-character serial (`s`), URL-safe characters.
    public var serial: String
    /// Sampling interval in minutes (1…65535).
    public var intervalMinutes: Int
    /// MCU reset counter (status `x`).
    public var resetsAllTime: Int
    /// Reset-cause bits (docs/formats/cupltag.md §6); the firmware clears them after the first loop.
    public var resetCause: UInt8
    /// Battery raw value: millivolts = 384000 / raw.
    public var batteryRaw: UInt8
    /// HMAC-MD5 key (ASCII, at most 16 bytes); `nil` signs with plain MD5.
    public var secret: String?

    public init(
        variant: Variant, baseURL: String = "t.plotsensor.com", https: Bool = true, serial: String = "CT000001",
        intervalMinutes: Int, resetsAllTime: Int = 0, resetCause: UInt8 = 0, batteryRaw: UInt8 = 102,
        secret: String? = nil
    ) {
        self.variant = variant
        self.baseURL = baseURL
        self.https = https
        self.serial = serial
        self.intervalMinutes = intervalMinutes
        self.resetsAllTime = resetsAllTime
        self.resetCause = resetCause
        self.batteryRaw = batteryRaw
        self.secret = secret
    }

    /// One 12-bit reading pair as stored: `rd0` then `rd1`.
    public struct Pair: Sendable, Equatable {
        public var rd0: Int
        public var rd1: Int
        public init(rd0: Int, rd1: Int) {
            self.rd0 = rd0
            self.rd1 = rd1
        }

        var bytes: [UInt8] {
            [UInt8(rd0 >> 4 & 0xFF), UInt8(rd1 >> 4 & 0xFF), UInt8((rd0 & 0xF) << 4 | (rd1 & 0xF))]
        }
    }

    /// HDC2021 raw temperature code nearest to `celsius`, clamped to 0…4095.
    public static func rawTemperature(_ celsius: Double) -> Int {
        guard celsius.isFinite else { return 0 }
        return Int(min(4095, max(0, ((celsius + 40) * 4096 / 165).rounded())))
    }

    /// HDC2021 raw humidity code nearest to `percent`, clamped to 0…4095.
    public static func rawHumidity(_ percent: Double) -> Int {
        guard percent.isFinite else { return 0 }
        return Int(min(4095, max(0, (percent * 4096 / 100).rounded())))
    }

    /// The pairs a logger stores for these readings, oldest first. T+RH: one per sample;
    /// T only: two readings per pair, the second slot 0xFFF until it is taken.
    public func pairs(temperatureRaw: [Int], humidityRaw: [Int]?) throws -> [Pair] {
        switch variant {
        case .temperatureHumidity:
            guard let humidityRaw, humidityRaw.count == temperatureRaw.count else {
                throw LoggerEncodingError("a temperature + humidity cuplTag needs one humidity per temperature")
            }
            return zip(temperatureRaw, humidityRaw).map { Pair(rd0: $0 & 0xFFF, rd1: $1 & 0xFFF) }
        case .temperatureOnly:
            return stride(from: 0, to: temperatureRaw.count, by: 2).map { index in
                Pair(
                    rd0: temperatureRaw[index] & 0xFFF,
                    rd1: index + 1 < temperatureRaw.count ? temperatureRaw[index + 1] & 0xFFF : 0xFFF)
            }
        }
    }

    /// The circular buffer after the logger pushed `pairs` (oldest first).
    public struct CircularBuffer: Sendable, Equatable {
        /// The 768-character `q` value.
        public var q: String
        /// Index of `~` in `q`, or `nil` when no sample was ever pushed.
        public var endMarkerIndex: Int?
        /// Pairs the end-stop declares valid.
        public var validPairCount: Int
        /// Times the cursor wrapped from demi 95 to demi 0.
        public var loopCount: Int
        /// Hash (first 7 digest bytes) written in the end-stop.
        public var hashPrefix: [UInt8]
    }

    static let demis = 96

    /// Lays out the circular buffer as the firmware leaves it.
    /// - Throws: `LoggerEncodingError` when `minutesElapsed` is outside 0…65535.
    public func circularBuffer(pairs: [Pair], minutesElapsed: Int) throws -> CircularBuffer {
        guard (0...65535).contains(minutesElapsed) else {
            throw LoggerEncodingError("minutes elapsed must be 0…65535, not \(minutesElapsed)")
        }
        var buffer = Array(String(repeating: "MDAw", count: CuplTagEncoder.demis * 2).utf8)
        guard !pairs.isEmpty else {
            return CircularBuffer(
                q: String(decoding: buffer, as: UTF8.self), endMarkerIndex: nil, validPairCount: 0,
                loopCount: 0, hashPrefix: [])
        }
        let demisWritten = (pairs.count + 1) / 2
        let cursor = (demisWritten - 1) % CuplTagEncoder.demis
        let loopCount = (demisWritten - 1) / CuplTagEncoder.demis
        for absolute in 0..<demisWritten {
            let start = (absolute % CuplTagEncoder.demis) * 8
            let older = CuplBase64.encode(pairs[2 * absolute].bytes)
            let newer = 2 * absolute + 1 < pairs.count ? CuplBase64.encode(pairs[2 * absolute + 1].bytes) : "AAAA"
            buffer.replaceSubrange(start..<(start + 8), with: Array((older + newer).utf8))
        }
        let validPairs = pairs.count <= 188 ? pairs.count : (pairs.count % 2 == 1 ? 187 : 188)
        let marker = ((cursor + 2) % CuplTagEncoder.demis) * 8 + 7
        let status = self.status(loopCount: loopCount)
        var hashInput: [UInt8] = pairs.suffix(validPairs).reversed().flatMap(\.bytes)
        hashInput += [
            UInt8(loopCount >> 8 & 0xFF), UInt8(loopCount & 0xFF), UInt8(resetsAllTime >> 8 & 0xFF),
            UInt8(resetsAllTime & 0xFF), batteryRaw, status.resetCause, UInt8(marker >> 8), UInt8(marker & 0xFF),
        ]
        let digest = secret.map { HMACMD5.authenticationCode(key: Array($0.utf8), message: hashInput) } ?? MD5.digest(hashInput)
        let hashPrefix = Array(digest.prefix(7))
        let endStop =
            CuplBase64.encode(hashPrefix + [UInt8(validPairs >> 8), UInt8(validPairs & 0xFF)])
            + String(CuplBase64.encode([UInt8(minutesElapsed & 0xFF), UInt8(minutesElapsed >> 8)]).prefix(3)) + "~"
        let endStopBytes = Array(endStop.utf8)
        for half in 0..<2 {
            let start = ((cursor + 1 + half) % CuplTagEncoder.demis) * 8
            buffer.replaceSubrange(start..<(start + 8), with: endStopBytes[(half * 8)..<(half * 8 + 8)])
        }
        return CircularBuffer(
            q: String(decoding: buffer, as: UTF8.self), endMarkerIndex: marker,
            validPairCount: validPairs, loopCount: loopCount, hashPrefix: hashPrefix)
    }

    /// After the first loop the firmware re-writes the status with the reset cause cleared.
    private func status(loopCount: Int) -> (loopCount: Int, resetCause: UInt8) {
        (loopCount, loopCount > 0 ? 0 : resetCause)
    }

    /// The URL (with scheme) for these pairs.
    /// - Throws: `LoggerEncodingError` for a serial that is not 8 URL-safe characters, an
    ///   interval outside 1…65535 minutes, a secret over 16 bytes or a bad `minutesElapsed`.
    public func url(pairs: [Pair], minutesElapsed: Int) throws -> String {
        let serialBytes = Array(serial.utf8)
        guard serialBytes.count == 8, serialBytes.allSatisfy({ CuplBase64.lookup[Int($0)] >= 0 }) else {
            throw LoggerEncodingError("a cuplTag serial is 8 URL-safe characters (A–Z a–z 0–9 - _), not '\(serial)'")
        }
        guard (1...65535).contains(intervalMinutes) else {
            throw LoggerEncodingError("a cuplTag interval is 1…65535 whole minutes, not \(intervalMinutes)")
        }
        if let secret, secret.utf8.count > 16 {
            throw LoggerEncodingError("a cuplTag secret is at most 16 bytes")
        }
        let buffer = try circularBuffer(pairs: pairs, minutesElapsed: minutesElapsed)
        let status = self.status(loopCount: buffer.loopCount)
        let padding = ((12 - baseURL.utf8.count) % 16 + 16) % 16
        let t = CuplBase64.encode([UInt8(intervalMinutes & 0xFF), UInt8(intervalMinutes >> 8)])
        let v = String(repeating: "0", count: padding) + CuplBase64.encode([0, 2, variant.formatCode])
        let x = CuplBase64.encode([
            UInt8(status.loopCount & 0xFF), UInt8(status.loopCount >> 8 & 0xFF),
            UInt8(resetsAllTime & 0xFF), UInt8(resetsAllTime >> 8 & 0xFF),
            status.resetCause, batteryRaw,
        ])
        return (https ? "https://" : "http://") + baseURL + "/?t=\(t)&s=\(serial)&v=\(v)&x=\(x)&q=\(buffer.q)"
    }

    /// The one-record NDEF message of the tag: a URI record with identifier code 4 (`https://`)
    /// or 3 (`http://`) and the rest of the URL.
    public func message(pairs: [Pair], minutesElapsed: Int) throws -> NDEFMessage {
        let url = try url(pairs: pairs, minutesElapsed: minutesElapsed)
        let scheme = https ? "https://" : "http://"
        var payload = Data([https ? 4 : 3])
        payload.append(contentsOf: Array(url.utf8.dropFirst(scheme.utf8.count)))
        return NDEFMessage(records: [NDEFRecord(tnf: .wellKnown, type: "U", payload: payload)])
    }
}
