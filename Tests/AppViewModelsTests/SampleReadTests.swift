import ColdChain
import ColdTapKit
import Foundation
import LoggerFormats
import StationClient
import TempChart
import Testing

@testable import AppViewModels

/// The sample read App Review opens: the bundled dump read as a tapped logger is read, then
/// kept, judged, drawn and shared as any read, marked as a sample everywhere and never queued.
@Suite struct SampleReadTests {
    static let readTime = Date(timeIntervalSince1970: 1_775_750_400)  // 2026-04-09T16:00:00Z

    @Test func theBundledDumpIsReadAsATappedLoggerIs() async throws {
        let finished = try await SampleRead.read(at: Self.readTime)
        #expect(finished.sample)
        #expect(finished.log.format == .cupltag)
        #expect(finished.log.samples.count == 144)
        #expect(finished.log.readTime == Self.readTime)
        // The same bytes through LogInput, as `coldtap decode` takes the dump, give the same samples.
        var options = LogInput.Options(readTime: Self.readTime)
        options.readTimeSource = .tagRead
        let decoded = try await LogInput.load(content: try SampleRead.dump(), name: "SampleRead.nfc", modificationTime: nil, options: options)
        #expect(decoded.log.samples == finished.log.samples)
        // The door left open one afternoon: above 8 °C for a while, an excursion on the vaccine fridge profile.
        let read = ReadKeeping.keep(finished, profileName: Profile.vaccineFridge.name, timeZoneIdentifier: "UTC", enqueue: { _ in "never" })
        let assessment = read.assessment(currentProfile: .vaccineFridge, timeZone: utc)
        #expect(assessment.excursions.count == 1)
        #expect(assessment.excursions.first?.direction == .high)
        #expect(assessment.verdict != .inconclusive)
    }

    @Test func theSampleIsNeverQueuedForTheStation() async throws {
        try await withTemporaryFolderAsync { folder in
            let queue = try UploadQueue(directory: folder)
            let enqueue: (PendingUpload) -> String? = { upload in
                (try? queue.enqueue(upload)).map { upload.sha256 }
            }
            let sample = ReadKeeping.keep(
                try await SampleRead.read(at: Self.readTime), profileName: "p", timeZoneIdentifier: "UTC", enqueue: enqueue)
            #expect(sample.isSample)
            #expect(sample.uploadSHA256 == nil)
            #expect(queue.count == 0)
            // A logger's read through the same keeping is queued.
            let logger = ReadKeeping.keep(
                FinishedRead(log: makeLog([4, 5]), raw: Data([1, 2, 3]), rawKind: .ndefMessage), profileName: "p", timeZoneIdentifier: "UTC",
                enqueue: enqueue)
            #expect(!logger.isSample)
            #expect(logger.uploadSHA256 != nil)
            #expect(queue.count == 1)
            // Even a caller that names a queued upload for a sample keeps it unqueued.
            let forced = StoredRead(readAt: t0, log: makeLog([4]), profileName: "p", timeZoneIdentifier: "UTC", uploadSHA256: "aa", sample: true)
            #expect(forced.uploadSHA256 == nil)
            #expect(UploadStatus.of(read: forced, waiting: ["aa"], refused: [:]) == .sample)
        }
    }

    @Test func theSampleIsMarkedOnTheScreenTheListAndTheHistoryFile() async throws {
        let read = ReadKeeping.keep(try await SampleRead.read(at: Self.readTime), profileName: "p", timeZoneIdentifier: "UTC", enqueue: { _ in nil })
        let assessment = read.assessment(currentProfile: .vaccineFridge, timeZone: utc)
        let upload = UploadStatus.of(read: read, waiting: [], refused: [:])
        #expect(upload == .sample)
        let screen = ResultScreen(read: read, assessment: assessment, upload: upload, timeZone: utc, hintWords: { _ in "" })
        #expect(screen.title.hasPrefix("Sample: "))
        #expect(screen.sampleNote?.contains("never uploaded") == true)
        #expect(screen.details.contains(.row(.init(label: "Station", value: "Sample read, never uploaded"))))
        let row = ReadRowDisplay(read: read, verdict: assessment.verdict, upload: upload, timeZone: utc)
        #expect(row.loggerName.hasPrefix("Sample: "))
        #expect(row.badge?.text == "Sample read, never uploaded")
        // Kept in the history as a sample; a logger's read written before the mark existed stays one.
        let encoded = try JSONEncoder().encode(read)
        #expect(try JSONDecoder().decode(StoredRead.self, from: encoded).isSample)
        var old = try JSONSerialization.jsonObject(with: JSONEncoder().encode(makeRead(makeLog([4])))) as? [String: Any] ?? [:]
        old["sample"] = nil
        let decoded = try JSONDecoder().decode(StoredRead.self, from: JSONSerialization.data(withJSONObject: old))
        #expect(!decoded.isSample)
        // A logger's read shows none of it.
        let logger = makeRead(makeLog([4]))
        let plain = ResultScreen(
            read: logger, assessment: logger.assessment(currentProfile: .vaccineFridge, timeZone: utc), upload: .notForUpload, timeZone: utc,
            hintWords: { _ in "" })
        #expect(plain.sampleNote == nil)
        #expect(!plain.title.hasPrefix("Sample"))
    }

