import ColdTapBase
import Foundation
import NDEF
import NFCTagsEmulation
import Testing

@testable import NFCTags

@Suite struct Type5Tests {
    @Test func systemInfoBothCountForms() throws {
        // SLIX2: info flags 0x0F, UID LSB first, DSFID, AFI, 80 blocks (0x4F), 4-byte blocks (0x03), IC ref.
        let short: [UInt8] = [0x00, 0x0F, 0x08, 0x07, 0x06, 0x05, 0x08, 0x01, 0x04, 0xE0, 0x00, 0x00, 0x4F, 0x03, 0x01]
        let info = try #require(Type5SystemInfo.parse(short))
        #expect(info.uid == Data([0xE0, 0x04, 0x01, 0x08, 0x05, 0x06, 0x07, 0x08]))
        #expect(info.blockCount == 80 && info.blockSize == 4 && info.icReference == 0x01)
        // 2048 blocks: flag 0x10, count − 1 = 0x07FF in two bytes LSB first.
        let long: [UInt8] = [0x00, 0x1F, 1, 2, 3, 4, 5, 0x26, 0x02, 0xE0, 0x00, 0x00, 0xFF, 0x07, 0x03, 0x26]
        let wide = try #require(Type5SystemInfo.parse(long))
        #expect(wide.blockCount == 2048 && wide.blockSize == 4)
        #expect(Type5Layout.identify(uidDisplayOrder: Array(wide.uid), blockCount: 2048, blockSize: 4) == .st25dv64k)
        #expect(Type5Layout.identify(uidDisplayOrder: Array(info.uid), blockCount: 80, blockSize: 4) == .icodeSLIX2)
        #expect(Type5SystemInfo.parse([0x01, 0x0F]) == nil)
        #expect(Type5SystemInfo.parse(Array(long.prefix(13))) == nil)
    }

    @Test func capabilityContainerForms() throws {
        let short = try #require(CapabilityContainer.type5([0xE1, 0x40, 0x28, 0x01]))
        #expect(short.dataAreaSize == 320 && short.supportsReadMultiple && !short.usesTwoByteBlockNumbers)
        #expect(short.majorVersion == 1 && short.minorVersion == 0 && short.isWritable)
        let long = try #require(CapabilityContainer.type5([0xE2, 0x40, 0x00, 0x01, 0x00, 0x00, 0x04, 0x00]))
        #expect(long.dataAreaSize == 8192 && long.bytes.count == 8 && long.usesTwoByteBlockNumbers)
        let readOnly = try #require(CapabilityContainer.type5([0xE1, 0x43, 0x10, 0x00]))
        #expect(!readOnly.isWritable && !readOnly.supportsReadMultiple)
        #expect(CapabilityContainer.type5([0xE2, 0x40, 0x00, 0x01]) == nil)
        #expect(CapabilityContainer.type5([0xE3, 0x40, 0x10, 0x01]) == nil)
    }

    @Test func slix2FullReadUsesFewMultipleBlockReads() async throws {
        let message = try fullMessage(.icodeSLIX2)
        let tag = try VirtualTag.make(chip: .icodeSLIX2, ndefMessage: message)
        let result = try await TagReader.read(from: tag)
        #expect(result.ndefMessageBytes == message)
        #expect(result.capabilityContainer?.bytes == Data([0xE1, 0x40, 0x28, 0x01]))
        // GET_SYSTEM_INFO, blocks 0–3, then 4–66 (63 blocks: 253-byte answer), 67–79.
        let commands = await tag.exchanges.map { Array($0.command) }
        #expect(commands == [[0x02, 0x2B], [0x02, 0x23, 0, 3], [0x02, 0x23, 4, 62], [0x02, 0x23, 67, 12]])
        #expect(result.systemInfo?.blockCount == 80)
        #expect(result.uid == TagImage.defaultUID(for: .icodeSLIX2))
    }

    @Test func st25dv64kStaysInsideSectorsAndUsesExtendedCommandsPastBlock255() async throws {
        let message = try fullMessage(.st25dv64k)
        let tag = try VirtualTag.make(chip: .st25dv64k, ndefMessage: message)
        let result = try await TagReader.read(from: tag)
        #expect(result.ndefMessageBytes == message)
        #expect(result.capabilityContainer?.dataAreaSize == 8192)
        #expect(result.tlvs.first?.offset == 8)
        var covered = 0
        for exchange in await tag.exchanges.dropFirst() {
            let bytes = Array(exchange.command)
            let first: Int, count: Int
            switch bytes[1] {
            case 0x23: first = Int(bytes[2]); count = Int(bytes[3]) + 1
            case 0x33: first = Int(bytes[2]) | Int(bytes[3]) << 8; count = (Int(bytes[4]) | Int(bytes[5]) << 8) + 1
            default: Issue.record("unexpected command \(bytes)"); continue
            }
            #expect(count <= 32)
            #expect(first / 32 == (first + count - 1) / 32)
            #expect((bytes[1] == 0x33) == (first + count - 1 > 255))
            covered += count
        }
        #expect(covered == 2048)
        #expect(await tag.commandCount == 66)
    }

