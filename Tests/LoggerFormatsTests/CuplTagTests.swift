import Foundation
import NDEF
import Testing

@testable import LoggerFormats

/// docs/formats/cupltag.md §7 worked example: T+RH, 5 samples, HMAC-MD5 with key ZS0Smt8LByrYNFts.
enum CuplExample {
    static let key = "ZS0Smt8LByrYNFts"
    static let scan = Date(timeIntervalSince1970: 1_712_651_700)  // 2024-04-09T08:35:00Z
    /// Oldest first (the document lists them newest first).
    static let pairs: [CuplTagEncoder.Pair] = [(1433, 1942), (1432, 1953), (1432, 1959), (1426, 1948), (1429, 1947)]
        .map { CuplTagEncoder.Pair(rd0: $0.0, rd1: $0.1) }
    static let encoder = CuplTagEncoder(
        variant: .temperatureHumidity, baseURL: "t.plotsensor.com", serial: "AAAACCCC",
        intervalMinutes: 12, resetsAllTime: 1, resetCause: 0x08, batteryRaw: 102, secret: key)

    static func url(secret: String? = key) throws -> String {
        var encoder = encoder
        encoder.secret = secret
        return try encoder.url(pairs: pairs, minutesElapsed: 4)
    }

    static func options(secret: String? = key) -> DecodeOptions {
        DecodeOptions(readTime: scan, readTimeSource: .given, secret: secret)
    }

    static func query(_ url: String, _ key: String) -> String {
        guard let range = url.range(of: "&\(key)=") ?? url.range(of: "?\(key)=") else { return "" }
        return String(url[range.upperBound...].prefix { $0 != "&" })
    }

    static func replacing(_ url: String, _ key: String, with value: String) -> String {
        guard let range = url.range(of: "&\(key)=") ?? url.range(of: "?\(key)=") else { return url }
        let end = url[range.upperBound...].firstIndex(of: "&") ?? url.endIndex
        return url.replacingCharacters(in: range.upperBound..<end, with: value)
    }
}

@Suite struct CuplTagEncoderTests {
    @Test func workedExampleLayout() throws {
        let url = try CuplExample.url()
        #expect(url.hasPrefix("https://t.plotsensor.com/?t=DAA.&s=AAAACCCC&v=000000000000AAIB&x=AAABAAhm&q="))
        let q = CuplExample.query(url, "q")
        #expect(q.count == 768)
        #expect(q.hasPrefix("WXmWWXqBWXqHWXksWXlbAAAA1hdJpWG8CgAFBAA~MDAwMDAw"))
        #expect(q.dropFirst(40) == Substring(String(repeating: "MDAw", count: 182)))
        // v's zero run: k = (12 − 16) mod 16 = 12.
        #expect(CuplExample.query(url, "v") == String(repeating: "0", count: 12) + "AAIB")
    }

    /// docs/formats/cupltag.md §1: tag memory pages 4–7 of the worked example (TLV aside, which the tag layer writes).
    @Test func workedExampleRecordBytes() throws {
        let message = try CuplExample.encoder.message(pairs: CuplExample.pairs, minutesElapsed: 4)
        let bytes = Array(message.serialized())
        #expect(bytes.count == 0x034C)
        #expect(Array(bytes.prefix(12)) == [0xC1, 0x01, 0x00, 0x00, 0x03, 0x45, 0x55, 0x04, 0x74, 0x2E, 0x70, 0x6C])
        // preamble 52 + 16 + 12 = 80 bytes = 5 blocks; message = 16 × (5 + 48) − 4.
        #expect(bytes.count == 16 * (5 + 48) - 4)
    }

    @Test func paddingRunAlignsTheBufferForOtherBaseURLs() throws {
        var encoder = CuplExample.encoder
        encoder.baseURL = "log.example.org"
        let url = try encoder.url(pairs: CuplExample.pairs, minutesElapsed: 4)
        #expect(CuplExample.query(url, "v").hasPrefix(String(repeating: "0", count: 13) + "AAIB"))
        let preamble = 52 + 15 + 13
        #expect(preamble % 16 == 0)
        // Bytes from the TLV tag (4 bytes before the record) to the start of q.
        let qStart = url.range(of: "&q=")!.upperBound
        #expect(4 + 8 + url.utf8.distance(from: url.utf8.index(url.startIndex, offsetBy: 8), to: qStart.samePosition(in: url.utf8)!) == preamble)
    }