    @Test func theScanScreenOffersTheSampleExceptWhileReading() {
        #expect(ScanScreen(state: .idle, canReadTags: false, profileName: "p").canTrySample)
        #expect(!ScanScreen(state: .reading, canReadTags: true, profileName: "p").canTrySample)
    }
}

/// The PDF and CSV the share sheet offers, made when it opens and off the main thread.
@Suite struct ReadExportsTests {
    @Test func theFilesAreMadeWhenAsked() async throws {
        try await withTemporaryFolderAsync { folder in
            let read = makeRead(makeLog([4, 5, 9, 9, 5]))
            let exports = ReadExports(
                read: read, assessment: read.assessment(currentProfile: .vaccineFridge, timeZone: utc), language: .english, folder: folder)
            // Nothing is written until the sheet asks.
            #expect(!FileManager.default.fileExists(atPath: folder.path))
            #expect(ShareSheetScreen(written: nil).preparingNote != nil)
            #expect(ShareSheetScreen(written: nil).rows.isEmpty)
            let written = await exports.prepare()
            #expect(written.problem == nil)
            let pdf = try #require(written.files[.pdf])
            let csv = try #require(written.files[.csv])
            #expect(try Data(contentsOf: pdf).prefix(5) == Data("%PDF-".utf8))
            #expect(try String(contentsOf: csv, encoding: .utf8) == LogExport.csv(read.log, timeZone: utc))
            #expect(pdf.lastPathComponent == "ColdTap-test-20260409T023000Z.pdf")
            let screen = ShareSheetScreen(written: written)
            #expect(screen.preparingNote == nil)
            #expect(screen.rows.map(\.title) == ["PDF report", "CSV data"])
            #expect(screen.rows.map(\.url) == [pdf, csv])
        }
    }

    @Test @MainActor func theDrawingRunsOffTheMainActorsThread() async {
        let read = makeRead(makeLog([4]))
        let exports = ReadExports(read: read, assessment: read.assessment(currentProfile: .vaccineFridge, timeZone: utc), language: .english)
        // The thread's identity as text (`pthread_t` is a number on Linux, a pointer on Darwin).
        let mainActorThread = "\(pthread_self())"
        let written = await exports.prepare(writing: { _ in
            ReadExports.Written(problem: "\(pthread_self())" == mainActorThread ? "written on the main actor's thread" : nil)
        })
        #expect(written.problem == nil)
    }

    @Test func theSamplesFilesSayTheyAreASample() async throws {
        let read = ReadKeeping.keep(
            try await SampleRead.read(at: SampleReadTests.readTime), profileName: "p", timeZoneIdentifier: "UTC", enqueue: { _ in nil })
        let exports = ReadExports(read: read, assessment: read.assessment(currentProfile: .vaccineFridge, timeZone: utc), language: .english)
        #expect(exports.fileName(.pdf).hasPrefix("ColdTap-Sample-"))
        #expect(exports.fileName(.csv).hasPrefix("ColdTap-Sample-"))
        let header = exports.csv().split(separator: "\r\n").first.map(String.init) ?? ""
        #expect(header.contains(ReadExports.sampleCSVNote))
        // The report says it beside the verdict (the HTML shows the same words as the PDF).
        var subject = ReportRendering.Subject(log: read.log, assessment: exports.assessment)
        subject.notice = ResultScreen.sampleNote
        let html = String(decoding: try ReportRendering().render(.html, of: subject), as: UTF8.self)
        #expect(html.contains("Sample read: a logger"))
        #expect(try exports.pdf().prefix(5) == Data("%PDF-".utf8))
        // A logger's CSV is unchanged.
        let logger = makeRead(makeLog([4]))
        let plain = ReadExports(read: logger, assessment: logger.assessment(currentProfile: .vaccineFridge, timeZone: utc), language: .english)
        #expect(plain.csv() == LogExport.csv(logger.log, timeZone: utc))
        #expect(plain.fileName(.csv).hasPrefix("ColdTap-test-"))
    }
}

