import Foundation

/// Type 5 GET_SYSTEM_INFO answer.
public struct Type5SystemInfo: Sendable, Equatable {
    /// UID in display order (`E0` first).
    public var uid: Data
    /// Data storage format identifier.
    public var dsfid: UInt8?
    /// Application family identifier.
    public var afi: UInt8?
    /// Bytes per block.
    public var blockSize: Int?
    /// Number of blocks.
    public var blockCount: Int?
    /// IC reference (maker-specific chip revision).
    public var icReference: UInt8?

    /// Parses a GET_SYSTEM_INFO answer (response flags included), `nil` when it is an
    /// error answer or shorter than its info flags promise.
    public static func parse(_ answer: [UInt8]) -> Type5SystemInfo? {
        guard answer.count >= 10, answer[0] & 0x01 == 0 else { return nil }
        let infoFlags = answer[1]
        var info = Type5SystemInfo(uid: Data(answer[2..<10].reversed()))
        var index = 10
        func take(_ count: Int) -> [UInt8]? {
            guard index + count <= answer.count else { return nil }
            defer { index += count }
            return Array(answer[index..<(index + count)])
        }
        if infoFlags & 0x01 != 0 { guard let byte = take(1) else { return nil }; info.dsfid = byte[0] }
        if infoFlags & 0x02 != 0 { guard let byte = take(1) else { return nil }; info.afi = byte[0] }
        if infoFlags & 0x04 != 0 {
            if infoFlags & 0x10 != 0 {
                guard let size = take(3) else { return nil }
                info.blockCount = (Int(size[0]) | Int(size[1]) << 8) + 1
                info.blockSize = Int(size[2] & 0x1F) + 1
            } else {
                guard let size = take(2) else { return nil }
                info.blockCount = Int(size[0]) + 1
                info.blockSize = Int(size[1] & 0x1F) + 1
            }
        }
        if infoFlags & 0x08 != 0 { guard let byte = take(1) else { return nil }; info.icReference = byte[0] }
        return info
    }

    public init(
        uid: Data, dsfid: UInt8? = nil, afi: UInt8? = nil, blockSize: Int? = nil, blockCount: Int? = nil,
        icReference: UInt8? = nil
    ) {
        self.uid = uid
        self.dsfid = dsfid
        self.afi = afi
        self.blockSize = blockSize
        self.blockCount = blockCount
        self.icReference = icReference
    }
}
