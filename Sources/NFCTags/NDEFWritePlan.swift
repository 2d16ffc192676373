import Foundation

/// Where the bytes of an NDEF TLV (T, L, V and a Terminator when room is left) go.
struct NDEFWritePlan {
    let message: Data
    let headerLength: Int
    /// Largest message that fits the free area.
    let capacity: Int
    /// Physical addresses of the TLV bytes in order, `nil` when the message does not fit.
    let addresses: [Int]?
    let withTerminator: Bool

    init(message: Data, slot: Int, area: Range<Int>, reserved: [Range<Int>]) {
        self.message = message
        let free =
            slot < area.upperBound
            ? (slot..<area.upperBound).filter { address in !reserved.contains { $0.contains(address) } }
            : []
        let available = free.count
        capacity = available - 4 >= 0xFF ? available - 4 : max(0, min(0xFE, available - 2))
        headerLength = message.count < 0xFF ? 2 : 4
        let needed = headerLength + message.count
        if needed <= available && message.count <= 0xFFFE {
            withTerminator = needed < available
            addresses = Array(free.prefix(needed + (withTerminator ? 1 : 0)))
        } else {
            withTerminator = false
            addresses = nil
        }
    }

    /// Indices (into the TLV bytes) of the length field.
    var lengthIndices: [Int] { headerLength == 2 ? [1] : [1, 2, 3] }

    /// The units (pages or blocks) to write, in the order that makes a torn write harmless:
    /// the units holding the length field first, with length 0; then the rest of the TLV;
    /// then the length units with the real length. Wherever the writing stops, the tag holds
    /// an empty message or the whole new one, never a truncated one.
    /// - Parameters:
    ///   - unitSize: bytes per page or block.
    ///   - current: a unit's bytes as they are on the tag; bytes the TLV does not cover keep them.
    /// - Returns: empty when the message does not fit (`addresses` is `nil`).
    func writeOrder(unitSize: Int, current: (Int) -> [UInt8]) -> [(unit: Int, bytes: [UInt8])] {
        guard let addresses else { return [] }
        let units = Set(addresses.map { $0 / unitSize }).sorted()
        let final = bytes(zeroLength: false)
        let provisional = bytes(zeroLength: true)
        func image(_ unit: Int, _ bytes: [UInt8]) -> [UInt8] {
            var out = current(unit)
            if out.count != unitSize { out = Array(repeating: 0, count: unitSize) }
            for (index, address) in addresses.enumerated() where address / unitSize == unit { out[address % unitSize] = bytes[index] }
            return out
        }
        let lengthUnits = Set(lengthIndices.map { addresses[$0] / unitSize }).sorted()
        return lengthUnits.map { ($0, image($0, provisional)) }
            + units.filter { !lengthUnits.contains($0) }.map { ($0, image($0, final)) }
            + lengthUnits.map { ($0, image($0, final)) }
    }

    func bytes(zeroLength: Bool) -> [UInt8] {
        var out: [UInt8] = [0x03]
        if headerLength == 2 {
            out.append(zeroLength ? 0 : UInt8(message.count))
        } else {
            // Provisionally a 1-byte length of 0 followed by zeros: a write torn anywhere in
            // the final length field then still reads as length 0.
            out += zeroLength ? [0, 0, 0] : [0xFF, UInt8(message.count >> 8), UInt8(message.count & 0xFF)]
        }
        out += Array(message)
        if withTerminator { out.append(0xFE) }
        return out
    }
}
