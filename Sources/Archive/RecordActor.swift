import Foundation

/// Who recorded a fact, as the record keeps it in one text column (a lot's `created_by`, a
/// move's `moved_by`, an account event's `actor`): written by the front end that recorded
/// it, read back by the audit trail. A device token's writes name the person the token was
/// made for, the token and the device (docs/accounts.md, "The audit trail").
public enum RecordActor: Sendable, Equatable {
    /// A user of a site: signed in (`user:NAME`), or through a token made for them
    /// (`user:NAME via token #ID`, with ` (DEVICE)` when the token names its device).
    case user(name: String, tokenID: Int64? = nil, device: String? = nil)
    /// A token made for no user (`token #ID`, with ` (DEVICE)` when it names a device).
    case token(id: Int64, device: String? = nil)
    /// The command line's operating-system account (`os:NAME`).
    case operatingSystem(String)
    /// Anything else as it was given: a name typed on the command line (`--by`), `station`.
    case named(String)

    /// The text the record keeps.
    public var text: String {
        switch self {
        case .user(let name, let tokenID, let device):
            guard let tokenID else { return "user:" + name }
            return "user:\(name) via token #\(tokenID)" + RecordActor.deviceSuffix(device)
        case .token(let id, let device): return "token #\(id)" + RecordActor.deviceSuffix(device)
        case .operatingSystem(let name): return "os:" + name
        case .named(let name): return name
        }
    }

    private static func deviceSuffix(_ device: String?) -> String { device.map { " (\($0))" } ?? "" }

    /// The actor a kept text names; a text of none of the forms above is `.named`.
    public init(text: String) {
        if text.hasPrefix("user:") {
            let rest = text.dropFirst(5)
            guard let via = rest.range(of: " via token #") else {
                self = .user(name: String(rest))
                return
            }
            let (id, device) = RecordActor.tokenTail(rest[via.upperBound...])
            self = id.map { .user(name: String(rest[..<via.lowerBound]), tokenID: $0, device: device) } ?? .named(text)
        } else if text.hasPrefix("token #") {
            let (id, device) = RecordActor.tokenTail(text.dropFirst(7))
            self = id.map { .token(id: $0, device: device) } ?? .named(text)
        } else if text.hasPrefix("os:") {
            self = .operatingSystem(String(text.dropFirst(3)))
        } else {
            self = .named(text)
        }
    }

    /// `ID` or `ID (DEVICE)`: the token's number and the device's name.
    private static func tokenTail(_ tail: Substring) -> (Int64?, String?) {
        let digits = tail.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let id = Int64(digits) else { return (nil, nil) }
        let rest = tail.dropFirst(digits.count)
        if rest.isEmpty { return (id, nil) }
        guard rest.hasPrefix(" ("), rest.hasSuffix(")"), rest.count > 3 else { return (nil, nil) }
        return (id, String(rest.dropFirst(2).dropLast()))
    }

    /// The user's name when a user did it.
    public var userName: String? {
        if case .user(let name, _, _) = self { return name }
        return nil
    }
}
