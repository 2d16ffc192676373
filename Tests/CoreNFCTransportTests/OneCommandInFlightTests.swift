import Foundation
import NFCTags
import Testing

@testable import CoreNFCTransport

/// A Core NFC call past its deadline cannot be cancelled and may still be with the tag: no
/// further command (nor the CRC-framing retry) is sent until it has called back; until then
/// the tag counts as lost (issue 32 §4).
@Suite struct OneCommandInFlightTests {
    /// A tag whose first answer comes only when the test releases it.
    final class LateTag: MiFareTagLink, @unchecked Sendable {
        let identifier = Data([0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66])
        private let lock = NSLock()
        private var sent = 0
        private var waiting: CheckedContinuation<Data, Error>?
        private var released = false

        var sentCount: Int { lock.withLock { sent } }

        func sendMiFareCommand(_ packet: Data) async throws -> Data {
            let first = lock.withLock { () -> Bool in
                sent += 1
                return sent == 1
            }
            guard first else { return Data(repeating: 0, count: 16) }
            return try await withCheckedThrowingContinuation { continuation in
                let answerNow = lock.withLock { () -> Bool in
                    if released { return true }
                    waiting = continuation
                    return false
                }
                if answerNow { continuation.resume(returning: Data(repeating: 0, count: 16)) }
            }
        }

        /// The late callback.
        func release() {
            let continuation = lock.withLock { () -> CheckedContinuation<Data, Error>? in
                released = true
                defer { waiting = nil }
                return waiting
            }
            continuation?.resume(returning: Data(repeating: 0, count: 16))
        }
    }

    @Test func noSecondCommandBeforeTheLateOneCallsBack() async throws {
        let tag = LateTag()
        let transport = Type2CoreNFCTransport(link: tag)  // retries the other framing after silence
        await #expect(throws: TransportError.self) { try await transport.send(Data([0x30, 0x04]), timeout: .milliseconds(50)) }
        // The deadline passed: neither the framing retry nor the next command went out.
        #expect(tag.sentCount == 1)
        do {
            _ = try await transport.send(Data([0x30, 0x08]), timeout: .milliseconds(50))
            Issue.record("a second command was sent while the first was out")
        } catch let error as TransportError {
            #expect(error == .tagRemoved, "\(error)")
        }
        #expect(tag.sentCount == 1)
        // Once the late call has called back, commands go out again.
        tag.release()
        var answered = false
        for _ in 0..<200 where !answered {
            answered = (try? await transport.send(Data([0x30, 0x08]), timeout: .seconds(1))) != nil
            if !answered { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(answered)
        #expect(tag.sentCount == 2)
    }
}

/// A raw request whose very first answer is a tag error (Core NFC may have framed it in a
/// way the tag refuses) falls back to the per-command API, as a refused request does; once
/// raw requests have worked, a tag error is the tag's answer (issue 32 §3).
@Suite struct RawRequestFallbackTests {
    @Test func aTagErrorOnTheFirstRawRequestFallsBackToThePerCommandAPI() async throws {
        let tag = FakeST25DV(failures: [0: CoreNFCFailure(.tagResponseError, iso15693ErrorCode: 0x0F)], rawRequests: .answered)
        let transport = Type5CoreNFCTransport(link: tag)
        let answer = try await transport.send(Data([0x02, 0x20, 0x00]), timeout: .seconds(1))
        #expect(Array(answer) == [0x00, 0xE2, 0x40, 0x00, 0x01])
        #expect(transport.usesCommandTranslation)
        #expect(tag.calls.get.count == 2, "\(tag.calls.get)")
    }

    @Test func laterTagErrorsAreTheTagsAnswer() async throws {
        let tag = FakeST25DV(totalBlocks: 8, rawRequests: .answered)
        let transport = Type5CoreNFCTransport(link: tag)
        #expect(Array(try await transport.send(Data([0x02, 0x20, 0x00]), timeout: .seconds(1))) == [0x00, 0xE2, 0x40, 0x00, 0x01])
        // Block 9 of 8: the tag's own error, raw requests kept.
        #expect(Array(try await transport.send(Data([0x02, 0x20, 0x09]), timeout: .seconds(1))) == [0x01, 0x10])
        #expect(!transport.usesCommandTranslation)
    }
}
