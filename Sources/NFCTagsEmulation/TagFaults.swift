import NFCTags

/// One fault a tag shows. Commands (air frames) are numbered from 1 in the order the tag
/// receives them, retries included.
public enum TagFault: Sendable, Hashable, CustomStringConvertible {
    /// The answer to command N arrives cut short (its first half, the first byte garbled), as
    /// when the field drops mid-frame; a 1-byte answer fails the link's check instead.
    case truncatedAnswer(at: Int)
    /// The answer to command N arrives whole with one bit flipped, as if the link's CRC had
    /// let it through.
    case flippedBit(at: Int)
    /// The tag does not answer commands N … N + count − 1 (the reader times out); a `nil`
    /// count means from N on, as a tag that hangs while still in the field.
    case silent(from: Int, count: Int?)
    /// The tag leaves the field after answering N commands; every later command finds it gone.
    case removedAfter(Int)
    /// Write command N is torn: part of its bytes are programmed, then the tag is gone.
    case tornWrite(at: Int)
    /// A logger that runs commands (NHS31xx) takes its Nth command message of the tap (the
    /// write that hands it a command) and never answers it, as firmware that hung on it; the
    /// link itself still answers. Plain tags run no commands, so it does nothing to them.
    case unansweredCommand(at: Int)

    /// The `--fault` spelling, e.g. `silent=9` or `torn-write=3`.
    public var description: String {
        switch self {
        case .truncatedAnswer(let at): return "truncated-answer=\(at)"
        case .flippedBit(let at): return "flipped-bit=\(at)"
        case .silent(let from, nil): return "silent=\(from)"
        case .silent(let from, let count?): return "silent=\(from)x\(count)"
        case .removedAfter(let count): return "removed-after=\(count)"
        case .tornWrite(let at): return "torn-write=\(at)"
        case .unansweredCommand(let at): return "unanswered-command=\(at)"
        }
    }
}

/// The faults a tag shows during one session: the one fault model of virtual tags, of
/// `coldtap emulate --fault` and of the tests.
public struct TagFaults: Sendable, Equatable, CustomStringConvertible {
    public var faults: [TagFault]

    public init(_ faults: [TagFault] = []) {
        self.faults = faults
    }

    public static let none = TagFaults()

    public var isEmpty: Bool { faults.isEmpty }

    /// Comma-separated `--fault` spellings.
    public var description: String { faults.map(\.description).joined(separator: ",") }

    /// True when command `number` finds the tag gone.
    public func removes(_ number: Int) -> Bool {
        faults.contains { if case .removedAfter(let count) = $0 { return number > count } else { return false } }
    }

    /// True when the tag does not answer command `number`.
    public func silences(_ number: Int) -> Bool {
        faults.contains {
            guard case .silent(let from, let count) = $0 else { return false }
            return number >= from && count.map { number < from + $0 } ?? true
        }
    }

    /// True when write command `number` is torn.
    public func tears(_ number: Int) -> Bool { faults.contains(.tornWrite(at: number)) }

    /// True when a commanded logger leaves its command message `number` (of the tap) unanswered.
    public func leavesUnanswered(commandMessage number: Int) -> Bool { faults.contains(.unansweredCommand(at: number)) }

    /// The answer to command `number` as the reader receives it.
    /// - Throws: `TransportError.linkFailure` when a truncated answer leaves nothing the
    ///   link's check could pass (a 1-byte answer).
    public func received(_ answer: [UInt8], at number: Int) throws -> [UInt8] {
        var answer = answer
        if faults.contains(.truncatedAnswer(at: number)) {
            guard answer.count > 1 else { throw TransportError.linkFailure("garbled answer") }
            answer = Array(answer.prefix(answer.count / 2))
            answer[0] ^= 0x5A
        }
        if faults.contains(.flippedBit(at: number)), !answer.isEmpty {
            answer[answer.count / 2] ^= 0x10
        }
        return answer
    }

    /// True when the answer to command `number` is not delivered as the tag sent it.
    public func alters(_ number: Int) -> Bool {
        faults.contains(.truncatedAnswer(at: number)) || faults.contains(.flippedBit(at: number))
    }

    /// The faults left once the tag is put back in the field: a removal or a torn write
    /// has happened and does not happen again.
    public var afterReinsertion: TagFaults {
        TagFaults(
            faults.filter {
                switch $0 {
                case .removedAfter, .tornWrite: return false
                default: return true
                }
            })
    }

    /// Parses `--fault` specifications, repeatable or comma-separated (N counts tag commands
    /// from 1): `removed-after=N`, `truncated-answer=N`, `flipped-bit=N`, `silent=N` (from N
    /// on) or `silent=NxK` (K commands from N), `torn-write=N`, `unanswered-command=N` (N counts
    /// a logger's command messages); and the older spellings
    /// `corrupt-at=N` (= `flipped-bit=N`) and `silent-at=N` (= `silent=N`).
    /// - Throws: `TagFaults.ParseError` naming the bad specification.
    public init(parsing specifications: [String]) throws {
        self.init()
        for specification in specifications.flatMap({ $0.split(separator: ",").map(String.init) }) {
            guard let fault = Self.fault(specification) else { throw ParseError(specification: specification) }
            faults.append(fault)
        }
    }

    private static func fault(_ specification: String) -> TagFault? {
        let parts = specification.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        let numbers = parts[1].split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        guard numbers.count <= 2, let first = numbers[0], first >= 0 else { return nil }
        var count: Int?
        if numbers.count == 2 {
            guard let value = numbers[1], value >= 1, parts[0] == "silent" else { return nil }
            count = value
        }
        switch parts[0] {
        case "removed-after": return .removedAfter(first)
        case _ where first < 1: return nil
        case "truncated-answer": return .truncatedAnswer(at: first)
        case "flipped-bit", "corrupt-at": return .flippedBit(at: first)
        case "silent", "silent-at": return .silent(from: first, count: count)
        case "torn-write": return .tornWrite(at: first)
        case "unanswered-command": return .unansweredCommand(at: first)
        default: return nil
        }
    }

    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public var specification: String
        public var description: String {
            "unknown fault '\(specification)'; use removed-after=N, truncated-answer=N, flipped-bit=N (or corrupt-at=N), "
                + "silent=N (or silent-at=N; silent=NxK for K commands), torn-write=N (N counts tag commands from 1), "
                + "unanswered-command=N (N counts a logger's command messages from 1)"
        }
    }
}
