import ColdTapBase
import Foundation
import NFCTags

#if canImport(CPCSCLite)
    import CPCSCLite
#endif

/// One reader as PC/SC sees it at a moment.
public struct ReaderStatus: Sendable, Equatable {
    /// The reader's PC/SC name, e.g. `ACS ACR122U PICC Interface 00 00`.
    public var name: String
    /// True when a tag is in the field (and answered, i.e. is not mute).
    public var cardPresent: Bool
    /// True when another application holds the tag exclusively.
    public var exclusive: Bool
    /// The ATR the reader built for the tag (empty without a tag).
    public var atr: Data

    public init(name: String, cardPresent: Bool, exclusive: Bool = false, atr: Data = Data()) {
        self.name = name
        self.cardPresent = cardPresent
        self.exclusive = exclusive
        self.atr = atr
    }
}

/// Picks readers by what a user typed: an exact name, a case-insensitive part of a name, or a
/// 0-based index into the list.
/// - Throws: `PCSCError.noReaders` when the list is empty, `PCSCError.unknownReader` when
///   nothing matches.
public func matchReaders(_ query: String?, in names: [String]) throws -> [String] {
    guard !names.isEmpty else { throw PCSCError.noReaders }
    guard let query, !query.isEmpty else { return names }
    if names.contains(query) { return [query] }
    if let index = Int(query), names.indices.contains(index) { return [names[index]] }
    let matches = names.filter { $0.range(of: query, options: .caseInsensitive) != nil }
    guard !matches.isEmpty else { throw PCSCError.unknownReader(query, available: names) }
    return matches
}

