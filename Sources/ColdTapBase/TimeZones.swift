import Foundation

extension TimeZone {
    /// Coordinated Universal Time, named `UTC` (the name shows in reports and the archive).
    /// The project's one UTC zone: made once here instead of at every use.
    public static let utc: TimeZone = TimeZone(identifier: "UTC") ?? .gmt
}
