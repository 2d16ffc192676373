import ColdTapKit
import Foundation
import NDEF
import Testing

@testable import ColdTapCommands

/// A fresh temporary directory for one test.
private func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-ndef-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

private func run(_ arguments: [String], stdin: Data = Data()) async -> (status: Int32, console: Console) {
    let console = Console.capturing(stdin: stdin)
    let status = await ColdTap.main(arguments, console: console)
    return (status, console)
}

@Suite struct NDEFCommandTests {
    /// Text "hello" (en) then URI https://example.com/x.
    static let twoRecords = "91 01 08 54 02 65 6e 68 65 6c 6c 6f 51 01 0e 55 04 65 78 61 6d 70 6c 65 2e 63 6f 6d 2f 78"

    @Test func decodeJSONHasTheDocumentedShape() async {
        let (status, console) = await run(["ndef", "decode", "-", "--json"], stdin: Data(Self.twoRecords.utf8))
        #expect(status == 0)
        let expected =
            #"{"records":[{"tnf":1,"type":"T","id":"","payload":"02656e68656c6c6f","text":{"encoding":"UTF-8","language":"en","text":"hello"}},{"tnf":1,"type":"U","id":"","payload":"046578616d706c652e636f6d2f78","uri":"https://example.com/x"}]}"#
        let compact = console.output.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: "  ", with: "")
            .replacingOccurrences(of: "\": ", with: "\":")
        #expect(compact == expected)
    }

    @Test func decodeHumanShowsContentThenRawFields() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("m.ndef")
        let long = MIMERecord(mimeType: "image/png", data: Data(repeating: 0xAB, count: 100)).record
        var text = TextRecord(text: "Kühl\nkette", language: "de").record
        text.id = Data([0x01, 0x02])
        try NDEFMessage(records: [text, long]).serialized().write(to: file)
        let (status, console) = await run(["ndef", "decode", file.path])
        #expect(status == 0)
        let lines = console.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "Record 1 of 2: Text")
        #expect(lines[1] == #"  "Kühl\nkette""#)
        #expect(lines[2] == "  language de, UTF-8")
        #expect(lines[3] == #"  TNF 1 (well-known), type "T", ID 01 02"#)
        #expect(lines[4] == "  payload 14 bytes: 02 64 65 4b c3 bc 68 6c 0a 6b 65 74 74 65")
        #expect(lines[6] == "Record 2 of 2: MIME")
        #expect(lines[7] == "  image/png, 100 bytes")
        let payloadLine = lines[9]
        #expect(payloadLine.hasPrefix("  payload 100 bytes: ab ab"))
        #expect(payloadLine.hasSuffix(" …"))
        #expect(payloadLine.split(separator: " ").filter { $0 == "ab" }.count == NDEFCommand.payloadPreviewBytes)
    }

    @Test func smartPosterAndChunkedRecordInJSON() async {
        let poster = SmartPosterRecord(uri: "https://example.com", titles: [TextRecord(text: "Log", language: "en")], action: .exec)
        let mime = MIMERecord(mimeType: "text/plain", data: Data("abcdefgh".utf8))
        let bytes = NDEFMessage(records: [poster.record, mime.record]).serialized(maxChunkSize: 3)
        let (status, console) = await run(["ndef", "decode", "-", "--json"], stdin: bytes)
        #expect(status == 0)
        #expect(console.output.contains(#""smartPoster": {"#))
        #expect(console.output.contains(#""titles": {"#) && console.output.contains(#""en": "Log""#))
        #expect(console.output.contains(#""action": "exec""#))
        // The chunked MIME record appears once, reassembled.
        #expect(console.output.components(separatedBy: #""type": "text/plain""#).count == 2)
        #expect(console.output.contains(#""payload": "6162636465666768""#))
    }

    @Test func strictMalformedInputExits65WithOneLineNamingTheOffset() async {
        let (status, console) = await run(["ndef", "decode", "-"], stdin: Data([0xD1, 0x01, 0x01, 0x55, 0x00, 0x00]))
        #expect(status == 65)
        #expect(console.output.isEmpty)
        #expect(
            console.errorOutput
                == "coldtap ndef: malformed NDEF at offset 5: 1 byte(s) follow the record with the ME (message end) flag; run with --lenient to see what can be recovered.\n"
        )
    }

    @Test func lenientDecodeRecoversAndWarns() async {
        let (status, console) = await run(["ndef", "decode", "-", "--lenient", "--json"], stdin: Data([0xD1, 0x01, 0x01, 0x55, 0x00, 0x00]))
        #expect(status == 0)
        #expect(console.output.contains(#""uri": """#))
        #expect(console.output.contains(#""offset": 5"#))
        let (emptyStatus, emptyConsole) = await run(["ndef", "decode", "-", "--lenient"], stdin: Data())
        #expect(emptyStatus == 65)
        #expect(emptyConsole.errorOutput.contains("offset 0"))
    }

    @Test func encodeThenDecodeRoundTrips() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("p.json")
        try Data(#"{"t":4.5}"#.utf8).write(to: json)
        let out = directory.appendingPathComponent("m.ndef")
        let (status, console) = await run([
            "ndef", "encode", "--text", "hallo", "--lang", "de", "--uri", "https://example.com/x",
            "--mime", "application/json", json.path, "--external", "example.com:temp", json.path,
            "-o", out.path,
        ])
        #expect(status == 0, "\(console.errorOutput)")
        let message = try NDEFParser.message(from: Data(contentsOf: out))
        #expect(
            message.records == [
                TextRecord(text: "hallo", language: "de").record, URIRecord(uri: "https://example.com/x").record,
                MIMERecord(mimeType: "application/json", data: Data(#"{"t":4.5}"#.utf8)).record,
                ExternalRecord(domain: "example.com", name: "temp", payload: Data(#"{"t":4.5}"#.utf8)).record,
            ])
    }

    @Test func encodeHexIsExact() async {
        let (status, console) = await run(["ndef", "encode", "--uri=tel:1", "--hex"])
        #expect(status == 0)
        #expect(console.output == "d1 01 02 55 05 31\n")
    }

    @Test(arguments: [
        ["ndef", "encode", "--hex"],
        ["ndef", "encode", "--lang", "de", "--text", "x", "--hex"],
        ["ndef", "encode", "--text", "x", "--lang", "d e", "--hex"],
        ["ndef", "encode", "--mime", "json", "-", "--hex"],
        ["ndef", "encode", "--external", "nocolon", "-", "--hex"],
        ["ndef", "encode", "--text"],
        ["ndef", "frobnicate"],
        ["ndef", "decode"],
        ["ndef", "decode", "a", "b"],
    ])
    func usageErrorsExit64(_ arguments: [String]) async {
        let (status, console) = await run(arguments)
        #expect(status == 64)
        #expect(!console.errorOutput.isEmpty)
    }

    @Test func missingFileExits1() async {
        let (status, console) = await run(["ndef", "decode", "/nonexistent/coldtap/m.ndef"])
        #expect(status == 1)
        #expect(console.errorOutput.contains("no such file"))
    }
}

@Suite struct InputBytesTests {
    @Test(arguments: ["D1 01 05", "d1:01:05", "0xD1, 0x01, 0x05", "d10105\n", "  D1\r\n01\t05 ", "0xd10105", "0xD1 0x1 0x5"])
    func hexForms(_ text: String) throws {
        #expect(HexText.looksLikeHex(Data(text.utf8)))
        #expect(Array(try InputBytes.parseHex(Data(text.utf8))) == [0xD1, 0x01, 0x05])
    }

    @Test func malformedHexNamesThePosition() {
        let odd = #expect(throws: CommandError.self) { try InputBytes.parseHex(Data("D1 015".utf8)) }
        #expect(odd?.status == .dataError)
        #expect(odd?.message.contains("position 4") == true)
        let bad = #expect(throws: CommandError.self) { try InputBytes.parseHex(Data("D1 0x".utf8)) }
        #expect(bad?.message.contains("position 4") == true)
    }

    @Test func rawBytesAreNotMistakenForHex() throws {
        #expect(!HexText.looksLikeHex(Data([0xD1, 0x01, 0x05])))
        #expect(!HexText.looksLikeHex(Data("   \n".utf8)))
        #expect(!HexText.looksLikeHex(Data()))
        let console = Console.capturing(stdin: Data([0xD1, 0x01]))
        #expect(Array(try InputBytes.read("-", console: console)) == [0xD1, 0x01])
        let hexConsole = Console.capturing(stdin: Data("d101".utf8))
        #expect(Array(try InputBytes.read("-", console: hexConsole, format: .raw)) == Array("d101".utf8))
        #expect(Array(try InputBytes.read("-", console: hexConsole, format: .auto)) == [0xD1, 0x01])
    }
}
