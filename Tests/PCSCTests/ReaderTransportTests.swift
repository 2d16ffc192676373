import Foundation
import NFCTags
import NFCTagsEmulation
import Testing

@testable import PCSC

private func transport(_ tag: any TagTransport, reader: String, tweak: (@Sendable ([UInt8]) -> Data?)? = nil)
    async throws -> ReaderTransport
{
    let emulator = ContactlessReaderEmulator(tag: tag, tagTimeout: .milliseconds(50))
    var channel: any APDUChannel = EmulatedReaderChannel(emulator)
    if let tweak { channel = ScriptedChannel(base: channel, override: tweak) }
    return try await ReaderTransport.open(channel: channel, readerName: reader, atr: emulator.atr.bytes)
}

@Suite struct ReaderTransportTests {
    @Test func type2ThroughTransparentSession() async throws {
        let tag = FakeType2Tag()
        let link = try await transport(tag, reader: "Virtual PCD 00 00")
        #expect(link.path == .transparentSession)
        #expect(link.technology == .iso14443A)
        #expect(link.uid == tag.uid)
        let pages = try await link.send(Data([0x3A, 0x04, 0x0F]), timeout: .seconds(1))
        #expect([UInt8](pages) == Array(tag.bytes[16..<64]))
        #expect(try await link.send(Data([0x60]), timeout: .seconds(1)) == Data([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03]))
        #expect(try await link.send(Data([0xA2, 0x05, 1, 2, 3, 4]), timeout: .seconds(1)) == Data([0x0A]))
        #expect(Array(tag.bytes[20..<24]) == [1, 2, 3, 4])
        // A NAK from the tag comes back as the tag's own answer.
        #expect(try await link.send(Data([0x30, 0xF0]), timeout: .seconds(1)) == Data([0x00]))
        await link.close()
    }

    @Test func type2ThroughACR122UDirectTransmit() async throws {
        let tag = FakeType2Tag()
        let link = try await transport(tag, reader: "ACS ACR122U PICC Interface 00 00")
        #expect(link.path == .directTransmit)
        #expect(link.limits.maxResponseBytes == 240)
        let pages = try await link.send(Data([0x3A, 0x00, 0x2C]), timeout: .seconds(1))
        #expect([UInt8](pages) == tag.bytes)
    }

    @Test func acr122UFirmwareThatAnswersThroughGetResponse() async throws {
        let tag = FakeType2Tag()
        let pending = PendingAnswer()
        let emulator = ContactlessReaderEmulator(tag: tag)
        let inner = EmulatedReaderChannel(emulator)
        let channel = GetResponseChannel(base: inner, pending: pending)
        let link = try await ReaderTransport.open(
            channel: channel, readerName: "ACS ACR122U PICC Interface 00 00",
            atr: emulator.atr.bytes)
        let answer = try await link.send(Data([0x30, 0x00]), timeout: .seconds(1))
        #expect([UInt8](answer) == Array(tag.bytes[0..<16]))
    }

    @Test func unknownReaderWithoutRawCommandsFallsBackToStorageCommands() async throws {
        let tag = FakeType2Tag()
        let link = try await transport(tag, reader: "Generic CL Reader 00 00") { apdu in
            apdu[1] == 0xC2 || apdu[1] == 0x00 ? Data([0x6A, 0x81]) : nil
        }
        #expect(link.path == .storageCommands)
        #expect(try await link.send(Data([0x30, 0x04]), timeout: .seconds(1)) == Data(tag.bytes[16..<32]))
        #expect(try await link.send(Data([0xA2, 0x06, 9, 9, 9, 9]), timeout: .seconds(1)) == Data([0x0A]))
        #expect(Array(tag.bytes[24..<28]) == [9, 9, 9, 9])
        await #expect(throws: TransportError.self) { _ = try await link.send(Data([0x3A, 0, 4]), timeout: .seconds(1)) }
    }