    /// docs/formats/cupltag.md §4 wrap-around example: 193 T+RH samples, loop 1, ~ at 23, npairs 187.
    @Test func wrapAroundLayout() throws {
        let uocu = CuplTagEncoder.Pair(rd0: 0x522, rd1: 0x87E)  // "Uocu": 52 87 2e
        var pairs = (0..<193).map { CuplTagEncoder.Pair(rd0: 1000 + $0, rd1: 2000 + $0) }
        pairs[192] = uocu
        pairs[6] = CuplTagEncoder.Pair(rd0: 1338, rd1: 2284)
        let encoder = CuplTagEncoder(
            variant: .temperatureHumidity, serial: "AAAACCCC", intervalMinutes: 60, resetsAllTime: 0,
            resetCause: 0x08, batteryRaw: 72)
        let buffer = try encoder.circularBuffer(pairs: pairs, minutesElapsed: 59)
        #expect(buffer.endMarkerIndex == 23)
        #expect(buffer.validPairCount == 187)
        #expect(buffer.loopCount == 1)
        #expect(buffer.q.hasPrefix("UocuAAAA"))
        #expect(Array(buffer.q.utf8)[20..<24].elementsEqual("OwA~".utf8))
        #expect(Array(buffer.q.utf8)[24..<28].elementsEqual("U46s".utf8))
        let url = try encoder.url(pairs: pairs, minutesElapsed: 59)
        #expect(CuplExample.query(url, "x") == "AQAAAABI")  // loop 1, resets 0, cause cleared, battery 72

        let log = try LoggerDecoder.decode(url: url, options: DecodeOptions(readTime: CuplExample.scan))
        #expect(log.integrity.status == .verified)
        #expect(log.integrity.detail == .verified(method: "MD5"))
        #expect(log.samples.count == 187)
        #expect(log.samples.first?.temperature == Double(1338 * 165) / 4096 - 40)
        #expect(log.samples.first?.humidity == Double(2284 * 100) / 4096)
        #expect(log.samples.last?.temperature == Double(0x522 * 165) / 4096 - 40)
        #expect(log.samples.last?.time == CuplExample.scan.addingTimeInterval(-59 * 60))
        #expect(log.samples.first?.time == CuplExample.scan.addingTimeInterval(-59 * 60 - 186 * 3600))
        #expect(log.metadata["loopCount"] == "1")
        #expect(log.metadata["endMarkerIndex"] == "23")
        #expect(log.metadata["pairCount"] == "187")
    }

    /// npairs alternates 187/188 once the 94-demi payload is full.
    @Test(arguments: [(187, 187, 0), (188, 188, 0), (189, 187, 0), (190, 188, 0), (192, 188, 0), (193, 187, 1), (400, 188, 2)])
    func validPairCountOnceFull(pushed: Int, valid: Int, loop: Int) throws {
        let pairs = (0..<pushed).map { CuplTagEncoder.Pair(rd0: $0 % 4000, rd1: 100) }
        let buffer = try CuplExample.encoder.circularBuffer(pairs: pairs, minutesElapsed: 0)
        #expect(buffer.validPairCount == valid)
        #expect(buffer.loopCount == loop)
        #expect(buffer.endMarkerIndex.map { $0 % 8 } == 7)
    }

    @Test func emptyBufferHasNoEndMarker() throws {
        let buffer = try CuplExample.encoder.circularBuffer(pairs: [], minutesElapsed: 0)
        #expect(buffer.endMarkerIndex == nil)
        #expect(buffer.q == String(repeating: "MDAw", count: 192))
    }

    @Test func encoderRefusesWhatTheFormatCannotHold() {
        var encoder = CuplExample.encoder
        encoder.serial = "short"
        #expect(throws: LoggerEncodingError.self) { try encoder.url(pairs: CuplExample.pairs, minutesElapsed: 0) }
        encoder = CuplExample.encoder
        encoder.intervalMinutes = 0
        #expect(throws: LoggerEncodingError.self) { try encoder.url(pairs: CuplExample.pairs, minutesElapsed: 0) }
        #expect(throws: LoggerEncodingError.self) { try CuplExample.encoder.url(pairs: CuplExample.pairs, minutesElapsed: 70000) }
    }
}

