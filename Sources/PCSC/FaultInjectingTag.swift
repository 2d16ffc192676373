import Foundation
import NFCTags

/// Faults a virtual tag can show, counted in tag commands (air frames), 1-based.
public struct TagFaults: Sendable, Equatable {
    /// The tag leaves the field after answering this many commands.
    public var removedAfter: Int?
    /// The answer to this command has one bit flipped (as if the CRC had let it through).
    public var corruptAt: Int?
    /// From this command on the tag does not answer.
    public var silentAt: Int?

    public init(removedAfter: Int? = nil, corruptAt: Int? = nil, silentAt: Int? = nil) {
        self.removedAfter = removedAfter
        self.corruptAt = corruptAt
        self.silentAt = silentAt
    }

    public var isEmpty: Bool { removedAfter == nil && corruptAt == nil && silentAt == nil }

    /// Parses `removed-after=N`, `corrupt-at=N`, `silent-at=N` (repeatable, or comma-separated).
    /// - Throws: `TagFaults.ParseError` naming the bad specification.
    public init(parsing specifications: [String]) throws {
        self.init()
        for specification in specifications.flatMap({ $0.split(separator: ",").map(String.init) }) {
            let parts = specification.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let count = Int(parts[1]), count >= 0 else {
                throw ParseError(specification: specification)
            }
            switch parts[0] {
            case "removed-after": removedAfter = count
            case "corrupt-at" where count >= 1: corruptAt = count
            case "silent-at" where count >= 1: silentAt = count
            default: throw ParseError(specification: specification)
            }
        }
    }

    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public var specification: String
        public var description: String {
            "unknown fault '\(specification)'; use removed-after=N, corrupt-at=N or silent-at=N (N counts tag commands from 1)"
        }
    }
}

/// Wraps a tag and makes it leave, corrupt an answer or fall silent at a given command.
public final class FaultInjectingTag: TagTransport, @unchecked Sendable {
    public let base: any TagTransport
    public let faults: TagFaults
    private let lock = NSLock()
    private var commandCount = 0

    public init(_ base: any TagTransport, faults: TagFaults) {
        self.base = base
        self.faults = faults
    }

    public var technology: TagTechnology { base.technology }
    public var limits: LinkLimits { base.limits }
    public var uid: Data? { base.uid }

    /// Commands sent so far (including those the faults swallowed).
    public var commandsSeen: Int { lock.withLock { commandCount } }

    public func send(_ command: Data, timeout: Duration) async throws -> Data {
        let number = lock.withLock {
            commandCount += 1
            return commandCount
        }
        if let removedAfter = faults.removedAfter, number > removedAfter { throw TransportError.tagRemoved }
        if let silentAt = faults.silentAt, number >= silentAt {
            try await Task.sleep(for: timeout)
            throw TransportError.timeout
        }
        var answer = try await base.send(command, timeout: timeout)
        if number == faults.corruptAt, !answer.isEmpty {
            let middle = answer.startIndex + answer.count / 2
            answer[middle] ^= 0x10
        }
        return answer
    }
}
