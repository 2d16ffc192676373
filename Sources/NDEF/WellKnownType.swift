import Foundation

/// The type name of an NFC Forum well-known record type (TNF 1), such as `T` or `Sp`.
///
/// Each typed view declares its own name once (`TextRecord.wellKnownType`,
/// `URIRecord.wellKnownType`, `SmartPosterRecord.wellKnownType` and the Smart Poster's local
/// types), as ndeflib's record classes each carry their type; dispatch, the strict fast path,
/// the record-type checks and the Smart Poster reader all compare against those declarations.
public struct WellKnownType: Sendable, CustomStringConvertible {
    /// The name as written in the record's type field (ASCII).
    public let name: StaticString

    public init(_ name: StaticString) {
        self.name = name
    }

    public var description: String { name.description }

    /// The bytes of the type field.
    public var bytes: Data { name.withUTF8Buffer { Data($0) } }

    /// True when a type field holds exactly this name (well-known names compare byte for byte).
    @inline(__always)
    func matches(_ type: UnsafeRawBufferPointer) -> Bool {
        name.withUTF8Buffer { expected in
            guard type.count == expected.count else { return false }
            var index = 0
            while index < expected.count {
                if type[index] != expected[index] { return false }
                index += 1
            }
            return true
        }
    }

    /// True when `type` holds exactly this name.
    func matches(_ type: Data) -> Bool {
        type.withUnsafeBytes { matches($0) }
    }
}

extension WellKnownType: Equatable {
    public static func == (lhs: WellKnownType, rhs: WellKnownType) -> Bool {
        lhs.name.withUTF8Buffer { left in rhs.name.withUTF8Buffer { right in left.elementsEqual(right) } }
    }
}

extension NDEFRecord {
    /// A well-known record (TNF 1) of the given type.
    public init(wellKnown type: WellKnownType, id: Data = Data(), payload: Data = Data()) {
        self.init(tnf: .wellKnown, type: type.bytes, id: id, payload: payload)
    }

    /// True when this is a well-known record of `type` (for example `TextRecord.wellKnownType`).
    public func isWellKnown(_ type: WellKnownType) -> Bool {
        tnf == .wellKnown && type.matches(self.type)
    }
}