    @Test func halvesTheBlockCountOnErrorAndRemembersIt() async throws {
        let message = try fullMessage(.icodeSLIX2)
        let learned = LearnedReadLimits()
        let tag = try VirtualTag.make(chip: .icodeSLIX2, ndefMessage: message)
        let fussy = FussyReaderTransport(inner: tag, maxBlocks: 20)
        let result = try await TagReader.read(from: fussy, options: TagReadOptions(learnedLimits: learned))
        #expect(result.ndefMessageBytes == message)
        // 63 fails, 31 fails, 15 works.
        #expect(learned.blocksPerRead(for: .icodeSLIX2) == 15)
        let again = try VirtualTag.make(chip: .icodeSLIX2, ndefMessage: message)
        let second = try await TagReader.read(
            from: FussyReaderTransport(inner: again, maxBlocks: 20),
            options: TagReadOptions(learnedLimits: learned))
        #expect(second.ndefMessageBytes == message)
        // Remembered: GET_SYSTEM_INFO, blocks 0–3, then 76 blocks in reads of 15 = 6 reads, no failures.
        #expect(await again.commandCount == 8)
    }

    @Test func withoutMBREADOnlySingleBlockReads() async throws {
        var memory = Array(try TagImage.memory(for: .icodeSLIX2, ndefMessage: helloMessage))
        memory[3] = 0x00
        let tag = try VirtualTag(chip: .icodeSLIX2, memory: Data(memory))
        let result = try await TagReader.read(from: tag)
        #expect(result.ndefMessageBytes == helloMessage)
        let codes = commandCodes(await tag.exchanges, technology: .iso15693)
        // The first read (before the CC is known) is a multiple read of blocks 0–3; after it only singles.
        #expect(codes.first == 0x2B)
        #expect(codes.dropFirst(2).allSatisfy { $0 == 0x20 })
        #expect(codes.count == 2 + (4 + 2 + helloMessage.count + 3) / 4 - 4)
    }

