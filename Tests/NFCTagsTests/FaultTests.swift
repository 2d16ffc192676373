import Foundation
import NDEF
import Testing

@testable import NFCTags
@testable import NFCTagsEmulation

@Suite struct FaultTests {
    /// Commands a clean read of a full tag takes.
    func cleanCommands(_ chip: TagChip) async throws -> Int {
        try await cleanRun(chip).total
    }

    /// A clean read of a full tag: all its commands, those up to the last data command (an
    /// NT3H2211 read then selects sector 0 again, which no fault can make partial), and the log.
    func cleanRun(_ chip: TagChip) async throws -> (total: Int, data: Int, log: [VirtualExchange]) {
        let tag = try VirtualTag.make(chip: chip, ndefMessage: try fullMessage(chip))
        _ = try await TagReader.read(from: tag)
        let log = await tag.exchanges
        let restores = log.suffix(2).map { Array($0.command) } == [[0xC2, 0xFF], [0x00, 0x00, 0x00, 0x00]]
        return (log.count, log.count - (restores ? 2 : 0), log)
    }

    @Test(arguments: TagChip.emulated)
    func tagRemovedMidReadSaysHowMuchWasReadAndResumes(chip: TagChip) async throws {
        let message = try fullMessage(chip)
        let (clean, data, _) = try await cleanRun(chip)
        let cut = data - 1
        let tag = try VirtualTag.make(chip: chip, ndefMessage: message, faults: TagFaults([.removedAfter(cut)]))
        var partial: PartialRead?
        do {
            let result = try await TagReader.read(from: tag)
            Issue.record("a read of a removed tag returned \(result.ndefMessageBytes?.count ?? 0) bytes")
        } catch TagReadError.tagRemoved(let stop) {
            #expect(stop.bytesRead > 0)
            let needed = try #require(stop.bytesNeeded)
            #expect(stop.bytesRead < needed)
            #expect(stop.commandsSent == cut + 1)
            let text = TagReadError.tagRemoved(stop).description
            #expect(text.contains("\(stop.bytesRead) of \(needed) bytes"))
            partial = stop.partial
        }
        let resume = try #require(partial)
        await tag.reinsert()
        await tag.resetCounters()
        let result = try await TagReader.read(from: tag, options: TagReadOptions(resume: resume))
        #expect(result.ndefMessageBytes == message)
        // Identification again, then only the missing part.
        let resumedCommands = await tag.commandCount
        #expect(resumedCommands < clean)
        #expect(resumedCommands >= 2)
    }

    @Test(arguments: TagChip.emulated)
    func removedRightAwayReportsNothingRead(chip: TagChip) async throws {
        let tag = try VirtualTag.make(chip: chip, ndefMessage: try fullMessage(chip), faults: TagFaults([.removedAfter(0)]))
        await #expect(throws: TagReadError.self) { try await TagReader.read(from: tag) }
    }

    @Test(arguments: TagChip.emulated)
    func corruptedAnswersAreRetried(chip: TagChip) async throws {
        let message = try fullMessage(chip)
        let (clean, data, _) = try await cleanRun(chip)
        let positions = data <= 8 ? Array(1...data) : [1, 2, 3, data / 2, data - 1, data]
        for number in positions {
            let tag = try VirtualTag.make(chip: chip, ndefMessage: message, faults: TagFaults([.truncatedAnswer(at: number)]))
            let result = try await TagReader.read(from: tag)
            #expect(result.ndefMessageBytes == message, "corrupted answer at command \(number)")
            #expect(result.chip == chip)
            #expect(await tag.commandCount == clean + 1, "corrupted answer at command \(number)")
        }
    }

    @Test(arguments: TagChip.emulated)
    func silentCommandsAreRetriedWithinBounds(chip: TagChip) async throws {
        let message = try fullMessage(chip)
        let (clean, data, log) = try await cleanRun(chip)
        var middle = clean / 2 + 1
        // A lost SECTOR_SELECT packet 2 cannot be told from its passive ACK (see NT3H2211Tests).
        if log[middle - 1].command.count == 4 && log[middle - 2].command == Data([0xC2, 0xFF]) { middle -= 1 }
        let once = try VirtualTag.make(chip: chip, ndefMessage: message, faults: TagFaults([.silent(from: middle, count: 1)]))
        let result = try await TagReader.read(from: once)
        #expect(result.ndefMessageBytes == message)
        #expect(await once.commandCount == clean + 1)
        // The timeout's wait is part of the modeled time.
        #expect(await once.airTimeMicroseconds > 100_000)

        let dead = try VirtualTag.make(
            chip: chip, ndefMessage: message,
            faults: TagFaults([.silent(from: data, count: 3)]))
        do {
            _ = try await TagReader.read(from: dead)
            Issue.record("three timeouts in a row did not fail the read")
        } catch TagReadError.noAnswer(_, let attempts, let stop) {
            #expect(attempts == 3)
            #expect(stop.bytesRead < (stop.bytesNeeded ?? 0))
        }
    }

