import Foundation
import NFCTags

/// Core NFC's `NFCReaderError.Code`, mirrored as a plain enum so the mapping is tested on
/// Linux. Raw values are Apple's.
public enum ReaderErrorCode: Int, Sendable, CaseIterable {
    case unsupportedFeature = 1
    case securityViolation = 2
    case invalidParameter = 3
    case invalidParameterLength = 4
    case parameterOutOfBound = 5
    case radioDisabled = 6
    /// `readerErrorIneligible` (iOS 26 SDK): this device, its region or its settings may not
    /// use NFC reading for this app.
    case ineligible = 7
    /// `readerErrorAccessNotAccepted` (iOS 26 SDK): the person has not (yet) accepted the
    /// app's use of NFC.
    case accessNotAccepted = 8
    case tagConnectionLost = 100
    case retryExceeded = 101
    case tagResponseError = 102
    case sessionInvalidated = 103
    case tagNotConnected = 104
    case packetTooLong = 105
    case userCanceled = 200
    case sessionTimeout = 201
    case sessionTerminatedUnexpectedly = 202
    case systemIsBusy = 203
    case firstNDEFTagRead = 204
    case tagCommandConfigurationInvalidParameters = 300
    case ndefTagNotWritable = 400
    case ndefTagUpdateFailure = 401
    case ndefTagSizeTooSmall = 402
    case ndefZeroLengthMessage = 403

    /// True for the codes that close the reader session (the 200 range, 103 and the
    /// set-up failures): nothing more can be sent, a new session is needed.
    public var endsSession: Bool {
        switch self {
        case .unsupportedFeature, .securityViolation, .radioDisabled, .ineligible, .accessNotAccepted, .sessionInvalidated,
            .userCanceled, .sessionTimeout, .sessionTerminatedUnexpectedly, .systemIsBusy, .firstNDEFTagRead:
            return true
        default:
            return false
        }
    }

    /// True when the failure is about the radio link to this tag and retrying the same
    /// command inside the open session (after the person holds still or reconnects) can work.
    public var isWorthRetrying: Bool {
        switch self {
        case .tagConnectionLost, .retryExceeded, .tagNotConnected, .ndefTagUpdateFailure:
            return true
        case .tagResponseError:
            return true  // "no response from tag" is reported under this code too
        default:
            return false
        }
    }

    /// What the person should do, for the sheet and the app.
    public var advice: ReaderAdvice {
        switch self {
        case .unsupportedFeature: return .nfcUnavailable
        case .securityViolation: return .appNotAllowed
        case .radioDisabled: return .radioOff
        case .ineligible: return .nfcIneligible
        case .accessNotAccepted: return .nfcAccessNotAccepted
        case .invalidParameter, .invalidParameterLength, .parameterOutOfBound,
            .tagCommandConfigurationInvalidParameters:
            return .tagNotSupported
        case .tagConnectionLost, .tagNotConnected, .tagResponseError: return .holdStill
        case .retryExceeded: return .movePhone
        case .packetTooLong: return .scanAgain
        case .sessionInvalidated, .sessionTerminatedUnexpectedly: return .scanAgain
        case .userCanceled: return .cancelled
        case .sessionTimeout: return .sessionTimedOut
        case .systemIsBusy: return .systemBusy
        case .firstNDEFTagRead: return .none
        case .ndefTagNotWritable: return .tagReadOnly
        case .ndefTagUpdateFailure: return .holdStill
        case .ndefTagSizeTooSmall: return .tagTooSmall
        case .ndefZeroLengthMessage: return .nothingToWrite
        }
    }
}

/// The one thing the person should do after a failure. The app shows it in its own
/// language (`englishSentence` is the English text and the String Catalog key's meaning).
public enum ReaderAdvice: String, Sendable, CaseIterable {
    /// Nothing to do: the session ended normally.
    case none
    case holdStill
    case movePhone
    case tagNotSupported
    case tagRefused
    case nfcUnavailable
    case radioOff
    case appNotAllowed
    case nfcIneligible
    case nfcAccessNotAccepted
    case scanAgain
    case sessionTimedOut
    case systemBusy
    case cancelled
    case otherTag
    case oneTagOnly
    case unreadableData
    case tagReadOnly
    case tagTooSmall
    case nothingToWrite

    /// One sentence saying what to do next.
    public var englishSentence: String {
        switch self {
        case .none: return "Done."
        case .holdStill: return "Hold the top of the iPhone still on the logger until reading finishes."
        case .movePhone: return "Move the top of the iPhone slowly over the logger to find the spot where it reads, then hold still."
        case .tagNotSupported: return "This tag is not a logger ColdTap can read; it needs an NFC Forum Type 2 or Type 5 tag."
        case .tagRefused: return "The logger refused the read; it may be locked or of a kind ColdTap does not support."
        case .nfcUnavailable: return "This iPhone cannot read NFC tags; use an iPhone 7 or later."
        case .radioOff: return "NFC is switched off on this iPhone; turn off Airplane Mode and try again."
        case .appNotAllowed: return "This build of ColdTap may not read tags; install a build signed with the NFC Tag Reading capability."
        case .nfcIneligible:
            return "iOS does not let ColdTap read NFC tags on this iPhone in its current region or settings; check Settings, or use another iPhone."
        case .nfcAccessNotAccepted:
            return "ColdTap may not use NFC until you allow it; allow NFC for ColdTap when iOS asks (or in Settings), then tap Scan again."
        case .scanAgain: return "Reading stopped; tap Scan and hold the iPhone on the logger again."
        case .sessionTimedOut: return "The 60-second reading time ran out; tap Scan and hold the iPhone still on the logger from the start."
        case .systemBusy: return "Another app is using NFC; close it and tap Scan again."
        case .cancelled: return "Reading cancelled."
        case .otherTag: return "That is a different tag; hold the iPhone over the logger you started reading."
        case .unreadableData:
            return "The logger was read, but its data is not in a format ColdTap knows or is damaged; check the logger model and its secret key in Settings."
        case .oneTagOnly: return "More than one tag is in reach; hold the iPhone over one logger only."
        case .tagReadOnly: return "The tag is read-only; ColdTap cannot write to it."
        case .tagTooSmall: return "The message is too large for this tag."
        case .nothingToWrite: return "There is nothing to write."
        }
    }
}

extension CoreNFCFailure {
    /// The `TransportError` the tag planner sees for this failure.
    public var transportError: TransportError {
        guard let known = readerError else {
            return .linkFailure(description)
        }
        switch known {
        case .tagConnectionLost, .tagNotConnected:
            return .tagRemoved
        case .retryExceeded:
            return .timeout
        case .tagResponseError:
            if let iso = iso15693ErrorCode {
                return .linkFailure(String(format: "the tag answered with ISO 15693 error 0x%02X", iso))
            }
            return .timeout  // "no response from tag"
        case .packetTooLong:
            return .unsupported("the command or its answer is too long for the iPhone")
        case .invalidParameter, .invalidParameterLength, .parameterOutOfBound,
            .tagCommandConfigurationInvalidParameters:
            return .unsupported("Core NFC refused the command's parameters (error \(code))")
        default:
            return .linkFailure(description)
        }
    }

    /// What the person should do about this failure.
    public var advice: ReaderAdvice {
        guard let known = readerError else { return .scanAgain }
        if known == .tagResponseError, iso15693ErrorCode != nil { return .tagRefused }
        return known.advice
    }
}
