import ColdChain
import Foundation

/// One read in a list (history, last read): verdict, logger and time, and whether it still
/// waits for the station.
public struct ReadRowDisplay: Sendable, Equatable {
    public var verdictTitle: String
    public var symbol: String
    public var tone: Tone
    public var loggerName: String
    public var readAt: String
    /// Shown only while the read is not on the station.
    public var badge: UploadStatus.Badge?

    public init(read: StoredRead, verdict: Verdict, upload: UploadStatus, timeZone: TimeZone) {
        verdictTitle = verdict.title
        symbol = verdict.symbol
        tone = verdict.tone
        loggerName = read.isSample ? ResultScreen.sampleTitle(read) : read.loggerName
        readAt = Fmt.dateTime(read.readAt, in: timeZone)
        badge = upload.badge
    }
}

/// The history list: the reads newest first, and the notes around them.
public struct HistoryScreen: Sendable, Equatable {
    /// Said when nothing was read yet.
    public var emptyNote: String?
    /// Said when saved reads could not be opened by this version.
    public var unreadableNote: String?
    /// The last upload's problem, said only while reads still wait for the station.
    public var stationProblem: String?
    /// Why the last read could not be saved.
    public var saveError: String?
    /// Editing (deleting) needs something to delete.
    public var canEdit: Bool

    public init(readCount: Int, unreadableCount: Int, stationProblem: String?, readsWaiting: Int, saveError: String?) {
        emptyNote = readCount == 0 ? String(localized: "No reads yet. Scan a logger and its read is kept here, on this iPhone only.") : nil
        unreadableNote =
            unreadableCount == 0
            ? nil
            : String(localized: "\(unreadableCount) saved reads could not be opened by this version of ColdTap; they are kept unchanged.")
        self.stationProblem = readsWaiting > 0 ? stationProblem : nil
        self.saveError = saveError
        canEdit = readCount > 0
    }

    /// The order of the list: newest read first (reads at the same moment by id, so the
    /// order never changes between launches).
    public static func ordered(_ reads: [StoredRead]) -> [StoredRead] {
        reads.sorted { $0.readAt != $1.readAt ? $0.readAt > $1.readAt : $0.id.uuidString < $1.id.uuidString }
    }
}