@Suite struct CuplTagDecoderTests {
    @Test func workedExampleVerifiesWithHMAC() throws {
        let log = try LoggerDecoder.decode(url: try CuplExample.url(), options: CuplExample.options())
        #expect(log.format == "cupltag")
        #expect(log.integrity == .init(status: .verified, detail: .verified(method: "HMAC-MD5")))
        #expect(log.interval == 720)
        #expect(log.timeBase == .readTime)
        #expect(log.logger.serial == "AAAACCCC")
        let expected: [(String, Int, Int)] = [
            ("07:43", 1433, 1942), ("07:55", 1432, 1953), ("08:07", 1432, 1959),
            ("08:19", 1426, 1948), ("08:31", 1429, 1947),
        ]
        #expect(log.samples.count == 5)
        for (sample, (clock, t, rh)) in zip(log.samples, expected) {
            #expect(sample.time.loggerISOText == "2024-04-09T\(clock):00Z")
            #expect(sample.temperature == Double(t * 165) / 4096 - 40)
            #expect(sample.humidity == Double(rh * 100) / 4096)
            #expect(sample.flags.isEmpty)
        }
        #expect(log.samples.last?.temperature == 17.564697265625)
        #expect(log.samples.last?.humidity == 47.5341796875)
        #expect(log.metadata["batteryMillivolts"] == "3764.705882352941")
        #expect(log.metadata["resetCause"] == "0x08 (misc)")
        #expect(log.metadata["resetsAllTime"] == "1")
        #expect(log.metadata["loopCount"] == "0")
        #expect(log.metadata["minutesElapsed"] == "4")
        #expect(log.metadata["endMarkerIndex"] == "39")
        #expect(log.warnings.isEmpty)
    }

    @Test func plainMD5WithoutSecretFailsOnAnHMACTagButKeepsSamples() throws {
        let log = try LoggerDecoder.decode(url: try CuplExample.url(), options: CuplExample.options(secret: nil))
        #expect(log.integrity.status == .failed)
        #expect(log.integrity.detail.text.contains("MD5 mismatch: the end-stop holds d61749a561bc0a"))
        // The decoder suggests the secret as a value; the command line and the app word it.
        #expect(log.integrity.hint == .needsSecret)
        #expect(!log.integrity.detail.text.contains("--"))
        #expect(log.samples.count == 5)
        #expect(log.warnings.contains { $0.text.contains("integrity check failed") })
    }

    @Test func wrongSecretFails() throws {
        let log = try LoggerDecoder.decode(url: try CuplExample.url(), options: CuplExample.options(secret: "not-the-key"))
        #expect(log.integrity.status == .failed)
        #expect(log.integrity.detail.text.hasPrefix("HMAC-MD5 mismatch"))
        #expect(log.samples.count == 5)
    }

    @Test func md5SignedTagVerifiesWithoutSecret() throws {
        let log = try LoggerDecoder.decode(url: try CuplExample.url(secret: nil), options: CuplExample.options(secret: nil))
        #expect(log.integrity == .init(status: .verified, detail: .verified(method: "MD5")))
    }

    @Test func tamperedSampleFailsIntegrity() throws {
        let url = try CuplExample.url()
        let tampered = url.replacingOccurrences(of: "WXmWWXqB", with: "WXmXWXqB")
        let log = try LoggerDecoder.decode(url: tampered, options: CuplExample.options())
        #expect(log.integrity.status == .failed)
        #expect(log.samples.count == 5)
        #expect(log.samples.first?.humidity == Double(1943 * 100) / 4096)
    }

    /// The hash does not cover t or s (docs/formats/cupltag.md §7): changing them still verifies.
    @Test func intervalAndSerialAreNotHashed() throws {
        let url = CuplExample.replacing(CuplExample.replacing(try CuplExample.url(), "t", with: "PAA."), "s", with: "ZZZZZZZZ")
        let log = try LoggerDecoder.decode(url: url, options: CuplExample.options())
        #expect(log.integrity.status == .verified)
        #expect(log.interval == 60 * 60)
        #expect(log.logger.serial == "ZZZZZZZZ")
    }

