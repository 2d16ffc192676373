import Foundation

/// The chip a dump was most likely read from when its size matches no chip exactly (a tool
/// that read only the pages it needed, or stopped early), and the image padded to it.
public struct InferredDumpChip: Sendable, Equatable {
    public var chip: TagChip
    /// The dump's memory extended to the chip's whole image; added units are erased (zeros).
    public var memory: Data
    /// Pages or blocks added, `nil` when none were.
    public var addedUnits: Range<Int>?
    /// What was assumed, in one sentence, e.g. "its capability container declares an
    /// 872-byte data area, as an NTAG216's does; pages 226–230 (20 bytes) were added as erased".
    public var assumption: String
}

extension MemoryDump {
    /// The emulated chip this dump fits, judged by the data-area size its capability
    /// container declares and by its length: the first chip (NTAG21x before NTAG I2C plus)
    /// whose factory CC declares that size and whose memory holds the whole dump. `nil`
    /// when the dump has no capability container or no chip fits.
    public func inferredChip() -> InferredDumpChip? {
        let bytes = Array(memory)
        let unit = technology == .iso14443A ? 4 : max(1, unitSize)
        let declared: Int?
        switch technology {
        case .iso14443A: declared = bytes.count >= 16 ? CapabilityContainer.type2(Array(bytes[12..<16]))?.dataAreaSize : nil
        case .iso15693: declared = CapabilityContainer.type5(Array(bytes.prefix(8)))?.dataAreaSize
        }
        guard let declared else { return nil }
        for chip in TagChip.emulated where chip.technology == technology {
            let capacity: Int
            let factorySize: Int?
            if let layout = chip.type2Layout {
                (capacity, factorySize) = (layout.readablePages * 4, layout.dataAreaBytes)
            } else if let layout = chip.type5Layout, layout.blockSize == unit {
                (capacity, factorySize) = (layout.memoryBytes, CapabilityContainer.type5(layout.factoryCC)?.dataAreaSize)
            } else {
                continue
            }
            guard factorySize == declared, capacity >= bytes.count else { continue }
            let what = technology == .iso14443A ? "pages" : "blocks"
            var assumption = "its capability container declares a \(declared)-byte data area, as an \(chip.displayName)'s does"
            var added: Range<Int>?
            if capacity > bytes.count {
                let range = (bytes.count / unit)..<(capacity / unit)
                added = range
                let shown = range.count == 1 ? "\(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound - 1)"
                assumption += "; \(what) \(shown) (\(capacity - bytes.count) bytes) were added as erased"
            }
            return InferredDumpChip(
                chip: chip, memory: Data(bytes + [UInt8](repeating: 0, count: capacity - bytes.count)),
                addedUnits: added, assumption: assumption)
        }
        return nil
    }
}
