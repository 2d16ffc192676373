import Foundation
import NDEF
import NFCTags
import Testing

@testable import CoreNFCTransport

@Suite("Tag reader session controller")
struct TagSessionTests {
    /// Reads the first `blocks` blocks of a Type 5 tag, 32 per command: 1 GET_SYSTEM_INFO + blocks/32 reads.
    /// A reader that does not use NFCTags' partial reads: after a loss it starts over.
    func type5Read(blocks: Int) -> @Sendable (any TagTransport, PartialRead?, @escaping TagReadSessionController.Progress) async throws -> Data {
        { transport, _, progress in try await readType5(transport, chunk: 32, blocksToRead: blocks, progress: progress) }
    }

    @Test func successShowsProgressAndTheVerdict() async throws {
        let tag = FakeST25DV()
        let session = FakeTagSession(detections: [[.type5(tag)]])
        let controller = TagReadSessionController(session: session, clock: ManualClock())
        session.start()
        let (result, report) = await controller.run(events: session.events, read: type5Read(blocks: 128)) { memory in
            "OK — \(memory.count) bytes"
        }
        #expect(try result.get().count == 512)
        #expect(try Array(result.get().prefix(8)) == [0xE2, 0x40, 0x00, 0x01, 0x00, 0x00, 0x04, 0x00])
        #expect(
            session.alerts.get == [
                "Hold the top of your iPhone near the logger.",
                "Reading… 25 %", "Reading… 50 %", "Reading… 75 %", "Reading… 100 %",
            ])
        #expect(session.ended.get?.success == true)
        #expect(session.ended.get?.message == "OK — 512 bytes")
        #expect(session.connects.get == 1)
        #expect(tag.calls.get == ["info", "multiple 0+32", "multiple 32+32", "multiple 64+32", "multiple 96+32"])
        #expect(report.resumes == 0)
        #expect(!report.warnedAboutTime)
    }

    /// A connect that never calls back does not leave the sheet on "Reading…": it is bounded
    /// like a command, polling restarts, and the tag presented again is read (issue 32 §5).
    @Test func aConnectThatNeverCallsBackIsGivenUpAndPollingRestarts() async throws {
        let tag = FakeST25DV()
        let session = FakeTagSession(detections: [[.type5(tag)], [.type5(tag)]])
        session.connectHangs.with { $0 = 1 }
        let controller = TagReadSessionController(session: session, clock: ManualClock(), policy: SessionPolicy(connectTimeout: 0.05))
        session.start()
        let (result, report) = await controller.run(events: session.events, read: type5Read(blocks: 32)) { memory in "\(memory.count)" }
        #expect(try result.get().count == 128)
        #expect(session.connects.get == 2)
        #expect(session.restarts.get == 1)
        #expect(report.resumes == 1)
    }

    @Test func type2ReadGoesThroughSendMiFareCommand() async throws {
        let tag = FakeNTAG213()
        let session = FakeTagSession(detections: [[.type2(tag)]])
        let controller = TagReadSessionController(session: session, clock: ManualClock())
        session.start()
        let (result, _) = await controller.run(
            events: session.events,
            read: { transport, _, progress in
                let version = try await transport.send(Data([0x60]), timeout: .seconds(1))
                let user = try await transport.send(Data([0x3A, 0x04, 0x27]), timeout: .seconds(1))
                progress(1)
                return version + user
            }, verdict: { _ in "Read" })
        let bytes = try result.get()
        #expect(Array(bytes.prefix(8)) == [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03])
        #expect(bytes.count == 8 + 36 * 4)
        #expect(tag.sent.get == [Data([0x60]), Data([0x3A, 0x04, 0x27])])
    }

    @Test func connectionLostThenResumeInsideTheSession() async throws {
        // The 4th command (second 32-block read) loses the tag; the person holds still, the
        // tag is found again and the read runs again inside the session. This reader keeps
        // nothing between attempts, so it starts over; NFCTags' reader continues instead
        // (PlannerIntegrationTests.lostTagMidReadResumesInsideTheSession).
        let tag = FakeST25DV(failures: [2: CoreNFCFailure(.tagConnectionLost)])
        let session = FakeTagSession(detections: [[.type5(tag)], [.type5(tag)]])
        let controller = TagReadSessionController(session: session, clock: ManualClock())
        session.start()
        let (result, report) = await controller.run(events: session.events, read: type5Read(blocks: 128)) { _ in "Done" }
        #expect(try result.get().count == 512)
        #expect(
            tag.calls.get == [
                "info", "multiple 0+32", "multiple 32+32",
                "info", "multiple 0+32", "multiple 32+32", "multiple 64+32", "multiple 96+32",
            ])
        #expect(report.resumes == 1)
        #expect(report.bytesCarriedOver == 0)  // no TagReadError, so no partial read to hand over
        #expect(session.restarts.get == 1)
        #expect(session.connects.get == 2)
        #expect(session.alerts.get.contains("Hold the top of the iPhone still on the logger until reading finishes. Resuming at 25 %."))
        #expect(session.ended.get?.success == true)
    }

    @Test func thePartialReadOfALostReadIsHandedToTheNextAttempt() async throws {
        // NFCTags reports what it read before the loss; the controller passes exactly that on.
        let tag = FakeST25DV(
            memory: PlannerIntegrationTests.st25dvMemory(PlannerIntegrationTests.longMessage),
            failures: [3: CoreNFCFailure(.tagConnectionLost)])
        let session = FakeTagSession(detections: [[.type5(tag)], [.type5(tag)]])
        let controller = TagReadSessionController(session: session, clock: ManualClock())
        session.start()
        let handed = Locked<[PartialRead?]>([])
        let (result, report) = await controller.run(
            events: session.events,
            read: { transport, resume, _ in
                handed.with { $0.append(resume) }
                let read = try await TagReader.read(
                    from: transport,
                    options: TagReadOptions(
                        commandTimeout: .seconds(2), addressed: true,
                        resume: resume))
                return try #require(read.ndefMessage)
            }, verdict: { _ in "Done" })
        #expect(try result.get() == PlannerIntegrationTests.longMessage)
        let attempts = handed.get
        #expect(attempts.count == 2)
        #expect(attempts.first.map { $0 == nil } == true)
        let carried = try #require(attempts.last.flatMap { $0 })
        #expect(carried.byteCount > 0)
        #expect(carried.uid == Data([0xE0, 0x02, 0x26, 0x00, 0x12, 0x34, 0x56, 0x78]))
        #expect(report.bytesCarriedOver == carried.byteCount)
        #expect(report.resumes == 1)
    }

    @Test func anotherTagIsRefusedWhileResuming() async throws {
        let tag = FakeST25DV(failures: [1: CoreNFCFailure(.tagConnectionLost)])
        let stranger = FakeNTAG213()
        let session = FakeTagSession(detections: [[.type5(tag)], [.type2(stranger)], [.type5(tag)]])
        let controller = TagReadSessionController(session: session, clock: ManualClock())
        session.start()
        let (result, report) = await controller.run(events: session.events, read: type5Read(blocks: 64)) { _ in "Done" }
        #expect(try result.get().count == 256)
        #expect(session.alerts.get.contains(ReaderAdvice.otherTag.englishSentence))
        #expect(stranger.sent.get.isEmpty)
        #expect(session.restarts.get == 2)
        #expect(report.resumes == 1)
    }

    @Test func sessionAboutToTimeOutEndsWithAdviceInsteadOfBeingCutOff() async throws {
        // 1.5 s per command: GET_SYSTEM_INFO + 37 reads reach 57 s, where the tag is lost;
        // 3 s are left, less than the 5 s needed to resume.
        let clock = ManualClock()
        let tag = FakeST25DV(failures: [38: CoreNFCFailure(.tagConnectionLost)], clock: clock, secondsPerCommand: 1.5)
        let session = FakeTagSession(detections: [[.type5(tag)], [.type5(tag)]])
        let controller = TagReadSessionController(session: session, clock: clock)
        session.start()
        let read: @Sendable (any TagTransport, PartialRead?, @escaping TagReadSessionController.Progress) async throws -> Data = { transport, _, progress in
            try await readType5(transport, chunk: 1, blocksToRead: 100, progress: progress)
        }
        let (result, report) = await controller.run(events: session.events, read: read) { _ in "Done" }
        #expect(throws: ReadFailure.self) { try result.get() }
        guard case .failure(let failure) = result else { return }
        #expect(failure.advice == .sessionTimedOut)
        #expect(session.ended.get?.success == false)
        #expect(session.ended.get?.message == ReaderAdvice.sessionTimedOut.englishSentence)
        #expect(session.restarts.get == 0)
        #expect(report.warnedAboutTime)
        // The warning came at 45 s with 15 s left, then progress kept the countdown visible.
        #expect(session.alerts.get.contains { $0.hasSuffix("15 s left, keep holding still.") })
        #expect(tag.calls.get.count == 39)
    }

    @Test func theCountdownOnTheSheetCountsDownEverySecond() async throws {
        // The same read as above: from 45 s to 57 s the sheet must show the seconds left
        // going down, not "15 s left" for the whole last 15 s.
        let clock = ManualClock()
        let tag = FakeST25DV(failures: [38: CoreNFCFailure(.tagConnectionLost)], clock: clock, secondsPerCommand: 1.5)
        let session = FakeTagSession(detections: [[.type5(tag)], [.type5(tag)]])
        let controller = TagReadSessionController(session: session, clock: clock)
        session.start()
        let read: @Sendable (any TagTransport, PartialRead?, @escaping TagReadSessionController.Progress) async throws -> Data = { transport, _, progress in
            try await readType5(transport, chunk: 1, blocksToRead: 100, progress: progress)
        }
        _ = await controller.run(events: session.events, read: read) { _ in "Done" }
        let shown = session.alerts.get.compactMap { alert -> Int? in
            guard let range = alert.range(of: #"(\d+) s left"#, options: .regularExpression) else { return nil }
            return Int(alert[range].split(separator: " ")[0])
        }
        #expect(shown.first == 15)
        #expect(Set(shown).count >= 5, "seconds shown: \(shown)")
        #expect(shown == shown.sorted(by: >), "the countdown never goes up: \(shown)")
        #expect(shown.allSatisfy { $0 >= 0 && $0 <= 15 })
    }

    @Test func tagResponseErrorsEndTheReadWithTheTagsRefusal() async throws {
        // Blocks 0–63 exist, the read asks for 80: the tag answers error 0x10 (block not available)
        // down to single blocks, and the planner gives up.
        let tag = FakeST25DV(totalBlocks: 64)
        let session = FakeTagSession(detections: [[.type5(tag)]])
        let controller = TagReadSessionController(session: session, clock: ManualClock())
        session.start()
        let read: @Sendable (any TagTransport, PartialRead?, @escaping TagReadSessionController.Progress) async throws -> Data = { transport, _, progress in
            var memory = Data()
            for block in 0..<80 {
                let answer = try await transport.send(Data([0x02, 0x20, UInt8(block)]), timeout: .seconds(1))
                guard answer.first == 0x00 else { throw PlannerError(detail: "block \(block): tag error \(answer.last ?? 0)") }
                memory += answer.dropFirst()
                progress(Double(block + 1) / 80)
            }
            return memory
        }
        let (result, _) = await controller.run(events: session.events, read: read) { _ in "Done" }
        guard case .failure(let failure) = result else { Issue.record("expected a failure"); return }
        #expect(failure.advice == .tagRefused)
        #expect(failure.detail.contains("block 64: tag error 16"))
        #expect(session.ended.get?.message == ReaderAdvice.tagRefused.englishSentence)
    }

    @Test func cancelledBySomeoneTappingCancel() async throws {
        let tag = FakeST25DV()
        let session = FakeTagSession(detections: [])
        let controller = TagReadSessionController(session: session, clock: ManualClock())
        session.start()
        session.send(.invalidated(CoreNFCFailure(.userCanceled, message: "Session invalidated by user")))
        let (result, _) = await controller.run(events: session.events, read: type5Read(blocks: 8)) { _ in "Done" }
        guard case .failure(let failure) = result else { Issue.record("expected a failure"); return }
        #expect(failure.advice == .cancelled)
        #expect(failure.code == .userCanceled)
        #expect(session.ended.get == nil)  // the session is already gone: nothing to invalidate
        #expect(tag.calls.get.isEmpty)
    }

    @Test func twoTagsAndUnsupportedTagsAreAskedAwayAndPolledForHalfASecondLater() async throws {
        let tag = FakeST25DV()
        let session = FakeTagSession(detections: [[.type5(tag), .type2(FakeNTAG213())], [.unsupported(kind: "FeliCa")], [.type5(tag)]])
        let clock = ManualClock()
        let controller = TagReadSessionController(session: session, clock: clock)
        session.start()
        let running = Task { await controller.run(events: session.events, read: type5Read(blocks: 32)) { _ in "Done" } }
        // Each refusal waits half a second before polling again (a card in the phone case must
        // not make a tight loop of detections).
        try await waitUntil { session.alerts.get.contains(ReaderAdvice.oneTagOnly.englishSentence) }
        #expect(session.restarts.get == 0)
        clock.advance(by: 0.4)
        try await Task.sleep(for: .milliseconds(50))
        #expect(session.restarts.get == 0)
        clock.advance(by: 0.1)
        try await waitUntil { session.alerts.get.contains(ReaderAdvice.tagNotSupported.englishSentence) }
        #expect(session.restarts.get == 1)
        clock.advance(by: 0.5)
        let (result, _) = await running.value
        #expect(try result.get().count == 128)
        #expect(
            session.alerts.get.prefix(3) == [
                "Hold the top of your iPhone near the logger.",
                ReaderAdvice.oneTagOnly.englishSentence,
                ReaderAdvice.tagNotSupported.englishSentence,
            ])
        #expect(session.restarts.get == 2)
    }

    @Test func connectFailureIsRetriedThenGivesUp() async throws {
        let tag = FakeST25DV()
        let lost = CoreNFCFailure(.tagConnectionLost)
        let session = FakeTagSession(detections: Array(repeating: [.type5(tag)], count: 6), connectFailures: Array(repeating: lost, count: 6))
        let controller = TagReadSessionController(session: session, clock: ManualClock(), policy: SessionPolicy(maxResumes: 2))
        session.start()
        let (result, _) = await controller.run(events: session.events, read: type5Read(blocks: 32)) { _ in "Done" }
        guard case .failure(let failure) = result else { Issue.record("expected a failure"); return }
        #expect(failure.advice == .movePhone)
        #expect(session.connects.get == 3)
        #expect(session.ended.get?.message == ReaderAdvice.movePhone.englishSentence)
    }

    @Test func sessionEndingDuringTheReadCancelsIt() async throws {
        // Core NFC ends the session (60 s) while a command is outstanding: the read is
        // cancelled and the person is told the time ran out.
        let session = FakeTagSession(detections: [[.type5(FakeST25DV())]])
        let controller = TagReadSessionController(session: session, clock: ManualClock())
        session.start()
        let cancelled = Locked(false)
        let (result, _) = await controller.run(
            events: session.events,
            read: { _, _, _ -> Data in
                session.send(.invalidated(CoreNFCFailure(.sessionTimeout)))
                do {
                    try await Task.sleep(for: .seconds(30))
                } catch {
                    cancelled.with { $0 = true }
                    throw error
                }
                return Data()
            }, verdict: { _ in "" })
        guard case .failure(let failure) = result else { Issue.record("expected a failure"); return }
        #expect(failure.advice == .sessionTimedOut)
        #expect(failure.code == .sessionTimeout)
        #expect(session.ended.get == nil)
        // The read's task sees its cancellation when it next runs: the state is waited for
        // (up to 5 s on a loaded machine), not assumed after a fixed pause.
        let deadline = ContinuousClock.now + .seconds(5)
        while !cancelled.get, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        #expect(cancelled.get)
    }

    @Test func theAppsClassificationDecidesTheAdvice() async throws {
        struct NotALog: Error {}
        let session = FakeTagSession(detections: [[.type2(FakeNTAG213())]])
        let controller = TagReadSessionController(
            session: session, clock: ManualClock(),
            classify: { error in
                error is NotALog ? .failed(.unreadableData) : TagReadSessionController.defaultClassification(error)
            })
        session.start()
        let (result, _) = await controller.run(
            events: session.events,
            read: { transport, _, _ -> Data in
                _ = try await transport.send(Data([0x30, 0x04]), timeout: .seconds(1))
                throw NotALog()
            }, verdict: { _ in "" })
        guard case .failure(let failure) = result else { Issue.record("expected a failure"); return }
        #expect(failure.advice == .unreadableData)
        #expect(session.ended.get?.message == ReaderAdvice.unreadableData.englishSentence)
        #expect(TagReadSessionController.defaultClassification(NotALog()) == .failed(.tagRefused))
        #expect(TagReadSessionController.defaultClassification(TransportError.unsupported("x")) == .failed(.tagNotSupported))
        #expect(TagReadSessionController.defaultClassification(CoreNFCFailure(.tagNotConnected)) == .linkLost)
    }

    @Test func missingEntitlementEndsAtOnce() async throws {
        let session = FakeTagSession(detections: [])
        let controller = TagReadSessionController(session: session, clock: ManualClock())
        session.send(.invalidated(CoreNFCFailure(.securityViolation)))
        let (result, _) = await controller.run(events: session.events, read: type5Read(blocks: 8)) { _ in "" }
        guard case .failure(let failure) = result else { Issue.record("expected a failure"); return }
        #expect(failure.advice == .appNotAllowed)
    }
}

