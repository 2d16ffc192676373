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

    /// A sample's bytes: tag, time, each value as a presence byte and its bits, the flag
    /// text and a NUL.
    private static func size(_ flags: String) -> Int { 28 + flags.utf8.count }

    /// Writes one sample's bytes at `start` of `buffer` (sized by `size`); a byte at a time
    /// through `Array.append` was a third of stitching.
    private static func write(
        _ tag: UInt8, _ time: Int64, _ temperature: Double?, _ humidity: Double?, _ flags: String,
        into buffer: UnsafeMutableRawBufferPointer, at start: Int
    ) -> Int {
        buffer.storeBytes(of: tag, toByteOffset: start, as: UInt8.self)
        buffer.storeBytes(of: UInt64(bitPattern: time).littleEndian, toByteOffset: start + 1, as: UInt64.self)
        buffer.storeBytes(of: temperature == nil ? 0 : 1, toByteOffset: start + 9, as: UInt8.self)
        buffer.storeBytes(of: (temperature?.bitPattern ?? 0).littleEndian, toByteOffset: start + 10, as: UInt64.self)
        buffer.storeBytes(of: humidity == nil ? 0 : 1, toByteOffset: start + 18, as: UInt8.self)
        buffer.storeBytes(of: (humidity?.bitPattern ?? 0).littleEndian, toByteOffset: start + 19, as: UInt64.self)
        var offset = start + 27
        for byte in flags.utf8 {
            buffer[offset] = byte
            offset += 1
        }
        buffer[offset] = 0
        return offset + 1
    }

    private mutating func add(_ tag: UInt8, _ time: Int64, _ temperature: Double?, _ humidity: Double?, _ flags: String) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: SamplesDigest.size(flags)))
        bytes.withUnsafeMutableBytes { _ = SamplesDigest.write(tag, time, temperature, humidity, flags, into: $0, at: start) }
    }

    /// `addSample` for each of `samples` in order, with one growth of the buffer.
    mutating func addSamples(_ samples: [StoredSample]) {
        var start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: samples.reduce(0) { $0 + SamplesDigest.size($1.flags) }))
        bytes.withUnsafeMutableBytes { buffer in
            for sample in samples {
                start = SamplesDigest.write(0x73, sample.time, sample.temperature, sample.humidity, sample.flags, into: buffer, at: start)
            }
        }
    }

    /// `addSample` for each sample of `columns` in order, with one growth of the buffer.
    mutating func addSamples(_ columns: SampleColumns) {
        var start = bytes.count
        let flagSizes = columns.flagTexts.map { SamplesDigest.size($0) }
        let total =
            columns.flagIndices.isEmpty
            ? columns.count * (flagSizes.first ?? 0)
            : columns.flagIndices.reduce(0) { $0 + flagSizes[Int($1)] }
        bytes.append(contentsOf: repeatElement(0, count: total))
        bytes.withUnsafeMutableBytes { buffer in
            for index in 0..<columns.count {
                start = SamplesDigest.write(
                    0x73, columns.times[index], columns.temperature(at: index), columns.humidity(at: index),
                    columns.flags(at: index), into: buffer, at: start)
            }
        }
    }

    mutating func addSample(timeMilliseconds: Int64, temperature: Double?, humidity: Double?, flags: String) {
        add(0x73, timeMilliseconds, temperature, humidity, flags)
    }

    mutating func addConflict(timeMilliseconds: Int64, temperature: Double?, humidity: Double?, flags: String) {
        add(0x63, timeMilliseconds, temperature, humidity, flags)
    }

    var hex: String { SHA256Digest.hex(bytes) }
}