    @Test func temperatureOnlyUnpacksTwoReadingsPerPair() throws {
        let temperatures = [4.0, 4.5, 5.0, 5.5, 6.0]
        let raw = temperatures.map(CuplTagEncoder.rawTemperature)
        let encoder = CuplTagEncoder(variant: .temperatureOnly, serial: "TONLY001", intervalMinutes: 10)
        let pairs = try encoder.pairs(temperatureRaw: raw, humidityRaw: nil)
        #expect(pairs.count == 3)
        #expect(pairs[2] == CuplTagEncoder.Pair(rd0: raw[4], rd1: 0xFFF))
        let url = try encoder.url(pairs: pairs, minutesElapsed: 3)
        let log = try LoggerDecoder.decode(url: url, options: CuplExample.options(secret: nil))
        #expect(log.integrity.status == .verified)
        #expect(log.samples.count == 5)
        #expect(log.samples.map { $0.temperature ?? .nan } == raw.map { Double($0 * 165) / 4096 - 40 })
        #expect(log.samples.allSatisfy { $0.humidity == nil })
        #expect(log.samples.last?.time == CuplExample.scan.addingTimeInterval(-180))
        #expect(log.samples.first?.time == CuplExample.scan.addingTimeInterval(-180 - 4 * 600))
        #expect(log.metadata["variant"] == "temperature")
    }

    /// docs/formats/cupltag.md §5 quirk: a genuine 4095 in a pair's second slot reads as "not taken".
    @Test func temperatureOnlyFullScaleSecondReadingIsLost() throws {
        let encoder = CuplTagEncoder(variant: .temperatureOnly, serial: "TONLY001", intervalMinutes: 10)
        let url = try encoder.url(pairs: [CuplTagEncoder.Pair(rd0: 1000, rd1: 4095)], minutesElapsed: 0)
        let log = try LoggerDecoder.decode(url: url, options: CuplExample.options(secret: nil))
        #expect(log.samples.count == 1)
        #expect(log.samples[0].temperature == Double(1000 * 165) / 4096 - 40)
    }

    @Test func batteryRawZeroIsUnknown() throws {
        var encoder = CuplExample.encoder
        encoder.batteryRaw = 0
        let log = try LoggerDecoder.decode(
            url: try encoder.url(pairs: CuplExample.pairs, minutesElapsed: 0),
            options: CuplExample.options())
        #expect(log.metadata["batteryMillivolts"] == "unknown")
        #expect(log.integrity.status == .verified)
    }

    @Test func httpSchemeUsesIdentifierCode3() throws {
        var encoder = CuplExample.encoder
        encoder.https = false
        let message = try encoder.message(pairs: CuplExample.pairs, minutesElapsed: 4)
        #expect(message.records[0].payload.first == 3)
        let log = try LoggerDecoder.decode(message, options: CuplExample.options())
        #expect(log.integrity.status == .verified)
        #expect(log.metadata["baseURL"] == "http://t.plotsensor.com")
    }

    @Test func secretLongerThan16BytesWarns() throws {
        let log = try LoggerDecoder.decode(url: try CuplExample.url(), options: CuplExample.options(secret: String(repeating: "k", count: 20)))
        #expect(log.integrity.status == .failed)
        #expect(log.warnings.contains { $0.text.contains("at most 16") })
    }

    // MARK: Error categories of docs/formats/cupltag.md §8

    func decodeError(_ url: String, secret: String? = CuplExample.key) -> LoggerFormatError? {
        do {
            _ = try LoggerDecoder.decode(url: url, options: CuplExample.options(secret: secret))
            return nil
        } catch let error as LoggerFormatError {
            return error
        } catch {
            return nil
        }
    }

    @Test func versionError() throws {
        let error = decodeError(CuplExample.replacing(try CuplExample.url(), "v", with: "000000000000AAMB"))
        #expect(error?.kind == .cupltagVersion(3))
        #expect(error?.description.contains("codec version 3 is not supported") == true)
        #expect(error?.field == "v")
    }

    @Test func formatError() throws {
        let error = decodeError(CuplExample.replacing(try CuplExample.url(), "v", with: "000000000000AAID"))
        #expect(error?.kind == .cupltagFormat(3))
        #expect(error?.description.contains("format code 3 is unknown") == true)
    }

    /// Version is checked before the status, so a bad version wins over a bad x (§8 order).
    @Test func versionErrorWinsOverBase64Error() throws {
        let url = CuplExample.replacing(CuplExample.replacing(try CuplExample.url(), "v", with: "AAMB"), "x", with: "AA*BAAhm")
        #expect(decodeError(url)?.kind == .cupltagVersion(3))
    }

