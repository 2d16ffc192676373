import CSodium
import Foundation

/// Passwords as Argon2id hashes (libsodium's `crypto_pwhash_str`): the kept string names the
/// algorithm, its cost and its salt, so a hash made at one cost is checked at that cost
/// after the default changes (docs/accounts.md, "Passwords").
public enum PasswordHash {
    /// How much work one hash takes: its passes over memory and the memory it fills.
    public struct Cost: Sendable, Equatable {
        public var passes: UInt64
        public var memoryBytes: Int

        public init(passes: UInt64, memoryBytes: Int) {
            self.passes = passes
            self.memoryBytes = memoryBytes
        }

        /// libsodium's interactive limits (2 passes over 64 MiB): about a tenth of a second
        /// here, for every sign-in and signature.
        public static let interactive = Cost(passes: UInt64(crypto_pwhash_OPSLIMIT_INTERACTIVE), memoryBytes: Int(crypto_pwhash_MEMLIMIT_INTERACTIVE))
    }

    /// The shortest password taken, in characters (docs/accounts.md says why twelve).
    public static let minimumLength = 12
    /// The longest, in UTF-8 bytes: a bound on what one sign-in makes the station hash.
    public static let maximumBytes = 1024

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case tooShort(Int)
        case tooLong(Int)
        case controlCharacter
        case libraryUnavailable
        case outOfMemory

        public var description: String {
            switch self {
            case .tooShort(let count):
                return "a password has at least \(PasswordHash.minimumLength) characters; this one has \(count)."
            case .tooLong(let bytes):
                return "a password has at most \(PasswordHash.maximumBytes) bytes of UTF-8; this one has \(bytes)."
            case .controlCharacter: return "a password holds no control characters (line feeds, tabs, NUL)."
            case .libraryUnavailable: return "libsodium could not be initialised, so no password can be hashed."
            case .outOfMemory: return "hashing the password ran out of memory (Argon2id needs 64 MiB)."
            }
        }
    }

    /// Why `password` is not taken as a new password, or `nil`.
    public static func problem(with password: String) -> Failure? {
        if password.count < minimumLength { return .tooShort(password.count) }
        if password.utf8.count > maximumBytes { return .tooLong(password.utf8.count) }
        if password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return .controlCharacter }
        return nil
    }

    private static let initialised: Bool = sodium_init() >= 0

    /// The kept form of a new password (`$argon2id$v=19$m=…,t=…,p=1$salt$hash`).
    /// - Throws: `Failure` for a password the policy refuses, or when hashing fails.
    public static func make(_ password: String, cost: Cost = .interactive) throws -> String {
        if let problem = problem(with: password) { throw problem }
        guard initialised else { throw Failure.libraryUnavailable }
        var out = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        let length = UInt64(password.utf8.count)
        let status = password.withCString { text in crypto_pwhash_str(&out, text, length, cost.passes, cost.memoryBytes) }
        guard status == 0 else { throw Failure.outOfMemory }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` is the one `hash` was made from. A password over the length bound
    /// or a hash that is no Argon2id string never matches.
    public static func matches(_ password: String, hash: String) -> Bool {
        guard initialised, password.utf8.count <= maximumBytes, hash.hasPrefix("$argon2id$"), hash.utf8.count < Int(crypto_pwhash_STRBYTES) else {
            return false
        }
        var kept = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        for (index, byte) in hash.utf8.enumerated() { kept[index] = CChar(bitPattern: byte) }
        let length = UInt64(password.utf8.count)
        return password.withCString { text in crypto_pwhash_str_verify(kept, text, length) == 0 }
    }
}