    @Test func addressedRequestsCarryTheUID() async throws {
        let tag = try VirtualTag.make(chip: .st25dv64k, ndefMessage: helloMessage)
        let result = try await TagReader.read(from: tag, options: TagReadOptions(addressed: true))
        #expect(result.ndefMessage?.records.first?.textRecord?.text == "Hello, cold room")
        let uidOnAir = Array(TagImage.defaultUID(for: .st25dv64k).reversed())
        for exchange in await tag.exchanges {
            #expect(exchange.command.first == 0x22)
            #expect(Array(exchange.command.dropFirst(2).prefix(8)) == uidOnAir)
        }
        // Another tag's UID gets no answer.
        await #expect(throws: TransportError.timeout) {
            _ = try await tag.send(Data([0x22, 0x20] + [UInt8](repeating: 1, count: 8) + [0]), timeout: .milliseconds(10))
        }
    }

    @Test func errorAnswersOfTheVirtualChips() async throws {
        let st = try VirtualTag.make(chip: .st25dv64k, ndefMessage: helloMessage)
        func send(_ tag: VirtualTag, _ bytes: [UInt8]) async throws -> [UInt8] {
            Array(try await tag.send(Data(bytes), timeout: .milliseconds(10)))
        }
        #expect(try await send(st, [0x02, 0x23, 0, 32]) == [0x01, 0x0F])  // 33 blocks
        #expect(try await send(st, [0x02, 0x23, 16, 31]) == [0x01, 0x10])  // crosses a sector
        #expect(try await send(st, [0x02, 0x33, 0x00, 0x08, 0, 0]) == [0x01, 0x10])  // block 2048
        #expect(try await send(st, [0x02, 0x33, 0xFF, 0x07, 0, 0]).count == 5)  // block 2047
        #expect(try await send(st, [0x02, 0xAA]) == [0x01, 0x01])
        #expect(try await send(st, [0x42, 0x20, 5]).count == 6)  // option flag: security status
        let slix = try VirtualTag.make(chip: .icodeSLIX2, ndefMessage: helloMessage, readOnly: true)
        #expect(try await send(slix, [0x02, 0x30, 0, 0]) == [0x01, 0x01])  // no extended commands
        #expect(try await send(slix, [0x02, 0x21, 5, 1, 2, 3, 4]) == [0x01, 0x12])  // locked
        #expect(try await send(slix, [0x02, 0x23, 70, 15]) == [0x01, 0x10])  // past block 79
    }

    @Test func writeBeyondBlock255UsesExtendedWrites() async throws {
        let tag = try VirtualTag.make(chip: .st25dv64k, ndefMessage: helloMessage)
        let message = TagImage.sampleMessage(totalBytes: 3000)
        try await Type5Tag(transport: tag).writeNDEF(message)
        let codes = Set(commandCodes(await tag.exchanges, technology: .iso15693))
        #expect(codes.isSuperset(of: [0x21, 0x31]))
        let result = try await TagReader.read(from: tag)
        #expect(result.ndefMessageBytes == message)
        #expect(result.tlvs.first?.length == 3000)
    }

    @Test func writeRefusals() async throws {
        let locked = try VirtualTag.make(chip: .icodeSLIX2, ndefMessage: helloMessage, readOnly: true)
        await #expect(throws: TagWriteError.readOnly("the capability container's write access is 3")) {
            try await Type5Tag(transport: locked).writeNDEF(helloMessage)
        }
        let tag = try VirtualTag.make(chip: .icodeSLIX2, ndefMessage: helloMessage)
        await #expect(throws: TagWriteError.doesNotFit(messageBytes: 400, capacityBytes: 312)) {
            try await Type5Tag(transport: tag).writeNDEF(TagImage.sampleMessage(totalBytes: 400))
        }
        #expect(try TagImage.capacity(for: .icodeSLIX2) == 312)
        #expect(try TagImage.capacity(for: .st25dv64k) == 8180)
    }

    @Test func eightByteBlocksWithoutSystemInfo() async throws {
        // A TI RF430-style memory with 8-byte blocks, as a raw dump: no UID, the block size
        // comes from the hint and the CC.
        var memory = [UInt8](repeating: 0, count: 256)
        memory[0..<4] = [0xE1, 0x40, 0x1F, 0x01]
        let tlv: [UInt8] = [0x03, UInt8(helloMessage.count)] + Array(helloMessage) + [0xFE]
        memory.replaceSubrange(4..<(4 + tlv.count), with: tlv)
        let dump = try MemoryDump.parse(Data(memory), hint: .type5(blockSize: 8))
        let result = try await TagReader.read(from: dump.transport())
        #expect(result.unitSize == 8)
        #expect(result.ndefMessageBytes == helloMessage)
        #expect(result.chip == .genericType5)
        #expect(result.uid == nil)
        #expect(result.location(of: 20) == "block 2, byte 4")
    }

    @Test func lockControlTLVOnType5IsAnAnomaly() async throws {
        var memory = Array(try TagImage.memory(for: .icodeSLIX2, ndefMessage: Data()))
        let tlvs: [UInt8] = [0x01, 0x03, 0xA0, 0x0C, 0x34, 0x03, UInt8(helloMessage.count)] + Array(helloMessage) + [0xFE]
        memory.replaceSubrange(4..<(4 + tlvs.count), with: tlvs)
        let tag = try VirtualTag(chip: .icodeSLIX2, memory: Data(memory))
        let result = try await TagReader.read(from: tag)
        #expect(result.ndefMessageBytes == helloMessage)
        #expect(result.anomalies.contains { $0.offset == 4 && $0.message.contains("Type 5") })
    }

    @Test func dumpReadsEveryBlock() async throws {
        let tag = try VirtualTag.make(chip: .st25dv64k, ndefMessage: helloMessage)
        let dump = try await TagReader.dump(tag)
        #expect(dump.memory == (await tag.memory))
        #expect(dump.unitSize == 4 && dump.unitCount == 2048)
        #expect(dump.chip == .st25dv64k)
        #expect(await tag.commandCount == 65)
    }
}

