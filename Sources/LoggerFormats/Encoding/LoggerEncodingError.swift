/// Why a logger image could not be built from the given values.
public struct LoggerEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
