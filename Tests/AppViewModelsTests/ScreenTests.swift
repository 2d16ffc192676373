import ColdChain
import Foundation
import Testing

@testable import AppViewModels
@testable import StationClient

@Suite struct ScanScreenTests {
    @Test func theButtonSaysReadingAndWaitsWhileAReadRuns() {
        let idle = ScanScreen(state: .idle, canReadTags: true, profileName: "vaccine-fridge")
        #expect(idle.buttonTitle == "Scan logger")
        #expect(idle.canScan)
        #expect(idle.cannotReadNote == nil)
        #expect(idle.profileLine == "Profile: vaccine-fridge")
        #expect(idle.lastRead == nil)
        let reading = ScanScreen(state: .reading, canReadTags: true, profileName: "x")
        #expect(reading.buttonTitle == "Reading…")
        #expect(!reading.canScan)
        #expect(reading.lastRead == nil)
    }

    @Test func anIPhoneWithoutNFCSaysSo() {
        let screen = ScanScreen(state: .idle, canReadTags: false, profileName: "x")
        #expect(!screen.canScan)
        #expect(screen.cannotReadNote == "This iPhone cannot read NFC tags; use an iPhone 7 or later.")
    }

    @Test func theLastReadIsTheReadOrWhyThereIsNone() {
        let read = makeRead(makeLog([4]))
        #expect(ScanScreen(state: .finished(read), canReadTags: true, profileName: "x").lastRead == .read(read))
        let problem = ReadProblem(message: "Hold still.", detail: "lost")
        #expect(
            ScanScreen(state: .failed(problem), canReadTags: true, profileName: "x").lastRead == .problem(CommandOutcomeDisplay(problem)))
    }

    @Test func aCancelledScanShowsNothing() {
        let read = makeRead(makeLog([4]))
        #expect(ScanState.after(.success(read)) == .finished(read))
        #expect(ScanState.after(.failure(ReadProblem(message: "Reading cancelled.", cancelled: true))) == .idle)
        let problem = ReadProblem(message: "Hold still.")
        #expect(ScanState.after(.failure(problem)) == .failed(problem))
    }
}

@Suite struct HistoryScreenTests {
    @Test func anEmptyHistorySaysWhereReadsGo() {
        let screen = HistoryScreen(readCount: 0, unreadableCount: 0, stationProblem: nil, readsWaiting: 0, saveError: nil)
        #expect(screen.emptyNote?.hasPrefix("No reads yet.") == true)
        #expect(!screen.canEdit)
        #expect(screen.unreadableNote == nil)
    }

    @Test func unreadableFilesAreCounted() {
        let screen = HistoryScreen(readCount: 3, unreadableCount: 2, stationProblem: nil, readsWaiting: 0, saveError: "disk full")
        #expect(screen.emptyNote == nil)
        #expect(screen.canEdit)
        #expect(screen.unreadableNote == "2 saved reads could not be opened by this version of ColdTap; they are kept unchanged.")
        #expect(screen.saveError == "disk full")
    }

    @Test func theStationsProblemIsSaidOnlyWhileReadsWait() {
        #expect(HistoryScreen(readCount: 1, unreadableCount: 0, stationProblem: "offline", readsWaiting: 0, saveError: nil).stationProblem == nil)
        #expect(HistoryScreen(readCount: 1, unreadableCount: 0, stationProblem: "offline", readsWaiting: 1, saveError: nil).stationProblem == "offline")
    }

    @Test func aRowShowsTheVerdictTheLoggerTheTimeAndAnUploadNotDone() {
        let read = makeRead(makeLog([4], logger: .init(serial: "S-1")))
        let row = ReadRowDisplay(read: read, verdict: .alarm, upload: .waiting, timeZone: utc)
        #expect(row.verdictTitle == "Alarm")
        #expect(row.tone == .alarm)
        #expect(row.loggerName == "S-1")
        #expect(row.readAt == Fmt.dateTime(read.readAt, in: utc))
        #expect(row.badge == UploadStatus.Badge(text: "Not uploaded yet", symbol: "icloud.slash", tone: .caution))
        #expect(ReadRowDisplay(read: read, verdict: .ok, upload: .uploaded(by: nil), timeZone: utc).badge == nil)
        #expect(ReadRowDisplay(read: read, verdict: .ok, upload: .uploaded(by: "Olli Berg"), timeZone: utc).badge == nil)
    }