@Suite("Plain NDEF session")
struct NDEFSessionTests {
    final class FakeNDEFSession: NDEFReaderSessionLink, @unchecked Sendable {
        let alerts = Locked<[String]>([])
        let invalidated = Locked(false)
        func setAlertMessage(_ message: String) { alerts.with { $0.append(message) } }
        func invalidate() { invalidated.with { $0 = true } }
    }

    let message = NDEFMessage(records: [NDEFRecord(tnf: .wellKnown, type: "T", payload: Data([0x02, 0x65, 0x6E, 0x4F, 0x4B]))])

    @Test func firstMessageIsTheResult() async throws {
        let session = FakeNDEFSession()
        let (events, feed) = AsyncStream<NDEFSessionEvent>.makeStream()
        feed.yield(.becameActive)
        feed.yield(.detected([message]))
        feed.yield(.invalidated(CoreNFCFailure(.firstNDEFTagRead)))
        let result = await NDEFReadSessionController(session: session).run(events: events) { _ in "Within limits" }
        #expect(try result.get() == message)
        #expect(session.alerts.get == ["Hold the top of your iPhone near the logger.", "Within limits"])
        #expect(session.invalidated.get)
    }

    @Test func emptyTagAndCancel() async throws {
        let (events, feed) = AsyncStream<NDEFSessionEvent>.makeStream()
        feed.yield(.detected([NDEFMessage(records: [])]))
        feed.yield(.invalidated(CoreNFCFailure(.firstNDEFTagRead)))
        let empty = await NDEFReadSessionController(session: FakeNDEFSession()).run(events: events)
        guard case .failure(let failure) = empty else { Issue.record("expected a failure"); return }
        #expect(failure.advice == .tagNotSupported)

        let (cancelEvents, cancelFeed) = AsyncStream<NDEFSessionEvent>.makeStream()
        cancelFeed.yield(.invalidated(CoreNFCFailure(.userCanceled)))
        let cancelled = await NDEFReadSessionController(session: FakeNDEFSession()).run(events: cancelEvents)
        guard case .failure(let cancel) = cancelled else { Issue.record("expected a failure"); return }
        #expect(cancel.advice == .cancelled)
    }
}

/// Waits (up to 5 s of real time) until `condition` holds, for steps that happen on other tasks.
func waitUntil(_ condition: () -> Bool) async throws {
    for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    #expect(condition())
}
