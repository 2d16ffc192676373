import AppViewModels
import Foundation

#if canImport(Combine)
    import Combine
#else
    import CombineStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

/// The history of reads in Application Support/History (`HistoryFolder`: one JSON file per
/// read; files another version wrote are listed in `unreadableFiles`, never deleted).
@MainActor
final class HistoryStore: ObservableObject {
    @Published private(set) var reads: [StoredRead] = []
    @Published private(set) var unreadableFiles: [String] = []
    @Published private(set) var lastError: String?

    private let folder: HistoryFolder

    init(directory: URL? = nil) {
        let base =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        folder = HistoryFolder(directory: directory ?? base.appendingPathComponent("History", isDirectory: true))
        load()
    }

    func load() {
        let contents = folder.load()
        reads = contents.reads
        unreadableFiles = contents.unreadableFiles
    }

    /// Keeps a read (newest first).
    func add(_ read: StoredRead) {
        do {
            try folder.save(read)
            reads.insert(read, at: 0)
            lastError = nil
        } catch {
            lastError = HistoryFolder.saveFailure(error)
        }
    }

    func remove(_ ids: [UUID]) {
        folder.remove(ids)
        reads.removeAll { ids.contains($0.id) }
    }
}
