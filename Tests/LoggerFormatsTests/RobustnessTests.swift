import Foundation
import NDEF
import TestSupport
import Testing

@testable import LoggerFormats

/// Untrusted bytes never crash a decoder: each input decodes or throws `LoggerFormatError`,
/// and a decoded log keeps every whole sample in time order.
@Suite struct RobustnessTests {
    static let read = Date(timeIntervalSince1970: 1_787_032_800)

    @Test func randomPayloadsForEveryFormat() throws {
        var random = SeededGenerator(seed: 0xC01D_7A9)
        for round in 0..<1500 {
            let length = Int.random(in: 0...40, using: &random)
            let payload = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &random) })
            var records = [
                NDEFRecord(
                    tnf: round % 2 == 0 ? .unknown : .media,
                    type: round % 2 == 0 ? Data() : Data("x/temp".utf8), payload: payload)
            ]
            if round % 3 == 0 { records.insert(TextRecord(text: "INTERVAL=\(round % 7)\nSTART=\(round)").record, at: 0) }
            let message = NDEFMessage(records: records)
            for logger in [nil, "generic16", "generic16-unix", "dtn1", "cupltag"] as [String?] {
                let options = DecodeOptions(readTime: Self.read, logger: logger.map { .named($0) }, interval: round % 5 == 0 ? nil : 60)
                do {
                    let log = try LoggerDecoder.decode(message, options: options)
                    #expect(zip(log.samples, log.samples.dropFirst()).allSatisfy { $0.time <= $1.time })
                } catch is LoggerFormatError {
                    continue
                }
            }
        }
    }

    /// `st.com:smartag` records with random payloads (protocol byte 1 or 2, then anything),
    /// auto-detected and forced: a log or a typed error, never a crash (docs/smartag.md).
    @Test func randomSmarTagRecords() throws {
        var random = SeededGenerator(seed: 0x57_3A6)
        for round in 0..<2000 {
            let length = Int.random(in: 1...400, using: &random)
            var payload = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            payload[0] = UInt8(1 + round % 2)
            if length > 8 && round % 3 == 0 { payload[5] = UInt8(round % 11) }  // a plausible SmarTag2 sensor count
            let record = NDEFRecord(tnf: .external, type: Data("st.com:smartag".utf8), payload: Data(payload))
            for logger in [nil, "smartag1", "smartag2"] as [String?] {
                do {
                    let log = try LoggerDecoder.decode(
                        NDEFMessage(records: [record]),
                        options: DecodeOptions(readTime: Self.read, logger: logger.map { .named($0) }))
                    #expect(zip(log.samples, log.samples.dropFirst()).allSatisfy { $0.time <= $1.time })
                } catch is LoggerFormatError {
                    continue
                }
            }
        }
    }

    @Test(.tags(.slow)) func mutatedCuplTagURLs() throws {
        var random = SeededGenerator(seed: 42)
        let base = Array(try CuplExample.url().utf8)
        let alphabet = Array("AZaz09-_.~=&?+/%*".utf8)
        var verified = 0
        let originalContent = Self.hashedContent(try LoggerDecoder.decode(url: try CuplExample.url(), options: CuplExample.options()))
        for _ in 0..<1500 {
            var url = base
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let index = Int.random(in: 0..<url.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: url[index] = alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
                case 1: url.remove(at: index)
                default: url = Array(url.prefix(index))
                }
                if url.isEmpty { url = [UInt8(ascii: "x")] }
            }
            do {
                let log = try LoggerDecoder.decode(url: String(decoding: url, as: UTF8.self), options: CuplExample.options())
                guard log.integrity.status == .verified else { continue }
                verified += 1
                // A log that verifies carries exactly the hashed data of the original: readings,
                // status and end-marker position (only unhashed fields may have changed).
                #expect(Self.hashedContent(log) == originalContent, "verified, yet hashed data changed: \(String(decoding: url, as: UTF8.self))")
            } catch is LoggerFormatError {
                continue
            }
        }
        // Mutations outside the hashed data (serial, interval, base URL, filler) still verify.
        #expect(verified > 0)
    }

    /// What the cuplTag hash covers (docs/formats/cupltag.md §7), as a decoded log shows it.
    static func hashedContent(_ log: TemperatureLog) -> [String] {
        log.samples.map { "\($0.temperature ?? .nan)/\($0.humidity ?? .nan)" }
            + ["loopCount", "resetsAllTime", "resetCause", "batteryRaw", "endMarkerIndex", "pairCount"].map { log.metadata[$0]?.text ?? "-" }
    }

    /// Every hashed character changed to any other base64 character: never verified. The
    /// valid pairs and the hash prefix in q, and the loop count, resets, reset cause and
    /// battery in x (docs/formats/cupltag.md §7).
    @Test func aChangedHashedByteNeverVerifies() throws {
        let url = try CuplExample.url()
        let q = CuplExample.query(url, "q"), x = CuplExample.query(url, "x")
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        // q: 5 pairs in demis "WXmWWXqB WXqHWXks WXlb" (0..<20), end-stop hash + npairs (24..<36).
        let hashedInQ = Array(0..<20) + Array(24..<36)
        var tried = 0
        for (field, value, positions) in [("q", q, hashedInQ), ("x", x, Array(0..<8))] {
            let characters = Array(value)
            for position in positions {
                for replacement in alphabet where replacement != characters[position] {
                    var changed = characters
                    changed[position] = replacement
                    let mutated = CuplExample.replacing(url, field, with: String(changed))
                    tried += 1
                    do {
                        let log = try LoggerDecoder.decode(url: mutated, options: CuplExample.options())
                        #expect(log.integrity.status == .failed, "\(field)[\(position)] = \(replacement) still verifies")
                    } catch is LoggerFormatError {
                        // Refused outright (e.g. a changed npairs no longer fits): not verified either.
                    }
                }
            }
        }
        #expect(tried == (32 + 8) * 63)
        // The untouched URL does verify: the check above can fail.
        #expect(try LoggerDecoder.decode(url: url, options: CuplExample.options()).integrity.status == .verified)
    }
}