#if canImport(CPCSCLite)

    /// A PC/SC resource-manager context (pcsc-lite on Linux, PCSC.framework on macOS).
    ///
    /// The waits for a card run on the context's own thread (a `BlockingWorker`), never on the
    /// cooperative pool or Dispatch's global queues; the async methods can be awaited from any
    /// task. The context is released when the last reference goes away.
    public final class PCSCContext: @unchecked Sendable {
        fileprivate let context: SCARDCONTEXT
        private let worker = BlockingWorker(name: "PC/SC context")

        /// Connects to the PC/SC service.
        /// - Throws: `PCSCError.serviceNotRunning` when pcscd is not running.
        public init() throws {
            var context = SCARDCONTEXT()
            let status = SCardEstablishContext(DWORD(SCARD_SCOPE_SYSTEM), nil, nil, &context)
            if let error = PCSCError.check(UInt32(truncatingIfNeeded: status), "SCardEstablishContext") { throw error }
            self.context = context
        }

        deinit {
            SCardReleaseContext(context)
        }

        /// The names of the connected readers; empty when there are none.
        /// - Throws: `PCSCError.serviceNotRunning` when pcscd went away.
        public func readers() throws -> [String] {
            var length = DWORD(0)
            var status = SCardListReaders(context, nil, nil, &length)
            if UInt32(truncatingIfNeeded: status) == PCSCStatus.noReadersAvailable { return [] }
            if let error = PCSCError.check(UInt32(truncatingIfNeeded: status), "SCardListReaders") { throw error }
            var buffer = [CChar](repeating: 0, count: Int(length) + 1)
            status = SCardListReaders(context, nil, &buffer, &length)
            if UInt32(truncatingIfNeeded: status) == PCSCStatus.noReadersAvailable { return [] }
            if let error = PCSCError.check(UInt32(truncatingIfNeeded: status), "SCardListReaders") { throw error }
            // A multi-string: names separated by NUL, ended by an empty name.
            var names: [String] = []
            var current: [UInt8] = []
            for character in buffer.prefix(Int(length)) {
                if character == 0 {
                    if current.isEmpty { break }
                    names.append(String(decoding: current, as: UTF8.self))
                    current = []
                } else {
                    current.append(UInt8(bitPattern: character))
                }
            }
            return names
        }

        /// The present state of each named reader, without waiting.
        public func status(of readers: [String]) throws -> [ReaderStatus] {
            try getStatusChange(readers, known: readers.map { _ in DWORD(SCARD_STATE_UNAWARE) }, milliseconds: 0).map(\.status)
        }

        /// Waits until a card that `accept` takes is on one of the readers matching `query` (all
        /// readers when `nil`) and returns that reader's state. Readers plugged in while waiting
        /// are picked up; cards `accept` refuses (a contact card in a combined reader's other
        /// slot) are waited past.
        /// - Parameters:
        ///   - timeout: how long to wait; `nil` waits until the task is cancelled.
        ///   - accept: decides from the reader's state (name, ATR) whether the card will do.
        /// - Throws: `PCSCError.timeout`, `.noReaders`, `.unknownReader`, `.serviceNotRunning`,
        ///   `CancellationError`.
        public func waitForCard(
            reader query: String?, timeout: Duration?,
            accept: @escaping @Sendable (ReaderStatus) -> Bool = { _ in true }
        ) async throws -> ReaderStatus {
            let clock = ContinuousClock()
            let deadline = timeout.map { clock.now + $0 }
            while true {
                try Task.checkCancellation()
                let names = try matchReaders(query, in: try readers())
                let slice = remainingSlice(until: deadline, clock: clock)
                let states = try await worker.run { [self] in
                    try self.waitForChange(names, milliseconds: slice, accept: accept)
                }
                if let found = states.first(where: { $0.cardPresent && accept($0) }) { return found }
                if let deadline, clock.now >= deadline { throw PCSCError.timeout }
            }
        }

        /// Waits until the named reader has no tag.
        /// - Throws: `PCSCError.timeout`, `.serviceNotRunning`, `CancellationError`.
        public func waitForRemoval(reader: String, timeout: Duration?) async throws {
            let clock = ContinuousClock()
            let deadline = timeout.map { clock.now + $0 }
            while true {
                try Task.checkCancellation()
                let slice = remainingSlice(until: deadline, clock: clock)
                let states = try await worker.run { [self] in
                    try self.waitForChange([reader], milliseconds: slice) { !$0.cardPresent }
                }
                if states.allSatisfy({ !$0.cardPresent }) { return }
                if let deadline, clock.now >= deadline { throw PCSCError.timeout }
            }
        }

        /// Connects to the tag on `reader` (shared access, T=0 or T=1 as the reader offers).
        /// - Throws: `PCSCError.noCard`, `.cardRemoved`, `.failure`.
        public func connect(reader: String) throws -> PCSCCard {
            var handle = SCARDHANDLE()
            var activeProtocol = DWORD(0)
            let result = SCardConnect(
                context, reader, DWORD(SCARD_SHARE_SHARED),
                DWORD(SCARD_PROTOCOL_T0) | DWORD(SCARD_PROTOCOL_T1), &handle, &activeProtocol)
            if let error = PCSCError.check(UInt32(truncatingIfNeeded: result), "SCardConnect") { throw error }
            let atr = (try? status(of: [reader]).first?.atr) ?? Data()
            return PCSCCard(
                context: self, handle: handle, reader: reader, atr: atr,
                usesT1: activeProtocol == DWORD(SCARD_PROTOCOL_T1))
        }

        /// Waits in slices of at most half a second so that cancellation and new readers are noticed.
        private func remainingSlice(until deadline: ContinuousClock.Instant?, clock: ContinuousClock) -> Int64 {
            guard let deadline else { return 500 }
            return min(500, max(0, (deadline - clock.now).wholeMilliseconds))
        }

        /// The readers' states as soon as one satisfies `done`, or after `milliseconds` of no change.
        private func waitForChange(
            _ names: [String], milliseconds: Int64,
            accept done: (ReaderStatus) -> Bool
        ) throws -> [ReaderStatus] {
            let now = try getStatusChange(names, known: names.map { _ in DWORD(SCARD_STATE_UNAWARE) }, milliseconds: 0)
            if now.contains(where: { done($0.status) }) { return now.map(\.status) }
            do {
                return try getStatusChange(names, known: now.map(\.event), milliseconds: milliseconds).map(\.status)
            } catch PCSCError.timeout {
                return now.map(\.status)
            }
        }

        private func getStatusChange(_ names: [String], known: [DWORD], milliseconds: Int64)
            throws -> [(status: ReaderStatus, event: DWORD)]
        {
            guard !names.isEmpty else { return [] }
            // The reader names must stay valid C strings for the whole call.
            let cNames = names.map { strdup($0) }
            defer { cNames.forEach { free($0) } }
            var states = (0..<names.count).map { index -> SCARD_READERSTATE in
                var state = SCARD_READERSTATE()
                state.szReader = UnsafePointer(cNames[index])
                state.dwCurrentState = known[index] & ~DWORD(SCARD_STATE_CHANGED)
                return state
            }
            let status = SCardGetStatusChange(context, DWORD(milliseconds), &states, DWORD(states.count))
            if let error = PCSCError.check(UInt32(truncatingIfNeeded: status), "SCardGetStatusChange") { throw error }
            return zip(names, states).map { name, state in
                let event = state.dwEventState
                let present = event & DWORD(SCARD_STATE_PRESENT) != 0 && event & DWORD(SCARD_STATE_MUTE) == 0
                var atrState = state
                let atrLength = min(Int(state.cbAtr), MemoryLayout.size(ofValue: state.rgbAtr))
                let atr = withUnsafeBytes(of: &atrState.rgbAtr) { Data($0.prefix(atrLength)) }
                let reader = ReaderStatus(
                    name: name, cardPresent: present,
                    exclusive: event & DWORD(SCARD_STATE_EXCLUSIVE) != 0,
                    atr: present ? atr : Data())
                return (reader, event)
            }
        }
    }

    /// A connection to the tag on one reader.
    public final class PCSCCard: @unchecked Sendable {
        private let context: PCSCContext
        private let handle: SCARDHANDLE
        private let usesT1: Bool
        private let connected = LockedValue(true)
        /// The reader's name.
        public let reader: String
        /// The ATR the reader built for the tag.
        public let atr: Data

        fileprivate init(context: PCSCContext, handle: SCARDHANDLE, reader: String, atr: Data, usesT1: Bool) {
            self.context = context
            self.handle = handle
            self.reader = reader
            self.atr = atr
            self.usesT1 = usesT1
        }

        deinit {
            disconnect()
        }

        /// Sends one command APDU and returns the response APDU (data and SW1 SW2). Blocks until
        /// the reader answers; `PCSCChannel` adds a timeout.
        /// - Throws: `PCSCError.cardRemoved` when the tag left (SCARD_E_NOT_TRANSACTED,
        ///   SCARD_W_REMOVED_CARD), `.serviceNotRunning`, `.failure`.
        public func transmit(_ apdu: Data) throws -> Data {
            var response = [UInt8](repeating: 0, count: 65_538)
            var responseLength = DWORD(response.count)
            let bytes = [UInt8](apdu)
            let status = withUnsafePointer(to: usesT1 ? g_rgSCardT1Pci : g_rgSCardT0Pci) { pci in
                SCardTransmit(handle, pci, bytes, DWORD(bytes.count), nil, &response, &responseLength)
            }
            if let error = PCSCError.check(UInt32(truncatingIfNeeded: status), "SCardTransmit") { throw error }
            return Data(response.prefix(Int(responseLength)))
        }

        /// Leaves the tag powered for the next application. Safe to call more than once.
        public func disconnect() {
            let wasConnected = connected.exchange(false)
            if wasConnected { SCardDisconnect(handle, DWORD(SCARD_LEAVE_CARD)) }
        }
    }

