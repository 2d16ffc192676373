import Foundation
import NFCTags

/// Answers to read commands already received in this session, kept so that a read that
/// restarts after the tag was lost and found again resumes where it stopped: commands
/// answered before are served from here, only the missing ones go on the air.
///
/// Only side-effect-free reads are kept (Type 2 READ, FAST_READ, GET_VERSION, READ_SIG;
/// Type 5 single, multiple and extended reads and GET_SYSTEM_INFO) and only successful
/// answers. Any other command — a write — empties the cache, since memory may have changed.
public final class AnswerCache: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [Key: Data] = [:]
    private var served = 0

    private struct Key: Hashable {
        var uid: Data?
        var command: Data
    }

    public init() {}

    /// How many answers were served from the cache instead of the air.
    public var answersServed: Int {
        lock.lock(); defer { lock.unlock() }
        return served
    }

    /// Number of answers kept.
    public var count: Int {
        lock.lock(); defer { lock.unlock() }
        return answers.count
    }

    func answer(uid: Data?, command: Data) -> Data? {
        lock.lock(); defer { lock.unlock() }
        guard let answer = answers[Key(uid: uid, command: command)] else { return nil }
        served += 1
        return answer
    }

    func store(_ answer: Data, uid: Data?, command: Data) {
        lock.lock(); answers[Key(uid: uid, command: command)] = answer; lock.unlock()
    }

    func removeAll() {
        lock.lock(); answers.removeAll(); lock.unlock()
    }
}

/// A `TagTransport` that serves repeated read commands from an `AnswerCache` shared across
/// reconnections to the same tag (same UID), so a restarted read resumes.
public struct ResumingTransport: TagTransport {
    public let base: any TagTransport
    public let cache: AnswerCache

    public init(base: any TagTransport, cache: AnswerCache) {
        self.base = base
        self.cache = cache
    }

    public var technology: TagTechnology { base.technology }
    public var limits: LinkLimits { base.limits }
    public var uid: Data? { base.uid }

    /// Sends through `base` unless the same read was answered before.
    /// - Throws: whatever `base` throws (`TransportError`).
    public func send(_ command: Data, timeout: Duration) async throws -> Data {
        let cacheable = isSideEffectFreeRead(command)
        if cacheable, let answer = cache.answer(uid: uid, command: command) {
            return answer
        }
        if !cacheable { cache.removeAll() }
        let answer = try await base.send(command, timeout: timeout)
        if cacheable, isSuccess(answer) {
            cache.store(answer, uid: uid, command: command)
        }
        return answer
    }

    private func isSideEffectFreeRead(_ command: Data) -> Bool {
        switch technology {
        case .iso14443A:
            guard let code = command.first else { return false }
            return [0x30, 0x3A, 0x60, 0x3C].contains(code)
        case .iso15693:
            guard command.count >= 2 else { return false }
            return [0x20, 0x23, 0x2B, 0x30, 0x33].contains(command[command.startIndex + 1])
        }
    }

    private func isSuccess(_ answer: Data) -> Bool {
        switch technology {
        case .iso14443A: return answer.count > 1  // a NAK is a single 4-bit answer
        case .iso15693: return answer.first.map { $0 & 0x01 == 0 } ?? false
        }
    }
}