/// The chart view's cache: drawn again only when something that changes the picture changes,
/// and only the newest drawing sets the image; the text follows Dynamic Type.
@Suite struct ChartRenderCacheTests {
    func input(_ values: [Double?]) -> ChartInput {
        let log = makeLog(values)
        return ChartInput(log: log, assessment: Assessor.assess(log, profile: .vaccineFridge, timeZone: utc), language: .english)
    }

    func key(width: Double = 320, dark: Bool = false, textScale: Double = 1) -> ChartRenderCache.Key {
        ChartRenderCache.Key(width: width, height: 280, scale: 3, dark: dark, textScale: textScale)
    }

    @Test func theImageIsDrawnAgainOnlyWhenThePictureChanges() throws {
        var cache = ChartRenderCache()
        var request = cache.request(for: key())
        #expect(request == nil)  // no data yet
        var changed = cache.setInput(input([4, 5, 6]))
        #expect(changed)
        request = cache.request(for: key())
        let first = try #require(request)
        request = cache.request(for: key())
        #expect(request == nil)  // the same layout while it is drawn or drawn
        var accepted = cache.accept(first)
        #expect(accepted)
        #expect(cache.renderCount == 1)
        changed = cache.setInput(input([4, 5, 6]))
        #expect(!changed)  // equal data
        request = cache.request(for: key())
        #expect(request == nil)
        for other in [key(width: 300), key(width: 300, dark: true), key(width: 300, dark: true, textScale: 1.5)] {
            request = cache.request(for: other)
            let drawing = try #require(request)
            accepted = cache.accept(drawing)
            #expect(accepted)
        }
        changed = cache.setInput(input([4, 5, 7]))
        #expect(changed)
        request = cache.request(for: key(width: 300, dark: true, textScale: 1.5))
        #expect(request != nil)
        request = cache.request(for: ChartRenderCache.Key(width: 0, height: 280, scale: 3, dark: false, textScale: 1))
        #expect(request == nil)
    }

    @Test func aDrawingOvertakenByANewerOneIsDropped() throws {
        var cache = ChartRenderCache()
        cache.setInput(input([4, 5, 6]))
        let older = cache.request(for: key(width: 300))
        let newer = cache.request(for: key(width: 310))
        let olderAccepted = cache.accept(try #require(older))
        let newerAccepted = cache.accept(try #require(newer))
        #expect(!olderAccepted)
        #expect(newerAccepted)
        #expect(cache.renderCount == 1)
    }

    @Test func theTextScaleFollowsTheContentSizeCategory() throws {
        #expect(ChartTextScale.forContentSize("UICTContentSizeCategoryL") == 1)
        #expect(ChartTextScale.forContentSize("UICTContentSizeCategoryXS") == 14.0 / 17)
        #expect(ChartTextScale.forContentSize("UICTContentSizeCategoryXXXL") == 23.0 / 17)
        #expect(ChartTextScale.forContentSize("UICTContentSizeCategoryAccessibilityXXXL") == ChartTextScale.largest)
        #expect(ChartTextScale.forContentSize("_UICTContentSizeCategoryUnspecified") == 1)
        let order = ["XS", "S", "M", "L", "XL", "XXL", "XXXL", "AccessibilityM", "AccessibilityL"].map {
            ChartTextScale.forContentSize("UICTContentSizeCategory" + $0)
        }
        #expect(order == order.sorted())
        // The scale reaches every text of the chart.
        var cache = ChartRenderCache()
        cache.setInput(input([4, 5, 6]))
        let plainRequest = cache.request(for: key())
        let largerRequest = cache.request(for: key(textScale: 1.5))
        let plain = try #require(plainRequest).model()
        let larger = try #require(largerRequest).model()
        #expect(larger.fontSize == plain.fontSize * 1.5)
    }
}

/// As `withTemporaryFolder`, for an async body.
func withTemporaryFolderAsync<T>(_ body: (URL) async throws -> T) async rethrows -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("AppViewModelsTests-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}