#else

    /// PC/SC is not part of this build (no pcsc-lite or PCSC.framework on this platform).
    public final class PCSCContext: @unchecked Sendable {
        /// - Throws: always `PCSCError.unavailable`.
        public init() throws {
            throw PCSCError.unavailable("this platform has no PC/SC library")
        }
        public func readers() throws -> [String] { [] }
        public func status(of readers: [String]) throws -> [ReaderStatus] { [] }
        public func waitForCard(
            reader query: String?, timeout: Duration?,
            accept: @escaping @Sendable (ReaderStatus) -> Bool = { _ in true }
        ) async throws -> ReaderStatus {
            throw PCSCError.unavailable("this platform has no PC/SC library")
        }
        public func waitForRemoval(reader: String, timeout: Duration?) async throws {
            throw PCSCError.unavailable("this platform has no PC/SC library")
        }
        public func connect(reader: String) throws -> PCSCCard {
            throw PCSCError.unavailable("this platform has no PC/SC library")
        }
    }

    /// A connection to a tag (never made in a build without PC/SC).
    public final class PCSCCard: @unchecked Sendable {
        public let reader: String = ""
        public let atr = Data()
        private init() {}
        public func transmit(_ apdu: Data) throws -> Data { throw PCSCError.unavailable("no PC/SC library") }
        public func disconnect() {}
    }

#endif