    @Test func unknownACSReaderIsProbedForDirectTransmit() async throws {
        let link = try await transport(FakeType2Tag(), reader: "Generic CL Reader 00 00") { apdu in
            apdu[1] == 0xC2 ? Data([0x6D, 0x00]) : nil
        }
        #expect(link.path == .directTransmit)
    }

    @Test func type5ThroughTransparentSession() async throws {
        let tag = FakeType5Tag()
        let link = try await transport(tag, reader: "ACS ACR1552 1S CL Reader PICC 00 00")
        #expect(link.technology == .iso15693)
        #expect(link.uid == tag.uid)
        #expect(link.atr.family == .icodeSLI)
        let blocks = try await link.send(Data([0x02, 0x23, 0x04, 0x1F]), timeout: .seconds(1))
        #expect([UInt8](blocks) == [0x00] + Array(tag.bytes[16..<144]))
        let addressed = try await link.send(Data([0x22, 0x20] + [UInt8](tag.uid ?? Data()) + [0x02]), timeout: .seconds(1))
        #expect([UInt8](addressed) == [0x00] + Array(tag.bytes[8..<12]))
    }

    @Test func type5UIDWrittenMSBFirstIsTurnedAround() async throws {
        let tag = FakeType5Tag()
        let msbFirst = Data((tag.uid ?? Data()).reversed()) + Data([0x90, 0x00])
        let link = try await transport(tag, reader: "HID Global OMNIKEY 5022 Smart Card Reader 00 00") { apdu in
            apdu[1] == 0xCA ? msbFirst : nil
        }
        #expect(link.uid == tag.uid)
    }

    @Test func type5ThroughStorageCommands() async throws {
        let tag = FakeType5Tag()
        let link = try await transport(tag, reader: "Generic CL Reader 00 00") { apdu in
            apdu[1] == 0xC2 ? Data([0x6A, 0x81]) : nil
        }
        #expect(link.path == .storageCommands)
        #expect(try await link.send(Data([0x02, 0x20, 0x03]), timeout: .seconds(1)) == Data([0x00] + tag.bytes[12..<16]))
        #expect(try await link.send(Data([0x02, 0x21, 0x03, 7, 7, 7, 7]), timeout: .seconds(1)) == Data([0x00]))
        #expect(Array(tag.bytes[12..<16]) == [7, 7, 7, 7])
        #expect(try await link.send(Data([0x02, 0x20, 0xF0]), timeout: .seconds(1)) == Data([0x01, 0x10]))
        await #expect(throws: TransportError.self) { _ = try await link.send(Data([0x02, 0x2B]), timeout: .seconds(1)) }
    }

    @Test func type5OnAReaderWithoutISO15693SaysWhichReaderWould() async throws {
        do {
            _ = try await transport(FakeType5Tag(), reader: "ACS ACR122U PICC Interface 00 00")
            Issue.record("expected an error")
        } catch let TransportError.unsupported(detail) {
            #expect(detail.contains("ACR1552U"))
        }
    }

    /// An NTAG213 holding one empty record, with `faults`.
    private func faultyTag(_ faults: TagFault...) throws -> VirtualTag {
        try VirtualTag.make(chip: .ntag213, ndefMessage: Data([0xD0, 0x00, 0x00]), faults: TagFaults(faults))
    }

    @Test func removedTagBecomesTagRemoved() async throws {
        let link = try await transport(try faultyTag(.removedAfter(2)), reader: "Virtual PCD 00 00")
        _ = try await link.send(Data([0x30, 0x00]), timeout: .seconds(1))
        _ = try await link.send(Data([0x30, 0x04]), timeout: .seconds(1))
        await #expect(throws: TransportError.tagRemoved) { _ = try await link.send(Data([0x30, 0x08]), timeout: .seconds(1)) }
    }

