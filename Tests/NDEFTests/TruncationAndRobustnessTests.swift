import Foundation
import TestSupport
import Testing

@testable import NDEF

@Suite struct TruncationAndRobustnessTests {
    /// Valid messages of every kind, some chunked, some with long records.
    static func sampleMessages() -> [(NDEFMessage, Data)] {
        var rng = SeededGenerator(seed: 7)
        return (0..<40).map { index in
            let message = NDEFMessage(records: Generate.message(&rng, maxRecords: 4).map(\.record))
            return (message, message.serialized(maxChunkSize: index % 3 == 0 ? 17 : nil))
        }
    }

    @Test func truncationAtEveryByteFailsStrictlyAndKeepsWholeRecordsLeniently() throws {
        for (message, bytes) in Self.sampleMessages() {
            // Every byte of short messages; in long ones (up to 70 kB payloads) the first and
            // last 512 bytes and every 499th byte between.
            let lengths =
                bytes.count <= 2048
                ? Array(0..<bytes.count)
                : Array(0..<512) + Array(stride(from: 512, to: bytes.count - 512, by: 499)) + Array((bytes.count - 512)..<bytes.count)
            // Plain checks in the loop (an #expect per prefix is slow in debug builds); the
            // first failing prefix length is reported.
            var firstFailure: Int?
            for length in lengths {
                let prefix = bytes.prefix(length)
                var ok: Bool
                do {
                    _ = try NDEFParser.parse(prefix)
                    ok = false
                } catch let error as NDEFError {
                    ok = error.offset >= 0 && error.offset <= length
                }
                // Lenient: either nothing is recoverable, or the recovered records are the
                // original's first records (the last one possibly a partial chunked record).
                if let result = try? NDEFParser.parse(prefix, mode: .lenient) {
                    let kept = result.message.records
                    ok = ok && !result.warnings.isEmpty && kept.count <= message.records.count
                    for (index, record) in kept.enumerated() where ok {
                        let original = message.records[index]
                        if index < kept.count - 1 {
                            ok = record == original
                        } else {
                            ok =
                                record.type == original.type && record.payload.count <= original.payload.count
                                && record.payload == original.payload.prefix(record.payload.count)
                        }
                        _ = record.content
                    }
                }
                if !ok && firstFailure == nil { firstFailure = length }
            }
            #expect(firstFailure == nil, "prefix of \(firstFailure ?? 0) of \(bytes.count) bytes")
        }
    }

    @Test(.tags(.slow)) func mutatedAndRandomInputsNeverCrash() {
        var rng = SeededGenerator(seed: 99)
        let samples = Self.sampleMessages().map(\.1).filter { $0.count < 4096 }
        var parsedStrict = 0
        for round in 0..<20_000 {
            var bytes: [UInt8]
            if round % 4 == 0 {
                bytes = (0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            } else {
                bytes = Array(samples[round % samples.count])
                for _ in 0..<Int.random(in: 1...4, using: &rng) where !bytes.isEmpty {
                    let position = Int.random(in: 0..<bytes.count, using: &rng)
                    bytes[position] = UInt8.random(in: 0...255, using: &rng)
                }
            }
            let data = Data(bytes)
            if (try? NDEFParser.parse(data)) != nil { parsedStrict += 1 }
            if let result = try? NDEFParser.parse(data, mode: .lenient) {
                for record in result.message.records {
                    _ = record.content
                    _ = try? record.decodedContent(mode: .strict)
                }
                // What lenient parsing recovered can be written out again.
                _ = result.message.serialized()
            }
        }
        #expect(parsedStrict > 0)
    }

    @Test func deeplyNestedSmartPostersAreBounded() {
        var payload = URIRecord(uri: "https://a").record
        for _ in 0..<50 {
            payload = NDEFRecord(tnf: .wellKnown, type: "Sp", payload: NDEFMessage(records: [payload]).serialized())
        }
        let bytes = NDEFMessage(records: [payload]).serialized()
        #expect(throws: NDEFError.self) { try NDEFParser.parse(bytes) }
        #expect((try? NDEFParser.parse(bytes, mode: .lenient))?.message.records.count == 1)
    }
}

@Suite struct FastPathTests {
    /// The strict fast path must accept exactly what the full reader accepts (or defer to it).
    @Test(.tags(.slow)) func fastPathAgreesWithTheFullReader() {
        var rng = SeededGenerator(seed: 1234)
        let samples = (0..<60).map { _ in NDEFMessage(records: Generate.message(&rng, maxRecords: 4).map(\.record)).serialized() }
            .filter { $0.count < 2048 }
        var fastAccepted = 0
        var disagreements = 0
        for round in 0..<20_000 {
            var bytes = Array(samples[round % samples.count])
            for _ in 0..<Int.random(in: 0...3, using: &rng) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            let data = Data(bytes)
            var reader = MessageReader(data: data, diagnostics: Diagnostics(mode: .strict), checkingRecordTypes: true)
            let full = try? reader.read()
            if let fast = StrictFastPath.parse(data, checkingRecordTypes: true) {
                fastAccepted += 1
                if fast != full { disagreements += 1 }
            }
        }
        #expect(fastAccepted > 1000)
        #expect(disagreements == 0)
    }

    /// The fast path's media-type test says yes exactly when the full check finds no problem,
    /// for every byte value in every part of a media type.
    @Test func mediaTypeTestAgreesWithTheFullCheck() {
        let templates = ["?/json", "application/?", "a?b/json", "text/plain;?", "text/pl?n; charset=utf-8", "?", "??/?"]
        var accepted = 0
        for template in templates {
            for byte in UInt8.min...UInt8.max {
                let bytes = template.utf8.flatMap { $0 == UInt8(ascii: "?") ? [byte] : [$0] }
                bytes.withUnsafeBytes { type in
                    let fast = ByteChecks.isMediaType(type)
                    #expect(fast == (ByteChecks.mediaTypeProblem(type) == nil), "\(template) with byte \(byte)")
                    if fast { accepted += 1 }
                }
            }
        }
        // Hand count: 79 token bytes (94 visible minus the 15 tspecials) in each of the four
        // token positions, plus ';' in "pl?n" (it starts the parameters early), 95 printable
        // bytes in the parameter, 79 in "??/?", none alone.
        #expect(accepted == 79 * 4 + 1 + 95 + 79)
    }
}

@Suite struct ModeAgreementTests {
    /// Strict parsing succeeds exactly when lenient parsing reports no violation, and then
    /// both give the same records (the fuzzer checks the same on its inputs).
    @Test(.tags(.slow)) func strictSucceedsExactlyWhenLenientFindsNoViolation() {
        var rng = SeededGenerator(seed: 77)
        let samples = (0..<60).map { index in
            NDEFMessage(records: Generate.message(&rng, maxRecords: 4).map(\.record)).serialized(maxChunkSize: index % 4 == 0 ? 9 : nil)
        }.filter { $0.count < 2048 }
        var disagreements: [[UInt8]] = []
        for round in 0..<10_000 {
            var bytes = Array(samples[round % samples.count])
            for _ in 0..<Int.random(in: 0...3, using: &rng) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            let strict = try? NDEFParser.parse(Data(bytes))
            let lenient = try? NDEFParser.parse(Data(bytes), mode: .lenient)
            let clean = lenient.map { $0.warnings.allSatisfy { $0.kind == nil } } ?? false
            if (strict != nil) != clean || (strict != nil && strict?.message != lenient?.message) {
                disagreements.append(bytes)
            }
        }
        #expect(disagreements.isEmpty, "first: \(disagreements.first ?? [])")
    }
}
