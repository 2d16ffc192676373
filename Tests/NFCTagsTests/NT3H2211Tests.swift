import Foundation
import NFCTagsEmulation
import Testing

@testable import NFCTags

/// A link in front of a virtual tag that answers SECTOR_SELECT packet 1 (`C2 FF`) and/or
/// packet 2 (4 bytes) with a NAK, as a chip without sectors (or a broken one) would.
struct SectorNAKTransport: TagTransport {
    let inner: VirtualTag
    var nakPacket1 = false
    var nakPacket2 = false
    var technology: TagTechnology { inner.technology }
    var limits: LinkLimits { inner.limits }
    var uid: Data? { inner.uid }

    func send(_ command: Data, timeout: Duration) async throws -> Data {
        let bytes = Array(command)
        if nakPacket1 && bytes == [0xC2, 0xFF] { return Data([0x00]) }
        if nakPacket2 && bytes.count == 4 { return Data([0x00]) }
        return try await inner.send(command, timeout: timeout)
    }
}

/// The SECTOR_SELECTs of a log must each change the sector: returns how many there were and
/// records an issue for any that re-selects the sector already selected.
func sectorSelections(_ exchanges: [VirtualExchange]) -> [Int] {
    var current = 0
    var selected: [Int] = []
    var awaitingNumber = false
    for exchange in exchanges {
        let bytes = Array(exchange.command)
        if awaitingNumber {
            awaitingNumber = false
            if let sector = bytes.first {
                #expect(Int(sector) != current, "SECTOR_SELECT of sector \(sector), already selected")
                current = Int(sector)
                selected.append(current)
            }
        } else if bytes == [0xC2, 0xFF] {
            awaitingNumber = true
        }
    }
    return selected
}

@Suite struct NT3H2211Tests {
    let chip = TagChip.nt3h2211

    @Test func layoutHasTwoSectors() throws {
        let layout = try #require(chip.type2Layout)
        #expect(layout.sectorCount == 2)
        #expect(layout.pages(inSector: 0) == 0xEA)
        #expect(layout.pages(inSector: 1) == 256)
        // Sector 0 pages 4–0xE1 (888 bytes) + sector 1 pages 0–0xFF (1024 bytes).
        #expect(layout.userMemoryBytes == 1912)
        // The 1872-byte data area (bytes 16–1887) less the 120 bytes of pages 0xE2–0xFF,
        // less the 4-byte TLV header.
        #expect(try TagImage.capacity(for: chip) == 1748)
        #expect(try TagImage.memory(for: chip, ndefMessage: helloMessage).count == 0x200 * 4)
    }

