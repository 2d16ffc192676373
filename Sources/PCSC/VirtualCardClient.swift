import ColdTapBase
import Dispatch
import Foundation
import NFCTags

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where vpcd (vsmartcard's virtual reader driver inside pcscd) listens for a card.
public struct VPCDEndpoint: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    /// vpcd's first reader, "Virtual PCD 00 00".
    public static let standard = VPCDEndpoint(host: "127.0.0.1", port: 35963)

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT` (or `PORT`, or `[v6]:PORT`); `nil` when malformed.
    public init?(_ text: String) {
        var host = VPCDEndpoint.standard.host
        var portText = text
        if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            portText = String(text[text.index(after: colon)...])
        }
        guard !host.isEmpty, let port = UInt16(portText), port > 0 else { return nil }
        self.init(host: host, port: port)
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Why the virtual card stopped or could not start.
public enum VirtualCardError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotConnect(VPCDEndpoint, String)
    case socket(String)

    public var description: String {
        switch self {
        case .cannotConnect(let endpoint, let reason):
            return "cannot reach vpcd at \(endpoint) (\(reason)); is pcscd running with vsmartcard-vpcd installed?"
        case .socket(let reason):
            return "the vpcd connection failed: \(reason)"
        }
    }
}

/// How a virtual card session ended.
public enum VirtualCardOutcome: Sendable, Equatable {
    /// vpcd closed the connection (pcscd stopped) or `stop()` was called.
    case closed(apdus: Int)
    /// The tag left the field (a `removed-after` fault or the tag's own removal).
    case tagRemoved(apdus: Int)
}

/// The card side of vpcd's socket protocol: connects to vpcd and answers its messages with a
/// `ContactlessReaderEmulator`, so that pcscd sees a contactless reader with a tag on it.
///
/// Wire format both ways: a 2-byte big-endian length, then the payload. A 1-byte payload from
/// vpcd is a control message (0 power off, 1 power on, 2 reset: no reply; 4 get ATR: reply
/// with the ATR); a longer one is a command APDU, answered with the response APDU.
/// `TCP_QUICKACK` is set before every receive, because vpcd writes length and payload
/// separately with Nagle on and would otherwise wait for a delayed ACK (~40 ms a message).
public final class VirtualCardClient: Sendable {
    public let emulator: ContactlessReaderEmulator
    public let endpoint: VPCDEndpoint
    private let trace: (@Sendable (String) -> Void)?
    /// The open socket (−1 when none) and whether `stop()` was called.
    private let connection = LockedValue((socket: Int32(-1), stopped: false))

    /// - Parameter trace: called with one line per APDU and answer (`>` in, `<` out), if given.
    public init(
        emulator: ContactlessReaderEmulator, endpoint: VPCDEndpoint = .standard,
        trace: (@Sendable (String) -> Void)? = nil
    ) {
        self.emulator = emulator
        self.endpoint = endpoint
        self.trace = trace
    }

    /// Connects and serves until vpcd closes the connection, the tag leaves, or `stop()`.
    /// - Throws: `VirtualCardError.cannotConnect` when nothing listens at the endpoint.
    public func run() async throws -> VirtualCardOutcome {
        let descriptor = try connectSocket()
        let alreadyStopped = connection.withLock { connection in
            connection.socket = descriptor
            return connection.stopped
        }
        if alreadyStopped { close(descriptor); return .closed(apdus: 0) }
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { [self] in
                continuation.resume(with: Result { try self.serve(descriptor) })
            }
            thread.name = "vpcd card"
            thread.start()
        }
    }

    /// Closes the connection; `run()` then returns `.closed`. Safe from any thread.
    public func stop() {
        connection.withLock { connection in
            connection.stopped = true
            if connection.socket >= 0 { _ = shutdown(connection.socket, Int32(SHUT_RDWR)) }
        }
    }

    private func connectSocket() throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(endpoint.host, String(endpoint.port), &hints, &list)
        guard status == 0, let first = list else {
            throw VirtualCardError.cannotConnect(endpoint, String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var reason = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            let descriptor = socket(current.pointee.ai_family, current.pointee.ai_socktype, current.pointee.ai_protocol)
            if descriptor >= 0 {
                if connect(descriptor, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 {
                    var one: Int32 = 1
                    _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                    return descriptor
                }
                reason = String(cString: strerror(errno))
                close(descriptor)
            }
            entry = current.pointee.ai_next
        }
        throw VirtualCardError.cannotConnect(endpoint, reason)
    }

    private func serve(_ descriptor: Int32) throws -> VirtualCardOutcome {
        defer {
            connection.withLock { $0.socket = -1 }
            close(descriptor)
        }
        var apdus = 0
        while let message = receiveMessage(descriptor) {
            if message.count == 1 {
                // 0 power off, 1 power on, 2 reset: no reply. 4: the ATR.
                if message[0] == 4 { try sendMessage(descriptor, [UInt8](emulator.atr.bytes)) }
                continue
            }
            apdus += 1
            trace?("> " + Data(message).hexString())
            guard let response = respond(Data(message)) else {
                trace?("< (tag removed: closing the connection)")
                return .tagRemoved(apdus: apdus)
            }
            trace?("< " + response.hexString())
            try sendMessage(descriptor, [UInt8](response))
        }
        return .closed(apdus: apdus)
    }

    /// Runs the async emulator from this plain thread; `nil` when the tag left.
    private func respond(_ apdu: Data) -> Data? {
        let emulator = self.emulator
        return try? runBlocking { try await emulator.respond(to: apdu) }
    }

    private func receiveMessage(_ descriptor: Int32) -> [UInt8]? {
        guard let header = receiveExactly(descriptor, 2) else { return nil }
        let length = Int(header[0]) << 8 | Int(header[1])
        guard length > 0 else { return [] }
        return receiveExactly(descriptor, length)
    }

    private func receiveExactly(_ descriptor: Int32, _ count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var received = 0
        while received < count {
            var one: Int32 = 1
            #if canImport(Glibc)
                _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_QUICKACK, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let result = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return -1 }
                return recv(descriptor, base + received, count - received, 0)
            }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { return nil }
            received += result
        }
        return buffer
    }

    #if canImport(Glibc)
        private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
        private static let sendFlags: Int32 = 0
    #endif

    private func sendMessage(_ descriptor: Int32, _ payload: [UInt8]) throws {
        guard payload.count <= 0xFFFF else { throw VirtualCardError.socket("a \(payload.count)-byte message") }
        let frame = [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
        var sent = 0
        while sent < frame.count {
            let result = frame.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return -1 }
                return send(descriptor, base + sent, frame.count - sent, VirtualCardClient.sendFlags)
            }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw VirtualCardError.socket(String(cString: strerror(errno))) }
            sent += result
        }
    }
}
