import Foundation
import NFCTags
import Testing

@testable import CoreNFCTransport

@Suite("NFCReaderError mapping")
struct ErrorMappingTests {
    @Test func rawValuesAreApples() {
        #expect(ReaderErrorCode(rawValue: 100) == .tagConnectionLost)
        #expect(ReaderErrorCode(rawValue: 102) == .tagResponseError)
        #expect(ReaderErrorCode(rawValue: 105) == .packetTooLong)
        #expect(ReaderErrorCode(rawValue: 201) == .sessionTimeout)
        #expect(ReaderErrorCode(rawValue: 204) == .firstNDEFTagRead)
        #expect(ReaderErrorCode(rawValue: 2) == .securityViolation)
        #expect(ReaderErrorCode(rawValue: 403) == .ndefZeroLengthMessage)
        #expect(ReaderErrorCode(rawValue: 7) == .ineligible)
        #expect(ReaderErrorCode(rawValue: 8) == .accessNotAccepted)
        #expect(ReaderErrorCode.allCases.count == 24)
    }

    @Test func everyCodeHasAdviceThatSaysWhatToDo() {
        let expected: [ReaderErrorCode: ReaderAdvice] = [
            .unsupportedFeature: .nfcUnavailable, .securityViolation: .appNotAllowed,
            .invalidParameter: .tagNotSupported, .invalidParameterLength: .tagNotSupported,
            .parameterOutOfBound: .tagNotSupported, .radioDisabled: .radioOff,
            .ineligible: .nfcIneligible, .accessNotAccepted: .nfcAccessNotAccepted,
            .tagConnectionLost: .holdStill, .retryExceeded: .movePhone, .tagResponseError: .holdStill,
            .sessionInvalidated: .scanAgain, .tagNotConnected: .holdStill, .packetTooLong: .scanAgain,
            .userCanceled: .cancelled, .sessionTimeout: .sessionTimedOut,
            .sessionTerminatedUnexpectedly: .scanAgain, .systemIsBusy: .systemBusy, .firstNDEFTagRead: .none,
            .tagCommandConfigurationInvalidParameters: .tagNotSupported, .ndefTagNotWritable: .tagReadOnly,
            .ndefTagUpdateFailure: .holdStill, .ndefTagSizeTooSmall: .tagTooSmall, .ndefZeroLengthMessage: .nothingToWrite,
        ]
        for code in ReaderErrorCode.allCases {
            #expect(code.advice == expected[code], "code \(code.rawValue)")
        }
        for advice in ReaderAdvice.allCases {
            #expect(advice.englishSentence.hasSuffix("."), "\(advice)")
        }
        #expect(ReaderAdvice.holdStill.englishSentence.contains("Hold"))
        #expect(ReaderAdvice.nfcUnavailable.englishSentence.contains("iPhone 7"))
    }

    @Test func tagResponseWithISOCodeMeansTheTagRefused() {
        let refused = CoreNFCFailure(.tagResponseError, iso15693ErrorCode: 0x12)
        #expect(refused.advice == .tagRefused)
        #expect(refused.transportError == .linkFailure("the tag answered with ISO 15693 error 0x12"))
        #expect(CoreNFCFailure(.tagResponseError).advice == .holdStill)
        #expect(CoreNFCFailure(code: 7).advice == .nfcIneligible)
        #expect(CoreNFCFailure(code: 8).advice == .nfcAccessNotAccepted)
        #expect(CoreNFCFailure(code: 9).advice == .scanAgain)  // a code this version does not know
        #expect(ReaderAdvice.nfcIneligible.englishSentence != ReaderAdvice.nfcAccessNotAccepted.englishSentence)
    }

    @Test func transportErrors() {
        #expect(CoreNFCFailure(.tagConnectionLost).transportError == .tagRemoved)
        #expect(CoreNFCFailure(.tagNotConnected).transportError == .tagRemoved)
        #expect(CoreNFCFailure(.retryExceeded).transportError == .timeout)
        #expect(CoreNFCFailure(.tagResponseError).transportError == .timeout)
        #expect(CoreNFCFailure(.invalidParameter).transportError == .unsupported("Core NFC refused the command's parameters (error 3)"))
        #expect(
            CoreNFCFailure(.sessionTimeout, message: "Session timeout").transportError
                == .linkFailure("Core NFC error 201 (sessionTimeout): Session timeout"))
    }

    @Test func sessionEndingAndRetryableCodes() {
        let ending = Set(ReaderErrorCode.allCases.filter(\.endsSession))
        #expect(
            ending == [
                .unsupportedFeature, .securityViolation, .radioDisabled, .ineligible, .accessNotAccepted,
                .sessionInvalidated, .userCanceled,
                .sessionTimeout, .sessionTerminatedUnexpectedly, .systemIsBusy, .firstNDEFTagRead,
            ])
        let retryable = Set(ReaderErrorCode.allCases.filter(\.isWorthRetrying))
        #expect(retryable == [.tagConnectionLost, .retryExceeded, .tagNotConnected, .tagResponseError, .ndefTagUpdateFailure])
    }
}
