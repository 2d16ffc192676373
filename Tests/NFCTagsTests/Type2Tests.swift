import Foundation
import NDEF
import NFCTagsEmulation
import Testing

@testable import NFCTags

@Suite struct Type2Tests {
    @Test func getVersionIdentifiesEveryNXPChip() {
        let cases: [([UInt8], TagChip?)] = [
            ([0x00, 0x04, 0x04, 0x01, 0x01, 0x00, 0x0B, 0x03], .ntag210),
            ([0x00, 0x04, 0x04, 0x01, 0x01, 0x00, 0x0E, 0x03], .ntag212),
            ([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03], .ntag213),
            ([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03], .ntag215),
            ([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x13, 0x03], .ntag216),
            ([0x00, 0x04, 0x04, 0x04, 0x01, 0x00, 0x0F, 0x03], .ntag213),  // NTAG213 F: other subtype
            ([0x00, 0x04, 0x04, 0x05, 0x02, 0x02, 0x13, 0x03], .nt3h2111),
            ([0x00, 0x04, 0x04, 0x05, 0x02, 0x02, 0x15, 0x03], .nt3h2211),
            ([0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0B, 0x03], nil),  // MIFARE Ultralight EV1
            ([0x00, 0x04, 0x04, 0x02], nil),
        ]
        for (version, chip) in cases { #expect(Type2Layout.identify(version: version) == chip) }
    }

    @Test(arguments: [TagChip.ntag213, .ntag215, .ntag216, .nt3h2111, .nt3h2211])
    func identifyOverTheAir(chip: TagChip) async throws {
        let tag = try VirtualTag.make(chip: chip, ndefMessage: helloMessage)
        let identity = try await Type2Tag(transport: tag).identify()
        #expect(identity.chip == chip)
        #expect(identity.version == Data(chip.type2Layout?.version ?? []))
        #expect(identity.uid == TagImage.defaultUID(for: chip))
    }

    @Test func smallMessageOnALargeTagReadsOnlyWhatTheTLVNeeds() async throws {
        let tag = try VirtualTag.make(chip: .ntag216, ndefMessage: helloMessage)
        let result = try await TagReader.read(from: tag)
        #expect(result.ndefMessage?.records.first?.textRecord?.text == "Hello, cold room")
        // GET_VERSION, then READ page 3 (pages 3–6), then the rest of the 25-byte TLV.
        let exchanges = await tag.exchanges
        #expect(exchanges.map { Array($0.command) } == [[0x60], [0x30, 0x03], [0x3A, 0x07, 0x0A]])
        #expect(result.bytesRead == 32)
        #expect(result.tlvs.map(\.kind) == [.ndef])
        #expect(result.tlvs[0].offset == 16 && result.tlvs[0].length == helloMessage.count)
    }

    @Test func fastReadUsesTheLargestRangeTheLinkCarries() async throws {
        for (answerBytes, pages) in [(256, 64), (240, 60), (64, 16)] {
            let tag = try VirtualTag.make(
                chip: .ntag216, ndefMessage: try fullMessage(.ntag216),
                limits: LinkLimits(maxCommandBytes: 16, maxResponseBytes: answerBytes))
            let result = try await TagReader.read(from: tag)
            #expect(result.ndefMessageBytes == (try fullMessage(.ntag216)))
            let ranges = await tag.exchanges.compactMap { exchange -> Int? in
                let bytes = Array(exchange.command)
                return bytes.first == 0x3A ? Int(bytes[2]) - Int(bytes[1]) + 1 : nil
            }
            #expect(ranges.max() == pages)
            // Pages 7…221 in full ranges, the last one the remainder.
            #expect(ranges.reduce(0, +) == 215)
            #expect(ranges.count == (215 + pages - 1) / pages)
        }
    }

    @Test func linkWithoutFastReadFallsBackToRead() async throws {
        let tag = try VirtualTag.make(
            chip: .ntag215, ndefMessage: try fullMessage(.ntag215),
            limits: LinkLimits(maxCommandBytes: 16, maxResponseBytes: 256, supportedCommands: [0x30, 0x60, 0xA2]))
        let result = try await TagReader.read(from: tag)
        #expect(result.ndefMessageBytes == (try fullMessage(.ntag215)))
        let codes = Set(commandCodes(await tag.exchanges, technology: .iso14443A))
        #expect(codes == [0x60, 0x30])
    }

    @Test func tagWithoutGetVersionIsReadAsGenericType2() async throws {
        let tag = try VirtualTag.make(chip: .ntag213, ndefMessage: helloMessage, faults: TagFaults([.silent(from: 1, count: 3)]))
        let result = try await TagReader.read(from: tag)
        #expect(result.chip == .genericType2)
        #expect(result.ndefMessageBytes == helloMessage)
        // Three silent GET_VERSION attempts, then READ only: the Lock Control TLV and the
        // 27-byte NDEF TLV end at byte 48 (page 11): READ 3, READ 7, READ 11.
        #expect(await tag.exchanges.map { Array($0.command) } == [[0x60], [0x60], [0x60], [0x30, 3], [0x30, 7], [0x30, 11]])
    }

    @Test func unknownVersionIsAnAnomalyButStillReads() async throws {
        var memory = Array(try TagImage.memory(for: .ntag213, ndefMessage: helloMessage))
        memory[16] = 0x03  // keep the NDEF TLV first
        let dump = MemoryDump(
            technology: .iso14443A, memory: Data(memory), unitSize: 4, uid: nil, chip: nil,
            version: Data([0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0B, 0x03]), format: .raw)
        let result = try await TagReader.read(from: dump.transport())
        #expect(result.chip == .genericType2)
        #expect(result.anomalies.contains { $0.message.contains("GET_VERSION answered 00 04 03 01") })
    }

    @Test func factoryNTAG213LockControlTLVReservesTwoBytesAt160() async throws {
        let tag = try VirtualTag.make(chip: .ntag213, ndefMessage: Data())
        let result = try await TagReader.read(from: tag, options: TagReadOptions(scope: .wholeDataArea))
        #expect(result.capabilityContainer?.bytes == Data([0xE1, 0x10, 0x12, 0x00]))
        #expect(result.capabilityContainer?.dataAreaSize == 144)
        #expect(result.tlvs.map(\.kind) == [.lockControl, .ndef, .terminator])
        #expect(result.tlvs[0].reservedArea == 160..<162)
        #expect(result.tlvs[0].controlValue == Data([0xA0, 0x0C, 0x34]))
        #expect(result.tlvs.map(\.offset) == [16, 21, 23])
        #expect(result.ndefMessageBytes == Data())
        #expect(result.ndefMessage == nil)
        #expect(result.anomalies.isEmpty)
    }

    @Test(arguments: [TagChip.ntag213, .ntag215, .ntag216, .nt3h2111])
    func ndefAfterLockAndMemoryControlSkipsReservedBytes(chip: TagChip) async throws {
        // A memory control TLV reserving 8 bytes and a lock control TLV reserving 2 bytes
        // inside the NDEF area: the message must flow around both.
        let layout = TLVLayout(
            controlTLVs: [
                .memoryControl(position: 48, size: 8),
                .lockControl(position: 100, lockBits: 12),
            ], leadingNulls: 1)
        let message = try fullMessage(chip, layout: layout)
        let tag = try VirtualTag.make(chip: chip, ndefMessage: message, layout: layout)
        let memory = Array(await tag.memory)
        #expect(memory[48..<56].allSatisfy { $0 == 0x5A })
        #expect(memory[100..<102].allSatisfy { $0 == 0x5A })
        let result = try await TagReader.read(from: tag)
        #expect(result.ndefMessageBytes == message)
        #expect(result.ndefMessage != nil)
        #expect(result.tlvs.map(\.kind) == [.null, .memoryControl, .lockControl, .ndef])
        #expect(result.tlvs[1].reservedArea == 48..<56)
        #expect(result.tlvs[2].reservedArea == 100..<102)
        #expect(result.anomalies.isEmpty)
    }

    /// Every TLV kind in one data area, written by hand.
    @Test func everyTLVKind() async throws {
        var memory = Array(try TagImage.memory(for: .ntag215, ndefMessage: Data(), layout: .plain))
        let tlvs: [UInt8] =
            [
                0x00,  // NULL at 16
                0x01, 0x03, 0x82, 0x0C, 0x34,  // Lock Control at 17 → 2 bytes at 0x82 × 4 = 520? (page nibble 8 × 16 + 2)
                0x02, 0x03, 0x30, 0x04, 0x02,  // Memory Control at 22 → 4 bytes at 3 × 4 + 0 = 12?
                0xFD, 0x02, 0xAA, 0xBB,  // Proprietary at 27
                0x03, UInt8(helloMessage.count),
            ] + Array(helloMessage) + [
                0x42, 0x01, 0x99,  // unknown TLV type after the NDEF TLV
                0xFE, 0x00, 0x00, 0x77,
            ]  // Terminator then a stray byte
        for (index, byte) in tlvs.enumerated() { memory[16 + index] = byte }
        let dump = MemoryDump(
            technology: .iso14443A, memory: Data(memory), unitSize: 4, uid: nil, chip: .ntag215,
            format: .raw)
        let result = try await TagReader.read(from: dump.transport(), options: TagReadOptions(scope: .wholeDataArea))
        #expect(result.tlvs.map(\.kind) == [.null, .lockControl, .memoryControl, .proprietary, .ndef, .unknown(0x42), .terminator])
        // Lock Control: position nibble 8 × 2^4 + 2 = 130, 12 bits → 2 bytes.
        #expect(result.tlvs[1].reservedArea == 130..<132)
        // Memory Control: nibble 3 × 2^2 + 0 = 12, 4 bytes: outside the data area, so nothing is skipped.
        #expect(result.tlvs[2].reservedArea == 12..<16)
        #expect(result.tlvs[4].offset == 31 && result.tlvs[4].valueOffset == 33)
        #expect(result.ndefMessageBytes == helloMessage)
        let anomalyText = result.anomalies.map(\.message).joined(separator: " | ")
        #expect(anomalyText.contains("unknown TLV type 0x42"))
        #expect(anomalyText.contains("1 non-zero byte(s) after the Terminator TLV"))
        let stray = 16 + tlvs.count - 1
        #expect(result.anomalies.contains { $0.offset == stray })
    }

    @Test func threeByteLengthFormAndRunningPastTheDataArea() async throws {
        var memory = Array(try TagImage.memory(for: .ntag213, ndefMessage: Data(), layout: .plain))
        // NDEF TLV claims 0x0100 bytes, the data area has 144.
        memory.replaceSubrange(16..<20, with: [0x03, 0xFF, 0x01, 0x00] as [UInt8])
        let dump = MemoryDump(technology: .iso14443A, memory: Data(memory), unitSize: 4, uid: nil, chip: .ntag213, format: .raw)
        let result = try await TagReader.read(from: dump.transport())
        #expect(result.ndefMessageBytes == nil)
        #expect(result.ndefMessage == nil)
        #expect(result.anomalies.contains { $0.offset == 16 && $0.message.contains("declares 256 bytes but only 140 remain") })
    }

    @Test func unformattedTagSaysSo() async throws {
        var memory = Array(try TagImage.memory(for: .ntag213, ndefMessage: helloMessage))
        memory[12..<16] = [0, 0, 0, 0]
        let dump = MemoryDump(technology: .iso14443A, memory: Data(memory), unitSize: 4, uid: nil, chip: .ntag213, format: .raw)
        let result = try await TagReader.read(from: dump.transport())
        #expect(result.capabilityContainer == nil)
        #expect(result.ndefMessageBytes == nil)
        #expect(result.anomalies.first?.message.contains("not NDEF-formatted") == true)
    }

    @Test func readRollsOverAtTheEndOfMemory() async throws {
        let tag = try VirtualTag.make(chip: .ntag213, ndefMessage: helloMessage)
        let answer = Array(try await tag.send(Data([0x30, 0x2B]), timeout: .milliseconds(50)))
        let memory = Array(await tag.memory)
        // Pages 0x2B, 0x2C, then 0x00, 0x01.
        #expect(answer == Array(memory[172..<180]) + Array(memory[0..<8]))
        // FAST_READ past the end and READ of a page that does not exist: NAK 0x0.
        #expect(Array(try await tag.send(Data([0x3A, 0x28, 0x2D]), timeout: .milliseconds(50))) == [0x00])
        #expect(Array(try await tag.send(Data([0x30, 0x2D]), timeout: .milliseconds(50))) == [0x00])
        #expect(Array(try await tag.send(Data([0xA2, 0x01, 1, 2, 3, 4]), timeout: .milliseconds(50))) == [0x00])
    }

    @Test(arguments: [TagChip.ntag213, .ntag215, .ntag216, .nt3h2111])
    func writeThenReadBack(chip: TagChip) async throws {
        let tag = try VirtualTag.make(chip: chip, ndefMessage: helloMessage)
        let message = try fullMessage(chip)
        let written = try await Type2Tag(transport: tag).writeNDEF(message)
        #expect(written.bytesWritten >= message.count)
        let result = try await TagReader.read(from: tag)
        #expect(result.ndefMessageBytes == message)
        // Lock Control TLV of the NTAG213 survives.
        #expect(result.tlvs.first?.kind == (chip == .ntag213 ? .lockControl : .ndef))
        // The length page was written twice: first with length 0, last with the real length.
        let writes = await tag.exchanges.filter { $0.command.first == 0xA2 }.map { Array($0.command) }
        #expect(writes.first?[1] == writes.last?[1])
    }

    @Test func writeRefusesReadOnlyAndOversizedMessages() async throws {
        let locked = try VirtualTag.make(chip: .ntag213, ndefMessage: helloMessage, readOnly: true)
        await #expect(throws: TagWriteError.readOnly("the capability container's write access is 0xF")) {
            try await Type2Tag(transport: locked).writeNDEF(helloMessage)
        }
        let tag = try VirtualTag.make(chip: .ntag213, ndefMessage: helloMessage)
        let big = TagImage.sampleMessage(totalBytes: 200)
        do {
            try await Type2Tag(transport: tag).writeNDEF(big)
            Issue.record("an oversized message was written")
        } catch let error as TagWriteError {
            #expect(error == .doesNotFit(messageBytes: 200, capacityBytes: 137))
            #expect(error.description.contains("200 bytes") && error.description.contains("137 bytes"))
        }
        #expect(try TagImage.capacity(for: .ntag213) == 137)
        #expect(try TagImage.capacity(for: .ntag216) == 868)
    }

