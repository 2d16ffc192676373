import Testing

@testable import AppViewModels

/// A fake upload queue and transport: the queue's list is taken once per flush, as
/// StationClient's `UploadQueue.flush` does, and sending a read can let the test queue another.
@MainActor
private final class FakeQueue {
    var waiting: [String] = []
    var sent: [String] = []
    var onSend: ((String) async -> Void)?

    func flushOnce() async {
        for read in waiting {
            await onSend?(read)
            sent.append(read)
            waiting.removeAll { $0 == read }
        }
    }
}

@MainActor
@Suite struct FlushLoopTests {
    @Test func aReadQueuedDuringAFlushIsSentByThatFlush() async {
        let queue = FakeQueue()
        let loop = FlushLoop()
        queue.waiting = ["first"]
        var handedOver: [Int] = []
        queue.onSend = { read in
            guard read == "first" else { return }
            // A read made while "first" is on its way: queued, then a flush is asked for.
            queue.waiting.append("second")
            handedOver.append(await loop.run { await queue.flushOnce() })
        }
        let passes = await loop.run { await queue.flushOnce() }
        #expect(queue.sent == ["first", "second"])
        #expect(queue.waiting.isEmpty)
        #expect(handedOver == [0])
        #expect(passes == 2)
        #expect(!loop.isRunning)
    }

    @Test func aFlushWithNoRequestMeanwhileRunsOnce() async {
        let queue = FakeQueue()
        let loop = FlushLoop()
        queue.waiting = ["only"]
        #expect(await loop.run { await queue.flushOnce() } == 1)
        #expect(queue.sent == ["only"])
        // The next trigger flushes again.
        queue.waiting = ["later"]
        #expect(await loop.run { await queue.flushOnce() } == 1)
        #expect(queue.sent == ["only", "later"])
    }
}
