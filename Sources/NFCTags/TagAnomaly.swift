import Foundation

/// Something odd about a tag's memory that did not stop the read.
public struct TagAnomaly: Sendable, Equatable, CustomStringConvertible {
    /// Byte address from the start of tag memory, when the anomaly has one.
    public var offset: Int?
    public var message: String

    public init(offset: Int?, message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { offset.map { "byte \($0): \(message)" } ?? message }
}
