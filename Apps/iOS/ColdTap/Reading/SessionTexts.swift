import AppViewModels
import ColdTapBase
import ColdTapKit
import CoreNFCTransport
import Foundation
import LoggerFormats
import LoggerSessions
import NFCTags

#if !canImport(Darwin)
    import FoundationStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

/// The texts of the NFC sheet and of read failures, in the phone's language (String
/// Catalog `Localizable.xcstrings`).
enum SessionTexts {
    static var holdNear: String {
        String(localized: "Hold the top of your iPhone near the logger.")
    }

    static func percent(_ value: Int) -> String {
        (Double(value) / 100).formatted(.percent.precision(.fractionLength(0)))
    }

    static let messages = SessionMessages(
        holdNear: { SessionTexts.holdNear },
        reading: { percent in String(localized: "Reading… \(SessionTexts.percent(percent))") },
        readingWithTimeLeft: { percent, seconds in
            String(localized: "Reading… \(SessionTexts.percent(percent)) — \(seconds) s left, keep holding still.")
        },
        advice: { SessionTexts.advice($0) },
        resume: { advice, percent in
            String(localized: "\(SessionTexts.advice(advice)) Resuming at \(SessionTexts.percent(percent)).")
        }
    )

    /// An NHS31xx met in the plain-NDEF reading mode, which sees its first message only.
    static var nhsNeedsTagCommands: String {
        String(localized: "This is an NXP NHS31xx logger: it is read by exchanging messages. Choose Tag commands under Settings › Reading, then scan it again.")
    }

    /// The sheet's last line after SETCONFIG.
    static func configured(_ setup: NHSLoggerSetup) -> String {
        let every = Fmt.duration(TimeInterval(setup.interval))
        switch setup.start {
        case .now:
            return String(localized: "Logger erased and configured: a sample every \(every), starting now.")
        case .after(let seconds):
            let delay = Fmt.duration(TimeInterval(seconds))
            return String(localized: "Logger erased and configured: a sample every \(every), starting in \(delay).")
        case .onStartCommand:
            return String(localized: "Logger erased and configured: a sample every \(every); it waits for Start.")
        }
    }

    /// The sheet's last line after START.
    static var started: String {
        String(localized: "Logger started.")
    }

    /// The app's words for what a decoder says the user could give (the libraries' `UserHint`;
    /// the command line names its options instead).
    static func hint(_ hint: UserHint) -> String {
        switch hint {
        case .needsSecret: return String(localized: "This logger may sign its data with a secret key; enter the key in Settings and read it again.")
        case .needsInterval: return String(localized: "The logger does not say how often it measured, so its readings cannot be placed in time.")
        case .needsLoggerDescription: return String(localized: "ColdTap does not know this logger's data format.")
        case .wrongInputKind, .nameInputKind, .inputKindContradicted, .inputMayBe:
            return String(localized: "ColdTap could not tell which kind of tag this is.")
        case .needsReadTime:
            return String(localized: "The time of this read is not known, so its readings cannot be placed in time.")
        case .needsLoggerTimeZone:
            return String(localized: "The logger's times carry no time zone, so its readings cannot be placed in time.")
        }
    }

    /// A decoding error for the details line, followed by the app's words for its hint.
    static func detail(of error: Error) -> String {
        let hint = (error as? InputError)?.hint ?? (error as? LoggerFormatError)?.hint ?? (error as? MemoryDumpError)?.hint
        return String(describing: error) + (hint.map { " " + Self.hint($0) } ?? "")
    }

    /// One sentence saying what to do.
    static func advice(_ advice: ReaderAdvice) -> String {
        switch advice {
        case .none: return String(localized: "Done.")
        case .holdStill: return String(localized: "Hold the top of the iPhone still on the logger until reading finishes.")
        case .movePhone: return String(localized: "Move the top of the iPhone slowly over the logger to find the spot where it reads, then hold still.")
        case .tagNotSupported: return String(localized: "This tag is not a logger ColdTap can read; it needs an NFC Forum Type 2 or Type 5 tag.")
        case .tagRefused: return String(localized: "The logger refused the read; it may be locked or of a kind ColdTap does not support.")
        case .nfcUnavailable: return String(localized: "This iPhone cannot read NFC tags; use an iPhone 7 or later.")
        case .radioOff: return String(localized: "NFC is switched off on this iPhone; turn off Airplane Mode and try again.")
        case .appNotAllowed: return String(localized: "This build of ColdTap may not read tags; install a build signed with the NFC Tag Reading capability.")
        case .nfcIneligible:
            return String(
                localized: "iOS does not let ColdTap read NFC tags on this iPhone in its current region or settings; check Settings, or use another iPhone.")
        case .nfcAccessNotAccepted:
            return String(localized: "ColdTap may not use NFC until you allow it; allow NFC for ColdTap when iOS asks (or in Settings), then tap Scan again.")
        case .scanAgain: return String(localized: "Reading stopped; tap Scan and hold the iPhone on the logger again.")
        case .sessionTimedOut: return String(localized: "The 60-second reading time ran out; tap Scan and hold the iPhone still on the logger from the start.")
        case .systemBusy: return String(localized: "Another app is using NFC; close it and tap Scan again.")
        case .cancelled: return String(localized: "Reading cancelled.")
        case .otherTag: return String(localized: "That is a different tag; hold the iPhone over the logger you started reading.")
        case .unreadableData:
            return String(
                localized:
                    "The logger was read, but its data is not in a format ColdTap knows or is damaged; check the logger model and its secret key in Settings.")
        case .oneTagOnly: return String(localized: "More than one tag is in reach; hold the iPhone over one logger only.")
        case .tagReadOnly: return String(localized: "The tag is read-only; ColdTap cannot write to it.")
        case .tagTooSmall: return String(localized: "The message is too large for this tag.")
        case .nothingToWrite: return String(localized: "There is nothing to write.")
        }
    }
}
