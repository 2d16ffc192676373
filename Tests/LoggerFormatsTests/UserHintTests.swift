import ColdTapBase
import Foundation
import NDEF
import Testing

@testable import LoggerFormats

/// The decoders say what the caller could give as a `UserHint` value and never word it as
/// a command-line option: the command line and the app each say it their own way.
@Suite struct UserHintTests {
    static func mentionsNoOption(_ text: String) -> Bool { !text.contains("--") }

    @Test func aFailedMD5CheckWithoutASecretHintsAtTheSecret() throws {
        let log = try LoggerDecoder.decode(url: try CuplExample.url(), options: CuplExample.options(secret: nil))
        #expect(log.integrity.status == .failed && log.integrity.hint == .needsSecret)
        #expect(Self.mentionsNoOption(log.integrity.detail.text))
        guard case .mismatch(method: "MD5", _, _, keyGiven: false) = log.integrity.detail else {
            Issue.record("a failed MD5 check gives a mismatch detail, not \(log.integrity.detail)")
            return
        }
        #expect(log.warnings == [.integrityFailed(log.integrity.detail)])
        // With a wrong secret the secret was given: no hint, the detail says it may be wrong.
        let wrong = try LoggerDecoder.decode(url: try CuplExample.url(), options: CuplExample.options(secret: "not-the-key"))
        #expect(wrong.integrity.status == .failed && wrong.integrity.hint == nil)
        #expect(wrong.integrity.detail.text.hasSuffix("(wrong secret, or the data was altered)"))
    }

    @Test func aMessageNoFormatTakesHintsAtDescribingTheLogger() throws {
        let message = NDEFMessage(records: [NDEFRecord(tnf: .media, type: Data("text/plain".utf8), payload: Data("hi".utf8))])
        #expect {
            try LoggerDecoder.decode(message, options: G16.options())
        } throws: { error in
            guard let error = error as? LoggerFormatError, case .noFormatMatched = error.kind else { return false }
            return error.hint == .needsLoggerDescription && Self.mentionsNoOption(error.description)
        }
    }

    @Test func anUnknownIntervalHintsAtTheInterval() throws {
        #expect {
            try LoggerDecoder.decode(G16.message([0x00, 0x00, 0x02, 0x01]), options: G16.options())
        } throws: { error in
            (error as? LoggerFormatError)?.hint == .needsInterval && Self.mentionsNoOption("\(error)")
        }
    }

    @Test func aGivenIntervalIsNamedWithoutAnOption() throws {
        // Used: the source says it was given.
        let used = try LoggerDecoder.decode(G16.message([0x00, 0x00, 0x02, 0x01]), options: G16.options(interval: 120))
        #expect(used.metadata["intervalSource"]?.text == DecodeOptions.givenIntervalSource)
        // Not used (the log gives 60 s): the warning begins with the agreed words.
        let unused = try LoggerDecoder.decode(G16.message(G16.workedPayload), options: G16.options(interval: 7))
        #expect(unused.warnings.first?.text == "the given interval of 7 s was not used: the log gives 60 s (header field 'interval')")
        #expect(unused.warnings.first == .givenIntervalNotUsed(given: 7, used: 60, from: .log(source: "header field 'interval'")))
        let forced = try LoggerDecoder.decode(G16.message(G16.workedPayload), options: G16.options(logger: .named("generic16")))
        #expect(forced.detection == .forced(format: "generic16"))
        #expect(forced.detection?.text == "forced as generic16")
    }

    @Test func aStoredLogWithoutAHintStillDecodes() throws {
        // Logs archived before hints existed have no `hint` key.
        let json = Data(#"{"status":"failed","detail":"MD5 mismatch"}"#.utf8)
        let integrity = try JSONDecoder().decode(TemperatureLog.Integrity.self, from: json)
        #expect(integrity.hint == nil && integrity.detail == "MD5 mismatch")
        let hinted = TemperatureLog.Integrity(status: .failed, detail: "x", hint: .needsSecret)
        #expect(try JSONDecoder().decode(TemperatureLog.Integrity.self, from: JSONEncoder().encode(hinted)) == hinted)
    }
}
