import ColdTapBase
import Foundation

/// The latest uploads this station refused, per site, for the reads page. A rejected read
/// is not kept in the archive (it is not a read), so this is the station's memory of them
/// since it started: the newest 100 per site, each with its status and the sentence the
/// uploader was answered with.
final class RejectedUploads: Sendable {
    struct Entry: Sendable {
        var at: Date
        var status: Int
        var source: String?
        var loggerID: String?
        var bytes: Int
        var reason: String
    }

    private let bySite = LockedValue<[Int64: [Entry]]>([:])
    static let kept = 100

    func record(siteID: Int64, _ entry: Entry) {
        bySite.withLock { bySite in
            var list = bySite[siteID] ?? []
            list.append(entry)
            if list.count > RejectedUploads.kept { list.removeFirst(list.count - RejectedUploads.kept) }
            bySite[siteID] = list
        }
    }

    /// Newest first.
    func entries(siteID: Int64) -> [Entry] { bySite.withLock { ($0[siteID] ?? []).reversed() } }
}
