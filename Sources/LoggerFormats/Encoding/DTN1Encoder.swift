import Foundation
import NDEF

/// Builds the NDEF message of a Promods DTN1 (docs/formats/dtn1.md): a device-information Text record of
/// `KEY=VALUE` lines and the ledger (count, newest index, 8-bit points) in an unknown-type record.
public struct DTN1Encoder: Sendable {
    /// One device-information line.
    public struct Pair: Sendable, Equatable {
        public var key: String
        public var value: String
        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    /// Lines of the device-information record, in order.
    public var deviceInformation: [Pair]
    /// Ledger room in points (4 092 on the ST25DV64KC); more points than this wrap the ring.
    public var capacity: Int

    public init(deviceInformation: [Pair], capacity: Int = 4092) {
        self.deviceInformation = deviceInformation
        self.capacity = capacity
    }

    /// The raw point for a temperature: round((T − 23) / 0.5), clamped to −128…127.
    public static func raw(_ celsius: Double) -> Int8 {
        guard celsius.isFinite else { return 0 }
        return Int8(min(127, max(-128, ((celsius - 23) * 2).rounded())))
    }

    /// The ledger after logging `temperatures` (oldest first). Until the ring wraps it holds
    /// exactly the points logged; once it wraps, all `capacity` slots.
    /// - Throws: `LoggerEncodingError` when `capacity` is outside 1…65535.
    public func ledger(temperatures: [Double]) throws -> [UInt8] {
        guard (1...65535).contains(capacity) else {
            throw LoggerEncodingError("a DTN1 ledger capacity is 1…65535 points, not \(capacity)")
        }
        let wrapped = temperatures.count > capacity
        let count = wrapped ? capacity : temperatures.count
        let newest = temperatures.isEmpty ? 0 : (temperatures.count - 1) % capacity
        var slots = [UInt8](repeating: 0, count: count)
        for (index, temperature) in temperatures.enumerated() {
            slots[index % capacity] = UInt8(bitPattern: DTN1Encoder.raw(temperature))
        }
        return [UInt8(count >> 8), UInt8(count & 0xFF), UInt8(newest >> 8), UInt8(newest & 0xFF)] + slots
    }

    /// The message: device information, then the ledger.
    /// - Throws: `LoggerEncodingError` as `ledger(temperatures:)`.
    public func message(temperatures: [Double]) throws -> NDEFMessage {
        let text = deviceInformation.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
        return NDEFMessage(records: [
            TextRecord(text: text, language: "en").record,
            NDEFRecord(tnf: .unknown, payload: Data(try ledger(temperatures: temperatures))),
        ])
    }
}
