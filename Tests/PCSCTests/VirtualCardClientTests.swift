import Foundation
import NFCTags
import NFCTagsEmulation
import Testing

@testable import PCSC

#if canImport(Glibc)
    import Glibc
#endif

/// Plays vpcd's side of the socket: listens on an ephemeral loopback port.
private final class FakeVPCD: @unchecked Sendable {
    let listener: Int32
    let port: UInt16
    var connection: Int32 = -1

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard bound == 0, listen(listener, 1) == 0 else {
            port = 0
            throw TransportError.linkFailure("bind")
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
    }

    func accept() {
        connection = Glibc.accept(listener, nil, nil)
    }

    /// Sends one framed message and, unless it is a control message other than 4, reads the answer.
    func exchange(_ payload: [UInt8]) -> [UInt8]? {
        let frame = [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
        // Length and payload in two writes, as vpcd does.
        _ = frame.withUnsafeBytes { send(connection, $0.baseAddress, 2, 0) }
        _ = frame.withUnsafeBytes { send(connection, $0.baseAddress.map { $0 + 2 }, payload.count, 0) }
        if payload.count == 1, payload[0] != 4 { return [] }
        guard let header = read(2) else { return nil }
        return read(Int(header[0]) << 8 | Int(header[1]))
    }

    private func read(_ count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress.map { $0 + got }, count - got, 0) }
            guard n > 0 else { return nil }
            got += n
        }
        return buffer
    }

    func closeAll() {
        if connection >= 0 { close(connection) }
        close(listener)
    }
}

/// Runs blocking socket calls on a thread of their own: on the cooperative pool they could
/// take every thread and starve the emulator they talk to.
private func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

@Suite struct VirtualCardClientTests {
    @Test func speaksVPCDFramingAndAnswersPseudoAPDUs() async throws {
        let vpcd = try FakeVPCD()
        defer { vpcd.closeAll() }
        let tag = FakeType2Tag()
        let emulator = ContactlessReaderEmulator(tag: tag)
        let client = VirtualCardClient(emulator: emulator, endpoint: VPCDEndpoint(host: "127.0.0.1", port: vpcd.port))
        async let outcome = client.run()
        await onThread { vpcd.accept() }
        let exchanges = await onThread { () -> [[UInt8]?] in
            [
                vpcd.exchange([0x01]),  // power on: no answer
                vpcd.exchange([0x04]),  // ATR
                vpcd.exchange([0xFF, 0xCA, 0x00, 0x00, 0x00]),
                vpcd.exchange([0xFF, 0xB0, 0x00, 0x04, 0x10]),
                vpcd.exchange([0x00]),
            ]
        }
        #expect(exchanges[1].map { Data($0) } == emulator.atr.bytes)
        #expect(exchanges[2] == [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x90, 0x00])
        #expect(exchanges[3] == Array(tag.bytes[16..<32]) + [0x90, 0x00])
        close(vpcd.connection)
        vpcd.connection = -1
        #expect(try await outcome == .closed(apdus: 2))
    }

    @Test func removedTagClosesTheConnection() async throws {
        let vpcd = try FakeVPCD()
        defer { vpcd.closeAll() }
        let tag = try VirtualTag.make(chip: .ntag213, ndefMessage: Data([0xD0, 0x00, 0x00]), faults: TagFaults([.removedAfter(1)]))
        let client = VirtualCardClient(
            emulator: ContactlessReaderEmulator(tag: tag),
            endpoint: VPCDEndpoint(host: "127.0.0.1", port: vpcd.port))
        async let outcome = client.run()
        await onThread { vpcd.accept() }
        let answers = await onThread {
            [vpcd.exchange([0xFF, 0xB0, 0x00, 0x00, 0x10]), vpcd.exchange([0xFF, 0xB0, 0x00, 0x04, 0x10])]
        }
        #expect(answers[0]?.suffix(2) == [0x90, 0x00])
        #expect(answers[1] == nil)
        #expect(try await outcome == .tagRemoved(apdus: 2))
    }

    @Test func nothingListeningIsACleanError() async throws {
        let vpcd = try FakeVPCD()
        let port = vpcd.port
        vpcd.closeAll()
        let client = VirtualCardClient(
            emulator: ContactlessReaderEmulator(tag: FakeType2Tag()),
            endpoint: VPCDEndpoint(host: "127.0.0.1", port: port))
        await #expect(throws: VirtualCardError.self) { _ = try await client.run() }
    }
}