    @Test func lockedPagesAreRefused() async throws {
        // CC still says writable but the static lock bits lock pages 4–7.
        var memory = Array(try TagImage.memory(for: .ntag216, ndefMessage: helloMessage))
        memory[10] = 0xF0
        let tag = try VirtualTag(chip: .ntag216, memory: Data(memory))
        await #expect(throws: TagWriteError.readOnly("page 4 is locked by the static lock bits")) {
            try await Type2Tag(transport: tag).writeNDEF(helloMessage)
        }
        // The chip itself NAKs a WRITE to a locked page.
        #expect(Array(try await tag.send(Data([0xA2, 0x05, 1, 2, 3, 4]), timeout: .milliseconds(50))) == [0x00])
        #expect(Array(try await tag.send(Data([0xA2, 0x10, 1, 2, 3, 4]), timeout: .milliseconds(50))) == [0x0A])
    }

    @Test func dumpReadsEveryPage() async throws {
        let tag = try VirtualTag.make(chip: .ntag215, ndefMessage: helloMessage)
        let dump = try await TagReader.dump(tag)
        #expect(dump.memory == (await tag.memory))
        #expect(dump.chip == .ntag215)
        #expect(dump.uid == TagImage.defaultUID(for: .ntag215))
        // 135 pages in FAST_READs of at most 64 pages, after GET_VERSION.
        #expect(await tag.commandCount == 4)
    }
}
