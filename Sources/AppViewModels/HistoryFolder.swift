import Foundation

/// The history of reads on disk: one JSON file per read, named by its id. Files that cannot
/// be decoded (written by another version) are reported, never deleted.
public struct HistoryFolder: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// What the folder holds: the reads newest first, and the names of the files that could
    /// not be read, sorted.
    public struct Contents: Sendable, Equatable {
        public var reads: [StoredRead]
        public var unreadableFiles: [String]
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    /// Every read in the folder (none when it does not exist yet).
    public func load() -> Contents {
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        var loaded: [StoredRead] = []
        var unreadable: [String] = []
        for file in files where file.pathExtension == "json" {
            if let data = try? Data(contentsOf: file), let read = try? Self.decoder.decode(StoredRead.self, from: data) {
                loaded.append(read)
            } else {
                unreadable.append(file.lastPathComponent)
            }
        }
        return Contents(reads: HistoryScreen.ordered(loaded), unreadableFiles: unreadable.sorted())
    }

    /// Keeps `read` (protected while the phone is locked).
    /// - Throws: file-system errors.
    public func save(_ read: StoredRead) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let data = try Self.encoder.encode(read)
        try data.write(to: file(for: read.id), options: [.atomic, .completeFileProtection])
    }

    /// Deletes the reads with `ids` (a missing file is no error).
    public func remove(_ ids: [UUID]) {
        for id in ids {
            try? FileManager.default.removeItem(at: file(for: id))
        }
    }

    func file(for id: UUID) -> URL {
        directory.appendingPathComponent("\(id.uuidString).json")
    }

    /// The message shown when a read could not be saved.
    public static func saveFailure(_ error: Error) -> String {
        let reason = error.localizedDescription
        return String(localized: "The read could not be saved: \(reason)")
    }
}