extension Type5Tests {
    @Test func identificationByUIDAndGeometry() {
        #expect(Type5Layout.identify(uidDisplayOrder: [0xE0, 0x02, 0x24, 0, 0, 0, 0, 0], blockCount: 128, blockSize: 4) == .st25dv04k)
        #expect(Type5Layout.identify(uidDisplayOrder: [0xE0, 0x02, 0x26, 0, 0, 0, 0, 0], blockCount: 512, blockSize: 4) == .st25dv16k)
        #expect(Type5Layout.identify(uidDisplayOrder: [0xE0, 0x02, 0x23, 0, 0, 0, 0, 0], blockCount: 64, blockSize: 4) == .st25tv)
        #expect(Type5Layout.identify(uidDisplayOrder: [0xE0, 0x07, 0xC4, 0, 0, 0, 0, 0], blockCount: 256, blockSize: 8) == .tiRF430)
        #expect(Type5Layout.identify(uidDisplayOrder: [0xE0, 0x04, 0x01, 0x10, 0, 0, 0, 0], blockCount: 28, blockSize: 4) == .icodeSLIX)
        #expect(Type5Layout.identify(uidDisplayOrder: [0xE0, 0x16, 0x01, 0, 0, 0, 0, 0], blockCount: 64, blockSize: 4) == .genericType5)
        #expect(Type5Layout.identify(uidDisplayOrder: [0x04, 0x16], blockCount: nil, blockSize: nil) == .genericType5)
    }

    @Test func linkWithoutMultipleBlockReadsUsesSingleReads() async throws {
        let message = TagImage.sampleMessage(totalBytes: 1100)
        let tag = try VirtualTag.make(
            chip: .st25dv64k, ndefMessage: message,
            limits: LinkLimits(
                maxCommandBytes: 64, maxResponseBytes: 256,
                supportedCommands: [0x2B, 0x20, 0x30, 0x21, 0x31]))
        let result = try await TagReader.read(from: tag)
        #expect(result.ndefMessageBytes == message)
        let codes = commandCodes(await tag.exchanges, technology: .iso15693)
        #expect(Set(codes) == [0x2B, 0x20, 0x30])
        // 8 + 4 + 1100 bytes → blocks 0…277: 256 short and 22 extended single reads.
        #expect(codes.filter { $0 == 0x20 }.count == 256)
        #expect(codes.filter { $0 == 0x30 }.count == 22)
    }

    @Test func cancellationStopsTheRead() async throws {
        // The read is cancelled from inside its 5th command, as if the person gave up then:
        // no real time passes, and the cancel lands mid-read on every run.
        let tag = try VirtualTag.make(chip: .st25dv64k, ndefMessage: try fullMessage(.st25dv64k))
        let transport = CancellingTransport(inner: tag, cancelAtCommand: 5)
        let task = Task { try await TagReader.read(from: transport) }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(await tag.commandCount >= 5)
        #expect(await tag.commandCount < 66)
    }
}

/// A link that cancels the task sending through it at its `cancelAtCommand`-th command
/// (which still gets its answer), like a person pressing Cancel mid-read.
struct CancellingTransport: TagTransport {
    let inner: VirtualTag
    let cancelAtCommand: Int
    let sent = LockedValue(0)
    var technology: TagTechnology { inner.technology }
    var limits: LinkLimits { inner.limits }
    var uid: Data? { inner.uid }

    func send(_ command: Data, timeout: Duration) async throws -> Data {
        let number = sent.withLock { count in
            count += 1
            return count
        }
        if number == cancelAtCommand { withUnsafeCurrentTask { $0?.cancel() } }
        return try await inner.send(command, timeout: timeout)
    }
}

/// A reader in front of a virtual ST25DV64K whose GET_SYSTEM_INFO answer carries the
/// 1-byte block count 0xFF (256 blocks), as ST25DV16K/64K report it.
struct OneByteCountTransport: TagTransport {
    let inner: VirtualTag
    var technology: TagTechnology { inner.technology }
    var limits: LinkLimits { inner.limits }
    var uid: Data? { inner.uid }

    func send(_ command: Data, timeout: Duration) async throws -> Data {
        let answer = Array(try await inner.send(command, timeout: timeout))
        guard command.count >= 2, Array(command)[1] == 0x2B, answer.count == 16 else { return Data(answer) }
        // flags, info flags without 0x10, UID, DSFID, AFI, count − 1 = 0xFF, block size − 1, IC ref.
        return Data([answer[0], answer[1] & ~0x10] + answer[2..<12] + [0xFF, answer[14], answer[15]])
    }
}

extension Type5Tests {
    @Test func oneByteBlockCountIsCorrectedByTheCC() async throws {
        let message = try fullMessage(.st25dv64k)
        let tag = try VirtualTag.make(chip: .st25dv64k, ndefMessage: message)
        let result = try await TagReader.read(from: OneByteCountTransport(inner: tag))
        #expect(result.systemInfo?.blockCount == 256)
        #expect(result.chip == .st25dv64k)
        #expect(result.ndefMessageBytes == message)
        #expect(result.anomalies.count == 1)
        #expect(result.anomalies.first?.message.contains("2048 blocks") == true)
    }
}