    @Test func theFolderKeepsReadsNewestFirstAndNamesFilesItCannotRead() throws {
        try withTemporaryFolder { folder in
            let history = HistoryFolder(directory: folder)
            #expect(history.load() == HistoryFolder.Contents(reads: [], unreadableFiles: []))
            let older = makeRead(makeLog([4]))
            var newer = makeRead(makeLog([5, 6]))
            newer.readAt = older.readAt.addingTimeInterval(60)
            try history.save(older)
            try history.save(newer)
            try Data("{ not a read".utf8).write(to: folder.appendingPathComponent("broken.json"))
            try Data("ignored".utf8).write(to: folder.appendingPathComponent("notes.txt"))
            let contents = history.load()
            #expect(contents.reads == [newer, older])
            #expect(contents.unreadableFiles == ["broken.json"])
            history.remove([older.id])
            #expect(history.load().reads == [newer])
            // The file another version wrote is kept, never deleted.
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("broken.json").path))
        }
    }

    @Test func aReadFileHasTheFieldsEarlierVersionsWrote() throws {
        try withTemporaryFolder { folder in
            let read = makeRead(makeLog([4]), uploadSHA256: "ab", rawKind: .nhsTranscript, automaticMode: true)
            try HistoryFolder(directory: folder).save(read)
            let data = try Data(contentsOf: HistoryFolder(directory: folder).file(for: read.id))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(
                Set(object.keys) == [
                    "id", "readAt", "log", "profileName", "timeZoneIdentifier", "resumes", "seconds", "uploadSHA256", "rawKind", "automaticMode",
                ])
            #expect(object["rawKind"] as? String == "nhsTranscript")
            #expect(object["readAt"] as? String == "2026-04-09T00:30:00Z")
        }
    }
}

@Suite struct UploadStatusTests {
    @Test func aReadsStatusComesFromTheQueue() {
        let waiting: Set<String> = ["aa"]
        let refused = ["bb": "401 token refused"]
        #expect(UploadStatus.of(sha256: nil, waiting: waiting, refused: refused) == .notForUpload)
        #expect(UploadStatus.of(sha256: "aa", waiting: waiting, refused: refused) == .waiting)
        #expect(UploadStatus.of(sha256: "bb", waiting: waiting, refused: refused) == .refused("401 token refused"))
        #expect(UploadStatus.of(sha256: "cc", waiting: waiting, refused: refused) == .uploaded(by: nil))
        // Who sent it, when the queue kept a name for it.
        let senders = ["cc": "Olli Berg", "dd": "", "aa": "Olli Berg"]
        #expect(UploadStatus.of(sha256: "cc", waiting: waiting, refused: refused, senders: senders) == .uploaded(by: "Olli Berg"))
        #expect(UploadStatus.of(sha256: "dd", waiting: waiting, refused: refused, senders: senders) == .uploaded(by: nil))
        // A read queued again waits, whoever sent it before.
        #expect(UploadStatus.of(sha256: "aa", waiting: waiting, refused: refused, senders: senders) == .waiting)
    }

    @Test func onlyAReadNotOnTheStationIsMarked() {
        #expect(UploadStatus.notForUpload.badge == nil)
        #expect(UploadStatus.uploaded(by: nil).badge == nil)
        #expect(UploadStatus.uploaded(by: "Olli Berg").badge == nil)
        #expect(UploadStatus.waiting.badge?.text == "Not uploaded yet")
        #expect(UploadStatus.refused("x").badge?.tone == .alarm)
        #expect(UploadStatus.notForUpload.detail == nil)
        #expect(UploadStatus.uploaded(by: nil).detail?.value == "Uploaded")
        #expect(UploadStatus.uploaded(by: "Olli Berg").detail?.value == "Uploaded as Olli Berg")
        #expect(UploadStatus.refused("x").detail?.reason == "x")
    }

    @Test func theQueueTellsItsRefusalsAndQueuesThemAgain() throws {
        try withTemporaryFolder { folder in
            let queue = try UploadQueue(directory: folder)
            let first = PendingUpload(raw: Data([1]), source: "test"), second = PendingUpload(raw: Data([2]), source: "test")
            try queue.enqueue(first)
            try queue.enqueue(second)
            queue.reject(first, reason: "401 token refused")
            #expect(queue.refusals() == [first.sha256: "401 token refused"])
            #expect(queue.pending().map(\.sha256) == [second.sha256])
            queue.requeueRefused()
            #expect(queue.refusals().isEmpty)
            #expect(Set(queue.pending().map(\.sha256)) == [first.sha256, second.sha256])
            #expect(queue.pending().contains(first))
        }
    }

    @Test func theLastProblemIsWhatKeptReadsElseTheFirstRefusal() {
        var result = UploadQueue.FlushResult()
        #expect(UploadTexts.problem(after: result) == nil)
        result.rejected = [("aa", "422 not a log")]
        #expect(UploadTexts.problem(after: result) == "The station refused a read: 422 not a log")
        // A token the station no longer takes (revoked, or its user disabled): sign in again.
        result.lastError = .refused(status: 401, error: "unauthorized", detail: "the token is revoked.")
        #expect(
            UploadTexts.problem(after: result)
                == "The station no longer takes this iPhone's token (401 unauthorized). Sign in again under Settings › Station."
        )
        result.lastError = .unreachable("no route")
        #expect(UploadTexts.problem(after: result) == "Not uploaded yet: \(StationClientError.unreachable("no route").description)")
        // A station whose record shrank is named as such, not as a passing failure.
        result.lastError = .recordInconsistent("held 12 leaves, shown 9")
        #expect(
            UploadTexts.problem(after: result)
                == "The station's record no longer holds what it showed this phone before, so nothing more is sent to it. Tell the station's operator: held 12 leaves, shown 9"
        )
    }
}
