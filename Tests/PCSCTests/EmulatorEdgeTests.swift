import ColdTapBase
import Foundation
import NFCTags
import Testing

@testable import PCSC

@Suite struct EmulatorEdgeTests {
    private let emulator = ContactlessReaderEmulator(tag: FakeType2Tag())

    @Test func refusesWhatAReaderRefuses() async throws {
        #expect(try await emulator.respond(to: Data([0xFF, 0xCA])) == Data([0x67, 0x00]))
        #expect(try await emulator.respond(to: Data([0x00, 0xA4, 0x04, 0x00, 0x00])) == Data([0x6E, 0x00]))
        #expect(try await emulator.respond(to: Data([0xFF, 0x82, 0x00, 0x00, 0x06, 1, 2, 3, 4, 5, 6])) == Data([0x6D, 0x00]))
        // READ BINARY beyond 16 bytes of a Type 2 page, UPDATE BINARY of a partial page.
        #expect(try await emulator.respond(to: Data([0xFF, 0xB0, 0x00, 0x04, 0x20])) == Data([0x6B, 0x00]))
        #expect(try await emulator.respond(to: Data([0xFF, 0xD6, 0x00, 0x04, 0x02, 1, 2])) == Data([0x67, 0x00]))
    }

    @Test func readBinaryHonoursLe() async throws {
        let tag = FakeType2Tag()
        let emulator = ContactlessReaderEmulator(tag: tag)
        let answer = try await emulator.respond(to: Data([0xFF, 0xB0, 0x00, 0x04, 0x04]))
        #expect(answer == Data(tag.bytes[16..<20]) + Data([0x90, 0x00]))
    }

    @Test func transparentSessionRefusesUnknownObjectsNamingTheirPosition() async throws {
        let answer = try await emulator.respond(to: Data([0xFF, 0xC2, 0x00, 0x01, 0x06, 0x90, 0x02, 0x00, 0x00, 0xAA, 0x00]))
        #expect(answer == Data([0xC0, 0x03, 0x02, 0x6A, 0x81, 0x6A, 0x81]))
        let wrongProtocol = try await emulator.respond(to: Data([0xFF, 0xC2, 0x00, 0x02, 0x04, 0x8F, 0x02, 0x02, 0x03]))
        #expect(wrongProtocol.prefix(5) == Data([0xC0, 0x03, 0x01, 0x6A, 0x81]))
        let rightProtocol = try await emulator.respond(to: Data([0xFF, 0xC2, 0x00, 0x02, 0x04, 0x8F, 0x02, 0x00, 0x03]))
        #expect(rightProtocol == Data([0xC0, 0x03, 0x00, 0x90, 0x00, 0x90, 0x00]))
    }

    @Test func uidIsRefusedWhenTheTagHasNone() async throws {
        let emulator = ContactlessReaderEmulator(tag: NoUIDTag())
        #expect(try await emulator.respond(to: Data([0xFF, 0xCA, 0x00, 0x00, 0x00])) == Data([0x6A, 0x81]))
    }
}

@Suite struct BlockingTests {
    @Test func returnsTheResultOfQuickWork() async throws {
        let worker = BlockingWorker(name: "test worker")
        #expect(try await worker.run(timeout: .seconds(5)) { 42 } == 42)
        #expect(try await worker.run { 43 } == 43)
    }

    @Test func givesUpOnWorkThatBlocksTooLongAndLaterWorkWaitsBehindIt() async throws {
        let worker = BlockingWorker(name: "test worker")
        let release = DispatchSemaphore(value: 0)
        let ran = LockedValue<[String]>([])
        await #expect(throws: BlockingTimeout.self) {
            _ = try await worker.run(timeout: .milliseconds(50)) { () -> Int in
                release.wait()
                ran.withLock { $0.append("blocked") }
                return 1
            }
        }
        // The worker is still inside the first call (as in a silent card's SCardTransmit):
        // the next job queues behind it on the same thread.
        let next = Task { try await worker.run { ran.withLock { $0.append("next") } } }
        #expect(ran.current.isEmpty)
        release.signal()
        try await next.value
        #expect(ran.current == ["blocked", "next"])
    }

    @Test func everyJobRunsOnTheWorkersOneThread() async throws {
        let worker = BlockingWorker(name: "PC/SC test")
        var threads: Set<ObjectIdentifier> = []
        for _ in 0..<20 {
            threads.insert(try await worker.run(timeout: .seconds(5)) { ObjectIdentifier(Thread.current) })
            threads.insert(try await worker.run { ObjectIdentifier(Thread.current) })
        }
        #expect(threads.count == 1)
        #expect(try await worker.run { Thread.isMainThread } == false)
    }

    @Test func passesErrorsThrough() async {
        let worker = BlockingWorker(name: "test worker")
        await #expect(throws: PCSCError.cardRemoved) {
            _ = try await worker.run(timeout: .seconds(5)) { () throws -> Int in throw PCSCError.cardRemoved }
        }
        await #expect(throws: PCSCError.cardRemoved) {
            _ = try await worker.run { () throws -> Int in throw PCSCError.cardRemoved }
        }
    }
}

private struct NoUIDTag: TagTransport {
    let technology = TagTechnology.iso14443A
    let limits = LinkLimits(maxCommandBytes: 16, maxResponseBytes: 16)
    let uid: Data? = nil
    func send(_ command: Data, timeout: Duration) async throws -> Data { Data([0x00]) }
}
