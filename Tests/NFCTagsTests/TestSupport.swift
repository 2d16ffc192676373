import Foundation
import NDEF
import NFCTagsEmulation

@testable import NFCTags

/// A small NDEF message: one Text record "Hello, cold room" (en).
let helloMessage = NDEFMessage(records: [TextRecord(text: "Hello, cold room", language: "en").record]).serialized()

func fullMessage(_ chip: TagChip, layout: TLVLayout = .factory) throws -> Data {
    TagImage.sampleMessage(totalBytes: try TagImage.capacity(for: chip, layout: layout))
}

/// Command codes in the order a virtual tag received them (Type 5: the code after the flags).
func commandCodes(_ exchanges: [VirtualExchange], technology: TagTechnology) -> [UInt8] {
    exchanges.map { technology == .iso14443A ? $0.command.first ?? 0 : Array($0.command)[1] }
}

/// A reader/tag pair that fails READ_MULTIPLE_BLOCKS above `maxBlocks` blocks (as one
/// ST25TV/reader pair failed above 30), in front of a virtual tag.
struct FussyReaderTransport: TagTransport {
    let inner: VirtualTag
    let maxBlocks: Int
    var technology: TagTechnology { inner.technology }
    var limits: LinkLimits { inner.limits }
    var uid: Data? { inner.uid }

    func send(_ command: Data, timeout: Duration) async throws -> Data {
        let bytes = Array(command)
        if bytes.count >= 4, bytes[1] == 0x23, Int(bytes[3]) + 1 > maxBlocks {
            return Data([0x01, 0x0F])
        }
        if bytes.count >= 6, bytes[1] == 0x33, (Int(bytes[4]) | Int(bytes[5]) << 8) + 1 > maxBlocks {
            return Data([0x01, 0x0F])
        }
        return try await inner.send(command, timeout: timeout)
    }
}

/// Collects progress reports.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [TagReadProgress] = []
    var reports: [TagReadProgress] { lock.withLock { items } }
    func add(_ progress: TagReadProgress) { lock.withLock { items.append(progress) } }
}