    @Test func base64ErrorInStatusNamesTheCharacter() throws {
        let error = decodeError(CuplExample.replacing(try CuplExample.url(), "x", with: "AA*BAAhm"))
        #expect(error?.kind == .base64)
        #expect(error?.field == "x")
        #expect(error?.offset == 2)
        #expect(error?.description == "cupltag: x at offset 2: the status is not valid URL-safe base64: '*' is not a URL-safe base64 character")
    }

    @Test func base64ErrorInEndStopAndPair() throws {
        let url = try CuplExample.url()
        let badEndStop = url.replacingOccurrences(of: "1hdJpWG8", with: "1hd+pWG8")
        let endStopError = decodeError(badEndStop)
        #expect(endStopError?.kind == .base64)
        #expect(endStopError?.offset == 27)  // q index of '+'
        let badPair = url.replacingOccurrences(of: "WXqHWXks", with: "WX!HWXks")
        let pairError = decodeError(badPair)
        #expect(pairError?.kind == .base64)
        #expect(pairError?.offset == 10)
    }

    @Test func noCircularBuffer() throws {
        let error = decodeError(CuplExample.replacing(try CuplExample.url(), "q", with: ""))
        #expect(error?.kind == .noCircularBuffer)
        #expect(error?.description.contains("error state") == true)
    }

    @Test func noEndMarker() throws {
        let url = try CuplExample.url()
        let none = decodeError(url.replacingOccurrences(of: "BAA~", with: "BAAA"))
        #expect(none?.kind == .noEndMarker(count: 0))
        #expect(none?.description.contains("never logged a sample") == true)
        let two = decodeError(String(url.dropLast(8)) + "MDAwMDA~")
        #expect(two?.kind == .noEndMarker(count: 2))
        // A tag initialised but never started: the encoder's empty buffer.
        let empty = try CuplExample.encoder.url(pairs: [], minutesElapsed: 0)
        #expect(decodeError(empty)?.kind == .noEndMarker(count: 0))
    }

    @Test func truncatedBufferIsMalformed() throws {
        let url = try CuplExample.url()
        let error = decodeError(String(url.dropLast(3)))
        #expect(error?.kind == .malformed)
        #expect(error?.description.contains("not a whole number of 8-character demis") == true)
    }

    @Test func tooManyPairsIsMalformed() throws {
        // An end-stop claiming 0xFFFF pairs: "1hdJpWG8Cv__" keeps the hash bytes, npairs = 0xBFFF.
        let url = try CuplExample.url().replacingOccurrences(of: "1hdJpWG8CgAF", with: "1hdJpWG8C___")
        let error = decodeError(url)
        #expect(error?.kind == .malformed)
        #expect(error?.description.contains("room for only") == true)
    }

    @Test func missingParameterIsMalformed() throws {
        let url = try CuplExample.url().replacingOccurrences(of: "&x=AAABAAhm", with: "")
        let error = decodeError(url)
        #expect(error?.kind == .malformed)
        #expect(error?.field == "x")
    }

    @Test func zeroIntervalNeedsTheUsersInterval() throws {
        let url = CuplExample.replacing(try CuplExample.url(), "t", with: "AAA.")
        #expect(decodeError(url)?.kind == .intervalUnknown)
        var options = CuplExample.options()
        options.interval = 300
        let log = try LoggerDecoder.decode(url: url, options: options)
        #expect(log.interval == 300)
    }

    @Test func integrityCategoryIsAFailedLogNotAnError() throws {
        let log = try LoggerDecoder.decode(url: try CuplExample.url(), options: CuplExample.options(secret: "wrong"))
        #expect(log.integrity.status == .failed)
    }

    @Test func messageDecodeDetectsCuplTag() throws {
        let message = try CuplExample.encoder.message(pairs: CuplExample.pairs, minutesElapsed: 4)
        let parsed = try NDEFParser.message(from: message.serialized())
        let log = try LoggerDecoder.decode(parsed, options: CuplExample.options())
        #expect(log.detection?.text.hasPrefix("auto-detected cupltag: a URI record") == true)
        #expect(log.samples.count == 5)
        #expect(log.integrity.status == .verified)
    }
}
