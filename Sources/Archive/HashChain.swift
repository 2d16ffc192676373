import Digest
import Foundation

/// The tamper evidence: reads and acknowledgements form one chain, in the order they were
/// kept. Each row's hash is the SHA-256 of its content, which ends with the previous row's
/// hash, so an edited, removed or reordered row breaks every hash after it.
enum HashChain {
    /// The "previous hash" of the first row.
    static let genesis = String(repeating: "0", count: 64)

    /// The hash of a row whose content fields are `fields` (joined by line feeds, each
    /// escaped so that no field can pose as two).
    static func hash(kind: String, fields: [String], previous: String) -> String {
        var bytes = Array(kind.utf8)
        bytes.reserveCapacity(1024)
        for field in fields + [previous] {
            bytes.append(0x0A)
            for byte in field.utf8 {
                switch byte {
                case 0x5C: bytes.append(0x5C); bytes.append(0x5C)
                case 0x0A: bytes.append(0x5C); bytes.append(0x6E)
                default: bytes.append(byte)
                }
            }
        }
        return SHA256Digest.hex(bytes)
    }

    static func text(_ value: Int64?) -> String { value.map(String.init) ?? "-" }
    static func text(_ value: Double?) -> String { value.map { "\($0)" } ?? "-" }
}

/// The digest over what one read added in one generation: its new samples and its
/// conflicts, oldest first. Kept in the read's chained row, so an edited sample shows.
/// Values enter as their IEEE 754 bit patterns (both engines give back the exact double).
struct SamplesDigest {
    private var bytes: [UInt8] = []

    init(capacity samples: Int = 0) { bytes.reserveCapacity(samples * 28) }

    private mutating func append(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func add(_ tag: UInt8, _ time: Int64, _ temperature: Double?, _ humidity: Double?, _ flags: String) {
        bytes.append(tag)
        append(UInt64(bitPattern: time))
        bytes.append(temperature == nil ? 0 : 1)
        append(temperature?.bitPattern ?? 0)
        bytes.append(humidity == nil ? 0 : 1)
        append(humidity?.bitPattern ?? 0)
        bytes.append(contentsOf: flags.utf8)
        bytes.append(0)
    }

    mutating func addSample(timeMilliseconds: Int64, temperature: Double?, humidity: Double?, flags: String) {
        add(0x73, timeMilliseconds, temperature, humidity, flags)
    }

    mutating func addConflict(timeMilliseconds: Int64, temperature: Double?, humidity: Double?, flags: String) {
        add(0x63, timeMilliseconds, temperature, humidity, flags)
    }

    var hex: String { SHA256Digest.hex(bytes) }
}