    @Test func silentTagBecomesTimeoutOnEveryPath() async throws {
        for reader in ["Virtual PCD 00 00", "ACS ACR122U PICC Interface 00 00"] {
            let link = try await transport(try faultyTag(.silent(from: 2, count: nil)), reader: reader)
            _ = try await link.send(Data([0x30, 0x00]), timeout: .seconds(1))
            await #expect(throws: TransportError.timeout) { _ = try await link.send(Data([0x30, 0x04]), timeout: .seconds(1)) }
            await #expect(throws: TransportError.timeout) { _ = try await link.send(Data([0x30, 0x08]), timeout: .seconds(1)) }
        }
    }

    @Test func flippedBitAnswerDiffersInOneBit() async throws {
        let tag = try faultyTag(.flippedBit(at: 1))
        let link = try await transport(tag, reader: "Virtual PCD 00 00")
        let answer = [UInt8](try await link.send(Data([0x30, 0x00]), timeout: .seconds(1)))
        let expected = Array(await tag.memory.prefix(16))
        #expect(answer.count == 16)
        let differences = zip(answer, expected).map { ($0 ^ $1).nonzeroBitCount }.reduce(0, +)
        #expect(differences == 1)
        // Only that command: the next answer is the tag's own.
        #expect([UInt8](try await link.send(Data([0x30, 0x00]), timeout: .seconds(1))) == expected)
    }

    @Test func truncatedAnswerReachesTheReaderShort() async throws {
        let tag = try faultyTag(.truncatedAnswer(at: 1))
        let link = try await transport(tag, reader: "Virtual PCD 00 00")
        let answer = [UInt8](try await link.send(Data([0x30, 0x00]), timeout: .seconds(1)))
        let expected = Array(await tag.memory.prefix(16))
        #expect(answer.count == 8)
        #expect(answer.first != expected.first)
        #expect(answer.dropFirst() == expected[1..<8])
    }

    @Test func linkLimitsAreEnforcedBeforeSending() async throws {
        let link = try await transport(FakeType2Tag(), reader: "Virtual PCD 00 00")
        await #expect(throws: TransportError.self) { _ = try await link.send(Data(), timeout: .seconds(1)) }
        await #expect(throws: TransportError.self) {
            _ = try await link.send(Data([0xA2] + [UInt8](repeating: 0, count: 300)), timeout: .seconds(1))
        }
    }

    @Test func transparentExchangeStatusesMapToTransportErrors() async throws {
        let link = try await transport(FakeType2Tag(), reader: "Virtual PCD 00 00") { apdu in
            guard apdu[1] == 0xC2, apdu[3] == 0x01 else { return nil }
            return apdu[7] == 0x30
                ? Data([0xC0, 0x03, 0x01, 0x64, 0x01, 0x64, 0x01])
                : Data([0xC0, 0x03, 0x01, 0x6F, 0x00, 0x6F, 0x00])
        }
        await #expect(throws: TransportError.timeout) { _ = try await link.send(Data([0x30, 0x00]), timeout: .seconds(1)) }
        await #expect(throws: TransportError.linkFailure("transparent exchange status 6F 00")) {
            _ = try await link.send(Data([0x60]), timeout: .seconds(1))
        }
    }
}

/// Holds an answer for GET RESPONSE.
private final class PendingAnswer: @unchecked Sendable {
    let lock = NSLock()
    var data = Data()
}

/// Plays older ACR122U firmware: direct transmit answers `61 xx`, the data comes with `FF C0`.
private struct GetResponseChannel: APDUChannel {
    let base: any APDUChannel
    let pending: PendingAnswer

    func transmit(_ apdu: Data, timeout: Duration) async throws -> Data {
        let bytes = [UInt8](apdu)
        if bytes.count >= 4, bytes[1] == 0xC0 {
            return pending.lock.withLock { pending.data }
        }
        let answer = try await base.transmit(apdu, timeout: timeout)
        guard bytes.count >= 2, bytes[1] == 0x00 else { return answer }
        pending.lock.withLock { pending.data = answer }
        return Data([0x61, UInt8(answer.count - 2)])
    }
}
