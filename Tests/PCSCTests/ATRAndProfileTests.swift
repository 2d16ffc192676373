import Foundation
import NFCTags
import Testing

@testable import PCSC

@Suite struct ATRTests {
    @Test func buildsPart3ATRForNTAGAndICODE() {
        let ntag = ContactlessATR(technology: .iso14443A, uid: nil)
        #expect(
            ntag.bytes
                == Data([
                    0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06,
                    0x03, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x68,
                ]))
        let icode = ContactlessATR(technology: .iso15693, uid: Data([1, 2, 3, 4, 5, 6, 0x04, 0xE0]))
        #expect(icode.bytes.suffix(8) == Data([0x0B, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x77]))
        let st = ContactlessATR(technology: .iso15693, uid: Data([1, 2, 3, 4, 5, 6, 0x02, 0xE0]))
        #expect(st.family == .stLRI)
        #expect(st.bytes.last == 0x70)  // as pcsc-tools lists the M24LR ATR
    }

    @Test func decodesTechnologyAndFamily() throws {
        let ntag = try #require(
            ContactlessATR(
                Data([
                    0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03,
                    0x06, 0x03, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x68,
                ])))
        #expect(ntag.technology == .iso14443A)
        #expect(ntag.family == .mifareUltralight)
        let tagIt = try #require(ContactlessATR(ContactlessATR(standard: 0x0B, family: .tagIt).bytes))
        #expect(tagIt.technology == .iso15693)
        #expect(tagIt.family == .tagIt)
        let classic = try #require(ContactlessATR(ContactlessATR(standard: 0x03, family: .mifareClassic1K).bytes))
        #expect(classic.bytes.last == 0x6A)
    }

    @Test func rejectsBadChecksumTruncationAndOtherCards() {
        var bytes = [UInt8](ContactlessATR(technology: .iso14443A, uid: nil).bytes)
        bytes[bytes.count - 1] ^= 0x01
        #expect(ContactlessATR(Data(bytes)) == nil)
        #expect(ContactlessATR(Data(bytes.prefix(12))) == nil)
        #expect(ContactlessATR(Data()) == nil)
        // A contact card (T=0, no Part 3 AID) and an ISO 14443-4 card built from its ATS.
        #expect(ContactlessATR(Data([0x3B, 0x02, 0x14, 0x50])) == nil)
        #expect(ContactlessATR(Data([0x3B, 0x81, 0x80, 0x01, 0x80, 0x80])) == nil)
    }
}

@Suite struct ReaderProfileTests {
    @Test func recognisesReaderFamiliesAndTheirLimits() {
        let acr122 = ReaderProfile(readerName: "ACS ACR122U PICC Interface 00 00")
        #expect(acr122.family == .acr122u)
        #expect(acr122.preferredPath == .directTransmit)
        #expect(!acr122.readsISO15693)
        #expect(acr122.limits(for: .directTransmit, technology: .iso14443A).maxResponseBytes == 240)

        #expect(ReaderProfile(readerName: "ACS ACR1252 1S CL Reader PICC 00 00").family == .acr1252u)
        #expect(!ReaderProfile(readerName: "ACS ACR1252 1S CL Reader PICC 00 00").readsISO15693)
        #expect(ReaderProfile(readerName: "ACS ACR1552 1S CL Reader PICC 00 00").readsISO15693)
        #expect(ReaderProfile(readerName: "Identiv uTrust 3700 F CL Reader 00 00").family == .uTrust3700F)
        #expect(ReaderProfile(readerName: "Identiv uTrust 3720 F CL Reader 00 00").family == .uTrust3720F)
        #expect(ReaderProfile(readerName: "HID Global OMNIKEY 5022 Smart Card Reader 00 00").family == .omnikey5022)
        #expect(ReaderProfile(readerName: "HID Global OMNIKEY 5422CL Smartcard Reader 01 00").family == .omnikey5422)
        #expect(ReaderProfile(readerName: "Virtual PCD 00 00").family == .virtualPCD)
        #expect(ReaderProfile(readerName: "Some Reader 00 00").family == .unknown)

        let generic = ReaderProfile(readerName: "Virtual PCD 00 00")
        #expect(generic.limits(for: .transparentSession, technology: .iso15693).maxResponseBytes == 248)
        let storage2 = generic.limits(for: .storageCommands, technology: .iso14443A)
        #expect(storage2.carries(0x30) && storage2.carries(0xA2) && !storage2.carries(0x3A))
        let storage5 = generic.limits(for: .storageCommands, technology: .iso15693)
        #expect(storage5.carries(0x20) && !storage5.carries(0x23))
    }

    @Test func matchesReadersByNameFragmentOrIndex() throws {
        let names = ["ACS ACR122U PICC Interface 00 00", "Virtual PCD 00 00", "Virtual PCD 00 01"]
        #expect(try matchReaders(nil, in: names) == names)
        #expect(try matchReaders("acr122", in: names) == [names[0]])
        #expect(try matchReaders("1", in: names) == [names[1]])
        #expect(try matchReaders("Virtual PCD 00 01", in: names) == [names[2]])
        #expect(throws: PCSCError.unknownReader("omnikey", available: names)) { try matchReaders("omnikey", in: names) }
        #expect(throws: PCSCError.noReaders) { try matchReaders(nil, in: []) }
    }

    @Test func mapsPCSCStatuses() {
        #expect(PCSCError.check(0, "x") == nil)
        #expect(PCSCError.check(0x8010_001D, "x") == .serviceNotRunning)
        #expect(PCSCError.check(0x8010_0016, "x") == .cardRemoved)
        #expect(PCSCError.check(0x8010_0069, "x") == .cardRemoved)
        #expect(PCSCError.check(0x8010_000A, "x") == .timeout)
        #expect(PCSCError.check(0x8010_002E, "x") == .noReaders)
        #expect(PCSCError.check(0x8010_0017, "SCardConnect") == .failure(function: "SCardConnect", code: 0x8010_0017))
        #expect(PCSCError.serviceNotRunning.description.contains("pcscd"))
    }

    @Test func parsesEndpoints() throws {
        #expect(VPCDEndpoint("127.0.0.1:35964") == VPCDEndpoint(host: "127.0.0.1", port: 35964))
        #expect(VPCDEndpoint("35963") == .standard)
        #expect(VPCDEndpoint("[::1]:35963")?.host == "::1")
        #expect(VPCDEndpoint("host:") == nil)
        #expect(VPCDEndpoint("host:70000") == nil)
    }

    @Test func berTLVLengthForms() {
        let long = [UInt8](repeating: 0xAB, count: 200)
        let encoded = BERTLV.encode(tag: 0x97, value: long)
        #expect(Array(encoded.prefix(3)) == [0x97, 0x81, 200])
        let decoded = BERTLV.decode([0xC0, 0x03, 0x00, 0x90, 0x00] + encoded)
        #expect(decoded?.count == 2)
        #expect(decoded?[1].value == long)
        #expect(BERTLV.decode([0x97, 0x05, 0x01]) == nil)
        #expect(BERTLV.decode([0x97, 0x81]) == nil)
        #expect(BERTLV.decode([0x97, 0x83, 0, 0, 1]) == nil)
    }
}
