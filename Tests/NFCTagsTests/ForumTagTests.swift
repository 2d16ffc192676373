import Foundation
import NFCTagsEmulation
import Testing

@testable import NFCTags

@Suite struct ForumTagTests {
    @Test(arguments: TagChip.emulated)
    func tagReaderPicksTheTypeForTheTechnologyAndEveryVerbWorks(chip: TagChip) async throws {
        let tag = try VirtualTag.make(chip: chip, ndefMessage: helloMessage)
        let forumTag = TagReader.tag(tag)
        #expect(type(of: forumTag).technology == chip.technology)
        #expect(chip.technology == .iso14443A ? forumTag is Type2Tag : forumTag is Type5Tag)
        #expect(try await forumTag.identify().chip == chip)
        #expect(try await forumTag.readNDEF(progress: nil).ndefMessageBytes == helloMessage)
        let dump = try await forumTag.dump()
        #expect(dump.memory == (await tag.memory).prefix(dump.memory.count))

        // format empties the NDEF area; the tag still reads as formatted, with an empty message.
        try await forumTag.format()
        let empty = try await TagReader.read(from: tag)
        #expect(empty.ndefMessageBytes == Data())
        #expect(empty.capabilityContainer != nil)
        try await forumTag.writeNDEF(helloMessage)
        #expect(try await TagReader.read(from: tag).ndefMessageBytes == helloMessage)
    }
}

@Suite struct TagCommandTests {
    @Test func type2FramesRoundTrip() {
        let commands: [Type2Command] = [
            .read(page: 4), .fastRead(first: 4, last: 0x3F), .write(page: 5, data: [1, 2, 3, 4]),
            .getVersion, .sectorSelect,
        ]
        #expect(commands.map(\.bytes) == [[0x30, 4], [0x3A, 4, 0x3F], [0xA2, 5, 1, 2, 3, 4], [0x60], [0xC2, 0xFF]])
        for command in commands { #expect(Type2Command(parsing: command.bytes) == command) }
        #expect(Type2Command.sectorNumber(1).bytes == [1, 0, 0, 0])
        #expect(Type2Command(parsing: [1, 0, 0, 0], awaitingSectorNumber: true) == .sectorNumber(1))
        // Malformed or unknown frames parse to nothing (a tag NAKs them).
        for frame: [UInt8] in [[], [0x30], [0x30, 1, 2], [0xA2, 5, 1, 2, 3], [0xC2, 0x00], [0x1B, 0, 0, 0, 0], [1, 0, 0, 1]] {
            #expect(Type2Command(parsing: frame) == nil, "\(frame)")
        }
        #expect(Type2Command(parsing: [1, 0, 0, 1], awaitingSectorNumber: true) == nil)
        #expect(Type2Command.isWrite([0xA2, 4, 0, 0, 0, 0]) && !Type2Command.isWrite([0x30, 4]))
    }

    @Test func type5RequestsRoundTripPlainAndAddressed() throws {
        let uid: [UInt8] = [0x78, 0x56, 0x34, 0x12, 0x01, 0x50, 0x04, 0xE0]
        let commands: [Type5Command] = [
            .getSystemInfo, .readSingleBlock(block: 7, extended: false), .readSingleBlock(block: 0x1234, extended: true),
            .readMultipleBlocks(first: 8, count: 32, extended: false), .readMultipleBlocks(first: 0x0100, count: 0x0120, extended: true),
            .writeSingleBlock(block: 3, data: [1, 2, 3, 4], extended: false), .writeSingleBlock(block: 0x0300, data: [9, 8, 7, 6], extended: true),
        ]
        #expect(commands[3].request() == [0x02, 0x23, 8, 31])
        #expect(commands[4].request() == [0x02, 0x33, 0x00, 0x01, 0x1F, 0x01])
        #expect(commands[6].request() == [0x02, 0x31, 0x00, 0x03, 9, 8, 7, 6])
        for command in commands {
            let plain = try #require(Type5Command.Request(parsing: command.request()))
            #expect(plain.command == command && plain.uid == nil && plain.problem == nil)
            let addressed = try #require(Type5Command.Request(parsing: command.request(addressedTo: uid)))
            #expect(addressed.command == command && addressed.uid == uid)
            #expect(addressed.flags == 0x22)
        }
        #expect(Type5Command.Request(parsing: [0x02, 0x99])?.problem == .unknownCode)
        #expect(Type5Command.Request(parsing: [0x02, 0x20, 1, 2])?.problem == .malformed)
        #expect(Type5Command.Request(parsing: [0x22, 0x20, 1]) == nil)  // addressed without a whole UID
        #expect(Type5Command.Request(parsing: [0x02]) == nil)
        #expect(Type5Command.isWrite([0x02, 0x21, 0, 1, 2, 3, 4]) && !Type5Command.isWrite([0x02, 0x20, 0]))
    }

    /// The torn-write ordering both tag types use: length units with length 0, the rest, the length units.
    @Test func writeOrderPutsTheLengthFirstAsZeroAndLastForReal() {
        let message = Data(repeating: 0x55, count: 20)
        let plan = NDEFWritePlan(message: message, slot: 16, area: 16..<160, reserved: [])
        let order = plan.writeOrder(unitSize: 4) { _ in [0xEE, 0xEE, 0xEE, 0xEE] }
        // TLV 03 14 + 20 bytes + FE = 23 bytes from byte 16: pages 4…9.
        #expect(order.map(\.unit) == [4, 5, 6, 7, 8, 9, 4])
        #expect(order.first?.bytes == [0x03, 0x00, 0x55, 0x55])
        #expect(order.last?.bytes == [0x03, 0x14, 0x55, 0x55])
        // Bytes the TLV does not cover keep what the tag holds.
        #expect(order[5].bytes == [0x55, 0x55, 0xFE, 0xEE])
        let tooBig = NDEFWritePlan(message: Data(count: 500), slot: 16, area: 16..<160, reserved: [])
        #expect(tooBig.writeOrder(unitSize: 4) { _ in [0, 0, 0, 0] }.isEmpty)
    }
}
