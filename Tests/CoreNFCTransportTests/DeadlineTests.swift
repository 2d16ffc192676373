import Foundation
import NFCTags
import Testing

@testable import CoreNFCTransport

@Suite("Command deadline")
struct DeadlineTests {
    @Test func theTimerEndsAsSoonAsTheCallAnswers() async throws {
        let timerEnded = Locked(false)
        let answer = try await runWithDeadline(.seconds(3600), timerEnded: { timerEnded.with { $0 = true } }) { 42 }
        #expect(answer == 42)
        // Cancelled with the answer, not left sleeping for the hour.
        try await waitUntil { timerEnded.get }
    }

    @Test func aCallPastItsDeadlineFailsAsTimeout() async throws {
        let timerEnded = Locked(false)
        await #expect(throws: TransportError.timeout) {
            try await runWithDeadline(.milliseconds(20), timerEnded: { timerEnded.with { $0 = true } }) {
                try await Task.sleep(for: .seconds(5))
                return 0
            }
        }
        try await waitUntil { timerEnded.get }
    }
}
