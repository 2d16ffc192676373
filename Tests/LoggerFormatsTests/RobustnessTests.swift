import Foundation
import NDEF
import Testing
@testable import LoggerFormats

/// Deterministic pseudo-random bytes (SplitMix64), so failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Untrusted bytes never crash a decoder: each input decodes or throws `LoggerFormatError`,
/// and a decoded log keeps every whole sample in time order.
@Suite struct RobustnessTests {
    static let read = Date(timeIntervalSince1970: 1_787_032_800)

    @Test func randomPayloadsForEveryFormat() throws {
        var random = SplitMix64(state: 0xC01D_7A9)
        for round in 0..<1500 {
            let length = Int.random(in: 0...40, using: &random)
            let payload = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &random) })
            var records = [NDEFRecord(tnf: round % 2 == 0 ? .unknown : .media,
                                      type: round % 2 == 0 ? Data() : Data("x/temp".utf8), payload: payload)]
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

    @Test func mutatedCuplTagURLs() throws {
        var random = SplitMix64(state: 42)
        let base = Array(try CuplExample.url().utf8)
        let alphabet = Array("AZaz09-_.~=&?+/%*".utf8)
        var verified = 0
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
                if log.integrity.status == .verified { verified += 1 }
            } catch is LoggerFormatError {
                continue
            }
        }
        // Mutations outside the hashed data (serial, interval, base URL, filler) still verify.
        #expect(verified > 0)
    }
}
