import Foundation

/// Why a scan produced no log, in words for the person.
public struct ReadProblem: Error, Equatable, Sendable {
    /// What to do next.
    public var message: String
    /// Technical detail for the curious (shown small).
    public var detail: String?
    /// True when the person cancelled; nothing to show.
    public var cancelled: Bool = false

    public init(message: String, detail: String? = nil, cancelled: Bool = false) {
        self.message = message
        self.detail = detail
        self.cancelled = cancelled
    }
}

/// Where the scan stands.
public enum ScanState: Sendable, Equatable {
    case idle
    case reading
    case finished(StoredRead)
    case failed(ReadProblem)

    /// The state a finished scan leaves: the read, the problem, or idle when the person
    /// cancelled (nothing to show).
    public static func after(_ outcome: Result<StoredRead, ReadProblem>) -> ScanState {
        switch outcome {
        case .success(let read): return .finished(read)
        case .failure(let problem): return problem.cancelled ? .idle : .failed(problem)
        }
    }
}

/// The scan screen: the button, what this iPhone can do, and the last read.
public struct ScanScreen: Sendable, Equatable {
    /// The last read, when there is one to show.
    public enum LastRead: Sendable, Equatable {
        case problem(CommandOutcomeDisplay)
        case read(StoredRead)
    }

    public var buttonTitle: String
    public var canScan: Bool
    /// Said under the button on an iPhone without NFC reading.
    public var cannotReadNote: String?
    /// "Profile: NAME".
    public var profileLine: String
    public var lastRead: LastRead?
    /// The sample read (`SampleRead`) can be opened: not while a read runs; needs no NFC.
    public var canTrySample: Bool
    /// Said under *Try a sample read*.
    public var sampleNote: String

    public init(state: ScanState, canReadTags: Bool, profileName: String) {
        let reading = state == .reading
        buttonTitle = reading ? String(localized: "Reading…") : String(localized: "Scan logger")
        canScan = !reading && canReadTags
        cannotReadNote = canReadTags ? nil : String(localized: "This iPhone cannot read NFC tags; use an iPhone 7 or later.")
        profileLine = String(localized: "Profile: \(profileName)")
        canTrySample = !reading
        sampleNote = String(localized: "No logger at hand? Open a read bundled with ColdTap: it is marked as a sample and never uploaded.")
        switch state {
        case .idle, .reading: lastRead = nil
        case .failed(let problem): lastRead = .problem(CommandOutcomeDisplay(problem))
        case .finished(let read): lastRead = .read(read)
        }
    }
}
