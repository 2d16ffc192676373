import Foundation

extension TimeZone {
    /// Coordinated Universal Time: the zone named `UTC` (Foundation on Linux calls it `GMT`),
    /// the project's one UTC zone, made once here instead of at every use.
    public static let utc: TimeZone = TimeZone(identifier: "UTC") ?? .gmt
}