    @Test func sectorSelectAnswersLikeTheChip() async throws {
        let memory = try TagImage.memory(for: chip, ndefMessage: TagImage.sampleMessage(totalBytes: 1500))
        let tag = try VirtualTag(chip: chip, memory: memory)
        // The host's timeout is longer than the tag's 1 ms window; the model counts the window.
        let timeout = Duration.milliseconds(50)
        // Packet 1 is ACKed; packet 2 naming a sector the chip lacks is NAKed.
        #expect(Array(try await tag.send(Data([0xC2, 0xFF]), timeout: timeout)) == [0x0A])
        #expect(Array(try await tag.send(Data([0x02, 0x00, 0x00, 0x00]), timeout: timeout)) == [0x00])
        // A good packet 2 is accepted by silence (passive ACK).
        #expect(Array(try await tag.send(Data([0xC2, 0xFF]), timeout: timeout)) == [0x0A])
        await #expect(throws: TransportError.timeout) {
            try await tag.send(Data([0x01, 0x00, 0x00, 0x00]), timeout: timeout)
        }
        // READ, FAST_READ and WRITE now address sector 1.
        #expect(try await tag.send(Data([0x30, 0x00]), timeout: timeout) == memory[1024..<1040])
        #expect(try await tag.send(Data([0x3A, 0x10, 0x11]), timeout: timeout) == memory[(1024 + 64)..<(1024 + 72)])
        #expect(Array(try await tag.send(Data([0xA2, 0x20, 9, 8, 7, 6]), timeout: timeout)) == [0x0A])
        #expect(Array(await tag.memory)[(1024 + 128)..<(1024 + 132)] == [9, 8, 7, 6])
        // READ rolls over at the end of sector 1 (page 0xFF) to its page 0.
        #expect(
            try await tag.send(Data([0x30, 0xFE]), timeout: timeout)
                == memory[(1024 + 0xFE * 4)..<2048] + memory[1024..<1032])
        // Back in sector 0, pages 0xEA–0xFF answer NAK and READ rolls over after 0xE9.
        #expect(Array(try await tag.send(Data([0xC2, 0xFF]), timeout: timeout)) == [0x0A])
        await #expect(throws: TransportError.timeout) {
            try await tag.send(Data([0x00, 0x00, 0x00, 0x00]), timeout: timeout)
        }
        #expect(Array(try await tag.send(Data([0x30, 0xEA]), timeout: timeout)) == [0x00])
        #expect(Array(try await tag.send(Data([0x3A, 0xE0, 0xEA]), timeout: timeout)) == [0x00])
        #expect(
            try await tag.send(Data([0x30, 0xE8]), timeout: timeout)
                == memory[(0xE8 * 4)..<(0xEA * 4)] + memory[0..<8])
        // Air time: packet 1 is a 2-byte command with a 4-bit ACK, packet 2 a 4-byte frame
        // (6 with CRC: 57 etu ≈ 538 µs) and the ≈ 1 ms passive-ACK wait.
        let log = await tag.exchanges
        let pair = log[2].airTimeMicroseconds + log[3].airTimeMicroseconds
        #expect(abs(pair - AirTime.type2SectorSelect) < 0.01)
        #expect(abs(AirTime.type2SectorSelect - (368.1 + 91.2 + 56.6 + 86.4 + 538.1 + 1000)) < 0.5)
        // NTAG216 has no sectors: SECTOR_SELECT is NAKed.
        let ntag = try VirtualTag.make(chip: .ntag216, ndefMessage: helloMessage)
        #expect(Array(try await ntag.send(Data([0xC2, 0xFF]), timeout: timeout)) == [0x00])
    }

    @Test func fullTagReadsAcrossTheSectorBoundary() async throws {
        let message = try fullMessage(chip)
        #expect(message.count == 1748)
        let tag = try VirtualTag.make(chip: chip, ndefMessage: message)
        let result = try await TagReader.read(from: tag)
        #expect(result.chip == .nt3h2211)
        #expect(result.ndefMessageBytes == message)
        #expect(result.anomalies.isEmpty)
        // GET_VERSION, READ 3, FAST_READ 7–70, 71–134, 135–198, 199–225 (0xE1, the last user
        // page of sector 0; 0xE2–0xFF are skipped), SECTOR_SELECT (2
        // packets), FAST_READ sector 1 pages 0–63, 64–127, 128–191, 192–215 (linear 0x1D7),
        // then back to sector 0 so the next operation finds the tag as it entered the field.
        let log = await tag.exchanges
        #expect(
            log.map { Array($0.command) } == [
                [0x60], [0x30, 0x03], [0x3A, 7, 70], [0x3A, 71, 134], [0x3A, 135, 198], [0x3A, 199, 225],
                [0xC2, 0xFF], [0x01, 0x00, 0x00, 0x00],
                [0x3A, 0, 63], [0x3A, 64, 127], [0x3A, 128, 191], [0x3A, 192, 215],
                [0xC2, 0xFF], [0x00, 0x00, 0x00, 0x00],
            ])
        #expect(result.commandCount == 14)
        #expect(sectorSelections(log) == [1, 0])
        let fast = { (pages: Int) in AirTime.iso14443Exchange(commandBytes: 3, answerBytes: pages * 4) }
        let expected =
            AirTime.iso14443Exchange(commandBytes: 1, answerBytes: 8)
            + AirTime.iso14443Exchange(commandBytes: 2, answerBytes: 16)
            + 6 * fast(64) + fast(27) + fast(24) + 2 * AirTime.type2SectorSelect
        #expect(abs(await tag.airTimeMicroseconds - expected) < 0.01)
    }

    @Test func naiveReadsCrossTheBoundaryToo() async throws {
        let message = try fullMessage(chip)
        let tag = try VirtualTag.make(chip: chip, ndefMessage: message)
        let result = try await TagReader.read(from: tag, options: TagReadOptions(strategy: .naive))
        #expect(result.ndefMessageBytes == message)
        // GET_VERSION, READ 3, READs at 7, 11, … 223 (55; pages 0xE2–0xFF skipped),
        // SECTOR_SELECT, READs at sector 1 pages 0, 4, … 212 (54), SECTOR_SELECT of sector 0:
        // 1 + 1 + 55 + 2 + 54 + 2.
        #expect(result.commandCount == 115)
        let reads = await tag.exchanges.filter { $0.command.first == 0x30 }.map { Array($0.command)[1] }
        #expect(reads.suffix(55).first == 223)
        #expect(reads.suffix(54).first == 0)
        #expect(reads.last == 212)
        #expect(sectorSelections(await tag.exchanges) == [1, 0])
    }

    @Test func wholeDataAreaSkipsThePagesBetweenSectors() async throws {
        // A short message, and a leftover byte in sector 1 (linear byte 1500): the only
        // anomaly; the configuration bytes in 0xE2–0xE9 (AUTH0 = FF) are not data.
        var memory = Array(try TagImage.memory(for: chip, ndefMessage: helloMessage))
        memory[1500] = 0x42
        let tag = try VirtualTag(chip: chip, memory: Data(memory))
        let result = try await TagReader.read(from: tag, options: TagReadOptions(scope: .wholeDataArea))
        #expect(result.ndefMessageBytes == helloMessage)
        #expect(result.anomalies.count == 1)
        #expect(result.anomalies.first?.offset == 1500)
        let fastReads = await tag.exchanges.filter { $0.command.first == 0x3A }.map { Array($0.command) }
        // The message's pages 7–10 first, then the rest of the area up to 0xE1, and sector 1
        // pages 0–215 (the area ends at linear byte 1888).
        #expect(
            fastReads == [
                [0x3A, 7, 10], [0x3A, 11, 74], [0x3A, 75, 138], [0x3A, 139, 202], [0x3A, 203, 225],
                [0x3A, 0, 63], [0x3A, 64, 127], [0x3A, 128, 191], [0x3A, 192, 215],
            ])
    }

    @Test func emptyTagStaysInSectorZero() async throws {
        let tag = try VirtualTag.make(chip: chip, ndefMessage: Data())
        let result = try await TagReader.read(from: tag)
        #expect(result.ndefMessageBytes == Data())
        #expect(result.commandCount == 2)
        #expect(sectorSelections(await tag.exchanges).isEmpty)
    }

    @Test func messageCrossingTheBoundaryReadsBackByteForByte() async throws {
        // 1100 bytes: the TLV (4-byte header) fills bytes 16–903 (message bytes 0–883), skips
        // pages 0xE2–0xFF, and goes on at sector 1 byte 0 (linear 1024) with message bytes
        // 884–1099 up to 1239; the terminator is at 1240.
        let message = TagImage.sampleMessage(totalBytes: 1100)
        let memory = try TagImage.memory(for: chip, ndefMessage: message)
        #expect(Array(memory[900..<904]) == Array(message[880..<884]))
        #expect(Array(memory[1024..<1240]) == Array(message[884...]))
        #expect(memory[1240] == 0xFE)
        #expect(memory[0xE3 * 4 + 3] == 0xFF)  // AUTH0 untouched: no password protection
        let tag = try VirtualTag(chip: chip, memory: memory)
        let result = try await TagReader.read(from: tag)
        #expect(result.ndefMessageBytes == message)
        #expect(result.ndefMessage != nil)
        #expect(sectorSelections(await tag.exchanges) == [1, 0])
        // Sector 1 is read only as far as the TLV needs: pages 0–53 (linear 256–309).
        let commands = await tag.exchanges.map { Array($0.command) }
        #expect(commands.suffix(3) == [[0x3A, 0, 53], [0xC2, 0xFF], [0x00, 0x00, 0x00, 0x00]])
        // In sector 0 no FAST_READ reaches past page 0xE1.
        let sector0Reads = commands.prefix { $0 != [0xC2, 0xFF] }.filter { $0.first == 0x3A }
        #expect(!sector0Reads.isEmpty && sector0Reads.allSatisfy { $0[2] <= 0xE1 })
        // A dump reads every page of both sectors, selecting sector 1 once.
        await tag.resetCounters()
        let dump = try await TagReader.dump(tag)
        #expect(dump.memory == memory)
        #expect(sectorSelections(await tag.exchanges) == [1, 0])
        let parsed = try MemoryDump.parse(dump.memory)
        #expect(parsed.chip == .nt3h2211)
        #expect(try await TagReader.read(from: parsed.transport()).ndefMessageBytes == message)
        // The Flipper form of the dump (pages 0–489, linear) reads the same.
        let flipper = try MemoryDump.parse(Data(dump.flipperText().utf8))
        #expect(flipper.memory == memory)
        #expect(flipper.chip == .nt3h2211)
        #expect(try await TagReader.read(from: flipper.transport()).ndefMessageBytes == message)
    }

    @Test func writeAcrossTheBoundaryThenReadBack() async throws {
        let tag = try VirtualTag.make(chip: chip, ndefMessage: helloMessage)
        let message = TagImage.sampleMessage(totalBytes: 1500)
        let written = try await Type2Tag(transport: tag).writeNDEF(message)
        // 4-byte header + 1500 + terminator = 1505 bytes: sector 0 pages 4–0xE1 (888 bytes)
        // and sector 1 pages 0–0x9A (617 bytes): 377 pages, the first one twice.
        #expect(written.bytesWritten == 378 * 4)
        let writeLog = await tag.exchanges
        // Each SECTOR_SELECT changes the sector; writes in sector 1 use its own page numbers.
        let selections = sectorSelections(writeLog)
        #expect(selections.contains(1) && selections.contains(0))
        let sector1Writes = writeLog.filter { $0.command.first == 0xA2 }.map { Array($0.command)[1] }
        #expect(sector1Writes.contains(0x00) && sector1Writes.contains(0x9A))
        #expect(!sector1Writes.contains { (0xE2...0xFF).contains($0) })
        let memory = Array(await tag.memory)
        #expect(Array(memory[16..<20]) == [0x03, 0xFF, 0x05, 0xDC])
        #expect(memory[1640] == 0xFE)
        #expect(memory[0xE3 * 4 + 3] == 0xFF)  // the configuration pages were not written
        await tag.resetCounters()
        let result = try await TagReader.read(from: tag)
        #expect(result.ndefMessageBytes == message)
        // The write left the tag in sector 0; the read selects sector 1 once and returns.
        #expect(sectorSelections(await tag.exchanges) == [1, 0])
    }

    @Test(arguments: [6, 7, 8])
    func removedDuringOrAfterSectorSelect(after commands: Int) async throws {
        // Command 7 is packet 1, 8 packet 2, 9 the first FAST_READ in sector 1.
        let message = try fullMessage(chip)
        let tag = try VirtualTag.make(chip: chip, ndefMessage: message, faults: TagFaults([.removedAfter(commands)]))
        var partial: PartialRead?
        do {
            let result = try await TagReader.read(from: tag)
            Issue.record("a removed tag returned \(result.ndefMessageBytes?.count ?? 0) bytes")
        } catch TagReadError.tagRemoved(let stop) {
            // Pages 3–225 of the 3–471 the read needs (less 0xE2–0xFF).
            #expect(stop.bytesRead == 223 * 4)
            #expect(stop.bytesNeeded == 1756)
            #expect(stop.commandsSent == commands + 1)
            #expect(stop.stoppedAt == "page 256")
            partial = stop.partial
        }
        // Back in the field the tag is in sector 0 again; the resumed read selects sector 1
        // and reads only what is missing.
        await tag.reinsert()
        await tag.resetCounters()
        let resumed = try await TagReader.read(from: tag, options: TagReadOptions(resume: try #require(partial)))
        #expect(resumed.ndefMessageBytes == message)
        let codes = commandCodes(await tag.exchanges, technology: .iso14443A)
        #expect(codes == [0x60, 0xC2, 0x01, 0x3A, 0x3A, 0x3A, 0x3A, 0xC2, 0x00])
    }

    @Test func lostPassiveACKIsRecoveredBySelectingAgain() async throws {
        // Packet 2 never reaches the tag: the reader takes the silence as success, the chip
        // NAKs the next FAST_READ as a bad packet 2, and the read selects again.
        let message = try fullMessage(chip)
        let tag = try VirtualTag.make(chip: chip, ndefMessage: message, faults: TagFaults([.silent(from: 8, count: 1)]))
        let result = try await TagReader.read(from: tag)
        #expect(result.ndefMessageBytes == message)
    }

    @Test func refusedSectorSelectIsAClearError() async throws {
        let message = try fullMessage(chip)
        for (nak1, nak2) in [(true, false), (false, true)] {
            let tag = try VirtualTag.make(chip: chip, ndefMessage: message)
            let link = SectorNAKTransport(inner: tag, nakPacket1: nak1, nakPacket2: nak2)
            do {
                _ = try await TagReader.read(from: link)
                Issue.record("a refused SECTOR_SELECT did not fail the read")
            } catch let error as TagReadError {
                guard case .refused(let command, let location, let status) = error else {
                    Issue.record("expected a refusal, got \(error)")
                    continue
                }
                #expect(command == "SECTOR_SELECT")
                #expect(location.hasPrefix("sector 1"))
                #expect(status == "NAK 0x0")
                #expect(error.description.contains("refused SECTOR_SELECT at sector 1"))
            }
        }
        // A write that must cross into sector 1 is refused, naming SECTOR_SELECT.
        let tag = try VirtualTag.make(chip: chip, ndefMessage: helloMessage)
        let link = SectorNAKTransport(inner: tag, nakPacket2: true)
        do {
            try await Type2Tag(transport: link).writeNDEF(TagImage.sampleMessage(totalBytes: 1500))
            Issue.record("a write needing a refused SECTOR_SELECT succeeded")
        } catch {
            #expect("\(error)".contains("refused SECTOR_SELECT at sector 1"))
        }
    }
}