    @Test(arguments: TagChip.emulated)
    func emptyTagsReadAsEmpty(chip: TagChip) async throws {
        let tag = try VirtualTag.make(chip: chip, ndefMessage: Data())
        let result = try await TagReader.read(from: tag)
        #expect(result.ndefMessageBytes == Data())
        #expect(result.ndefMessage == nil)
        #expect(result.anomalies.isEmpty)
        // Identification and one read of the CC and the first TLV bytes.
        #expect(result.commandCount == 2)
    }

    @Test(arguments: TagChip.emulated)
    func progressGrowsToTheTotal(chip: TagChip) async throws {
        let message = try fullMessage(chip)
        let tag = try VirtualTag.make(chip: chip, ndefMessage: message)
        let log = ProgressLog()
        _ = try await TagReader.read(from: tag) { log.add($0) }
        let reports = log.reports
        #expect(reports.count >= 2)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.bytesRead <= $1.bytesRead })
        let last = try #require(reports.last)
        #expect(last.bytesRead == last.totalBytes)
        #expect(last.fraction == 1)
        // The total is the memory from the CC through the end of the NDEF TLV.
        let expected: Int
        switch chip {
        case .ntag213: expected = 148
        case .ntag215: expected = 500
        case .ntag216, .nt3h2111: expected = 876
        // Pages 3 to 471 (the CC and a 1872-byte data area, into sector 1) less the 30 pages
        // 0xE2–0xFF between the sectors.
        case .nt3h2211: expected = 1756
        case .icodeSLIX2: expected = 320
        default: expected = 8192
        }
        #expect(last.totalBytes == expected)
    }

    /// A write torn at any command leaves the old message, an empty one, or the new one —
    /// never a partial message.
    @Test(arguments: [TagChip.ntag213, .ntag216, .nt3h2211, .icodeSLIX2, .st25dv64k])
    func tornWritesNeverLeaveAPartialMessage(chip: TagChip) async throws {
        let old = helloMessage
        let new = TagImage.sampleMessage(totalBytes: chip == .ntag213 ? 120 : 300)
        let reference = try VirtualTag.make(chip: chip, ndefMessage: old)
        try await Type2Or5.write(new, to: reference)
        let total = await reference.commandCount
        let firstWrite =
            await reference.exchanges.firstIndex {
                EmulatorCore.isWrite(Array($0.command), technology: chip.technology)
            }.map { $0 + 1 } ?? 1
        var outcomes: Set<String> = []
        for number in firstWrite...total {
            let tag = try VirtualTag.make(chip: chip, ndefMessage: old, faults: TagFaults([.tornWrite(at: number)]))
            do {
                try await Type2Or5.write(new, to: tag)
                Issue.record("a torn write at command \(number) reported success")
            } catch let error as TagWriteError {
                guard case .interrupted(let written, let of) = error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                #expect(written < of)
            }
            await tag.reinsert()
            let result = try await TagReader.read(from: tag)
            let bytes = result.ndefMessageBytes
            if bytes == old {
                outcomes.insert("old")
            } else if bytes == Data() {
                outcomes.insert("empty")
            } else if bytes == new {
                outcomes.insert("new")
            } else {
                Issue.record("torn write at command \(number) left \(bytes?.count ?? -1) bytes")
            }
        }
        #expect(outcomes.contains("empty"))
    }

    @Test func interruptedErrorsSayWhatToDo() {
        let stop = TagReadInterruption(
            bytesRead: 1234, bytesNeeded: 8192, commandsSent: 12, stoppedAt: "block 308",
            partial: PartialRead(technology: .iso15693, uid: nil, unitSize: 4, units: [:]))
        #expect(
            TagReadError.tagRemoved(stop).description
                == "the tag was removed after 1234 of 8192 bytes (15 %) had been read (stopped at block 308); hold the reader still against the tag and read again to resume"
        )
        #expect(
            TagWriteError.doesNotFit(messageBytes: 900, capacityBytes: 868).description
                == "the message is 900 bytes but the tag holds at most 868 bytes; shorten it or use a larger tag")
    }
}

enum Type2Or5 {
    static func write(_ message: Data, to tag: VirtualTag) async throws {
        try await TagReader.write(message, to: tag)
    }
}

extension FaultTests {
    @Test func resumeDataOfAnotherTagIsNotUsed() async throws {
        let first = try VirtualTag.make(chip: .ntag216, ndefMessage: try fullMessage(.ntag216), faults: TagFaults([.removedAfter(4)]))
        var partial: PartialRead?
        do { _ = try await TagReader.read(from: first) } catch TagReadError.tagRemoved(let stop) { partial = stop.partial }
        let resume = try #require(partial)
        #expect(resume.byteCount > 0)
        let otherMessage = TagImage.sampleMessage(totalBytes: 700)
        let other = try VirtualTag.make(chip: .ntag216, ndefMessage: otherMessage, uid: Data([0x04, 1, 2, 3, 4, 5, 6]))
        let result = try await TagReader.read(from: other, options: TagReadOptions(resume: resume))
        #expect(result.ndefMessageBytes == otherMessage)
    }
}

