import Combine
import Foundation
import LoggerFormats
import TempChart

/// One read kept on the phone: the decoded log as read, with the choices it was judged
/// with. The assessment is computed again when shown, so a changed profile never rewrites
/// what the logger recorded.
struct StoredRead: Codable, Identifiable, Sendable, Equatable {
    var id: UUID
    /// When the phone read the tag.
    var readAt: Date
    var log: TemperatureLog
    /// The profile name the read was judged against.
    var profileName: String
    /// The time zone identifier used for display when it was read.
    var timeZoneIdentifier: String
    /// How the read went on the air: commands resumed from the cache, resumes, seconds.
    var resumes: Int
    var seconds: Double
    /// The SHA-256 of the raw read queued for the station (nil: no station was set, or an
    /// older version read it). `StationUploader.status(of:)` tells whether it is there yet.
    var uploadSHA256: String?
    /// What the raw read is (NDEF message bytes, or an NHS31xx exchange transcript).
    var rawKind: PipelineRead.Raw?
    /// True for an NHS31xx read in automatic mode (writing was refused).
    var automaticMode: Bool?
}

extension StoredRead {
    /// The logger as a person names it: model and serial, else the tag UID, else the format.
    var loggerName: String {
        let identity = log.logger
        let model = [identity.vendor, identity.model.map { LogTexts.model($0, language: .appLanguage) }].compactMap { $0 }.joined(separator: " ")
        if let serial = identity.serial, !serial.isEmpty {
            return model.isEmpty ? serial : "\(model) \(serial)"
        }
        if !model.isEmpty { return model }
        if let uid = identity.tagUID { return uid }
        return log.format.name
    }
}

/// The history of reads, one JSON file per read in Application Support/History.
/// Files that cannot be decoded (written by another version) are skipped and reported
/// in `unreadableFiles`, never deleted.
@MainActor
final class HistoryStore: ObservableObject {
    @Published private(set) var reads: [StoredRead] = []
    @Published private(set) var unreadableFiles: [String] = []
    @Published private(set) var lastError: String?

    private let directory: URL

    init(directory: URL? = nil) {
        let base =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        self.directory = directory ?? base.appendingPathComponent("History", isDirectory: true)
        load()
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

    func load() {
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
        reads = loaded.sorted { $0.readAt > $1.readAt }
        unreadableFiles = unreadable.sorted()
    }

    /// Keeps a read (newest first).
    func add(_ read: StoredRead) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let data = try Self.encoder.encode(read)
            try data.write(to: file(for: read.id), options: [.atomic, .completeFileProtection])
            reads.insert(read, at: 0)
            lastError = nil
        } catch {
            lastError = String(localized: "The read could not be saved: \(error.localizedDescription)")
        }
    }

    func remove(_ ids: [UUID]) {
        for id in ids {
            try? FileManager.default.removeItem(at: file(for: id))
        }
        reads.removeAll { ids.contains($0.id) }
    }

    private func file(for id: UUID) -> URL {
        directory.appendingPathComponent("\(id.uuidString).json")
    }
}
