import ColdTapBase
import ColdTapKit
import Foundation
import LoggerFormats
import NDEF
import NFCTags
import Testing

@testable import ColdTapCommands

/// The libraries hand over `UserHint` values; the command line turns each into the option
/// that supplies what is missing, in the sentences users have always seen.
@Suite struct HintWordingTests {
    static let readTime = "2026-03-01T12:00:00Z"

    static func cuplSigned(secret: String) throws -> Data {
        let read = try #require(ISO8601Time.parse(readTime))
        let message = try LoggerImageFactory.message(
            kind: "cupltag-rh", temperatures: [4.5, 5.0, 5.5], interval: 600,
            newestSampleTime: read.addingTimeInterval(-300), readTime: read,
            secret: secret)
        return message.serialized()
    }

    @Test func aSignedTagReadWithoutItsSecretNamesTheSecretOption() async throws {
        let result = await runColdTap(
            ["decode", "-", "--read-time", Self.readTime, "--json"],
            stdin: try Self.cuplSigned(secret: "ZS0Smt8LByrYNFts"))
        #expect(result.status == 0, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let integrity = try #require(object["integrity"] as? [String: Any])
        let detail = try #require(integrity["detail"] as? String)
        #expect(detail.hasSuffix(" (if this tag signs with HMAC-MD5, give its --secret)"))
        let warnings = try #require(object["warnings"] as? [String])
        #expect(warnings.contains("integrity check failed: \(detail); the samples are shown but must not be trusted"))
    }

    @Test func aForcedLoggerAndAGivenIntervalAreNamedByTheirOptions() async throws {
        let message = try LoggerImageFactory.message(
            kind: "generic16", temperatures: [5, 6], interval: 60,
            newestSampleTime: Date(timeIntervalSince1970: 1_772_366_400))
        let result = await runColdTap(
            [
                "decode", "-", "--read-time", Self.readTime, "--logger", "generic16",
                "--interval", "7", "--json",
            ], stdin: message.serialized())
        #expect(result.status == 0, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(object["detection"] as? String == "forced with --logger generic16")
        let warnings = try #require(object["warnings"] as? [String])
        #expect(warnings.contains { $0.hasPrefix("--interval 7 s was not used: the log gives 60 s") }, "\(warnings)")
    }

    @Test func aDumpOfNeitherTypeNamesTheInputOption() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let path = try files.write("odd.bin", Data([0x00, 0x01, 0x02, 0x03] + [UInt8](repeating: 0x55, count: 28)))
        let result = await runColdTap(["tag", path])
        #expect(result.status == 65)
        #expect(result.err.contains("(E1/E2); say which it is (--input tag2 or tag5)."), "\(result.err)")
    }

    @Test func eachHintHasCommandLineWords() {
        #expect(HintWording.advice(.needsInterval, after: .intervalUnknown) == "; give it with --interval SECONDS")
        #expect(HintWording.advice(.needsInterval, after: .inconsistent) == "; give the real one with --interval SECONDS")
        #expect(
            HintWording.advice(.needsLoggerDescription, after: .noFormatMatched([]))
                == ". Force one with --logger NAME or describe the layout in a descriptor file")
        #expect(HintWording.advice(.needsLoggerDescription, after: .badDescriptor) == ", or give the layout with --logger FILE.json")
        #expect(HintWording.advice(.needsSecret).contains("--secret"))
        #expect(HintWording.advice(.wrongInputKind(suggested: [.type5TagDump])) == "; say which it is (--input tag5)")
        #expect(HintWording.advice(nil) == "")
    }
}