extension Type2Tests {
    @Test func writeFlowsAroundReservedAreasAndLeavesThemAlone() async throws {
        let layout = TLVLayout(controlTLVs: [.memoryControl(position: 40, size: 16)])
        let tag = try VirtualTag.make(chip: .ntag215, ndefMessage: helloMessage, layout: layout)
        let message = TagImage.sampleMessage(totalBytes: 300)
        try await Type2Tag(transport: tag).writeNDEF(message)
        let memory = Array(await tag.memory)
        #expect(memory[40..<56].allSatisfy { $0 == 0x5A })
        let result = try await TagReader.read(from: tag)
        #expect(result.ndefMessageBytes == message)
        #expect(result.tlvs.map(\.kind) == [.memoryControl, .ndef])
        // An empty message is an NDEF TLV of length 0 followed by the terminator.
        try await Type2Tag(transport: tag).writeNDEF(Data())
        let empty = try await TagReader.read(from: tag, options: TagReadOptions(scope: .wholeDataArea))
        #expect(empty.ndefMessageBytes == Data())
        #expect(empty.tlvs.map(\.kind) == [.memoryControl, .ndef, .terminator])
        // The old message's bytes after the terminator are reported.
        #expect(empty.anomalies.contains { $0.message.contains("after the Terminator TLV") })
    }
}

@Suite struct FaultModelTests {
    @Test func parsesEveryNamedFaultAndTheOlderSpellings() throws {
        let faults = try TagFaults(parsing: [
            "removed-after=5,truncated-answer=2", "flipped-bit=3", "silent=9", "silent=4x2",
            "torn-write=7", "corrupt-at=6", "silent-at=11", "removed-after=0",
            "unanswered-command=2",
        ])
        #expect(
            faults.faults == [
                .removedAfter(5), .truncatedAnswer(at: 2), .flippedBit(at: 3), .silent(from: 9, count: nil),
                .silent(from: 4, count: 2), .tornWrite(at: 7), .flippedBit(at: 6), .silent(from: 11, count: nil),
                .removedAfter(0), .unansweredCommand(at: 2),
            ])
        #expect(
            faults.description
                == "removed-after=5,truncated-answer=2,flipped-bit=3,silent=9,silent=4x2,torn-write=7,flipped-bit=6,silent=11,removed-after=0,unanswered-command=2"
        )
        #expect(faults.leavesUnanswered(commandMessage: 2) && !faults.leavesUnanswered(commandMessage: 1))
        #expect(try TagFaults(parsing: [faults.description]) == faults)
        for bad in [
            "vanish=3", "corrupt-at=0", "silent-at=0", "silent=3x0", "silent-at=3x2", "torn-write=2x2", "flipped-bit=",
            "removed-after=-1", "truncated-answer", "silent=1x2x3", "unanswered-command=0",
        ] {
            #expect(throws: TagFaults.ParseError.self, "\(bad)") { try TagFaults(parsing: [bad]) }
        }
        let error = TagFaults.ParseError(specification: "vanish=3")
        #expect(error.description.contains("torn-write=N"))
    }

    @Test func silentCoversItsCommandsOnly() {
        let faults = TagFaults([.silent(from: 4, count: 2), .silent(from: 10, count: nil)])
        #expect((1...12).filter(faults.silences) == [4, 5, 10, 11, 12])
        #expect(!faults.removes(100))
        #expect(TagFaults([.removedAfter(3)]).removes(4))
        #expect(!TagFaults([.removedAfter(3)]).removes(3))
    }

    @Test func reinsertionForgetsRemovalAndTornWriteOnly() {
        let faults = TagFaults([.removedAfter(2), .tornWrite(at: 5), .flippedBit(at: 9), .silent(from: 12, count: 1)])
        #expect(faults.afterReinsertion == TagFaults([.flippedBit(at: 9), .silent(from: 12, count: 1)]))
    }

    @Test func aFlippedBitAnswerIsWholeButWrongAndTheReadStillSucceeds() async throws {
        let message = try fullMessage(.ntag216)
        let tag = try VirtualTag.make(chip: .ntag216, ndefMessage: message, faults: TagFaults([.flippedBit(at: 1)]))
        let first = try await tag.send(Data([0x30, 0x04]), timeout: .seconds(1))
        let clean = try await tag.send(Data([0x30, 0x04]), timeout: .seconds(1))
        #expect(first.count == clean.count)
        #expect(zip(first, clean).map { ($0 ^ $1).nonzeroBitCount }.reduce(0, +) == 1)
    }

    @Test func aTruncatedOneByteAnswerFailsTheLink() async throws {
        let tag = try VirtualTag.make(
            chip: .ntag213, ndefMessage: Data([0xD0, 0x00, 0x00]),
            faults: TagFaults([.truncatedAnswer(at: 1)]))
        await #expect(throws: TransportError.self) { _ = try await tag.send(Data([0xA2, 0x10, 0, 0, 0, 0]), timeout: .seconds(1)) }
    }
}
