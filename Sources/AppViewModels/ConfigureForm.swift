import Foundation
import LoggerSessions

/// The NHS31xx Configure screen's form: what the person chose, the setup it makes, what is
/// wrong with it, and which buttons can be used. Configuring (SETCONFIG) erases the logger,
/// so the screen asks first; the rules of what the logger takes are `NHSLoggerSetup`'s.
public struct ConfigureForm: Sendable, Equatable {
    public enum StartChoice: Hashable, Sendable, CaseIterable {
        case now, delay, onStart

        /// The choice as the *Start* picker names it.
        public var title: String {
            switch self {
            case .now: return String(localized: "Now")
            case .delay: return String(localized: "After a delay")
            case .onStart: return String(localized: "When started")
            }
        }
    }

    /// The steppers' ranges: an interval of 1 minute to 1092 minutes (the logger's 65535 s
    /// is just over 18 hours), a delay of up to a year, a running time of up to a year.
    public static let intervalMinutesRange = 1...1092
    public static let delayMinutesRange = 1...525_600
    public static let runningHoursRange = 1...8760

    public var intervalMinutes = 10
    public var usesLimits = true
    public var validMinimum: Double = 2
    public var validMaximum: Double = 8
    public var startChoice = StartChoice.now
    public var delayMinutes = 60
    public var stops = false
    public var runningHours = 72

    public init() {}

    /// The setup the form describes, in the logger's seconds.
    public var setup: NHSLoggerSetup {
        let start: NHSLoggerSetup.Start
        switch startChoice {
        case .now: start = .now
        case .delay: start = .after(seconds: delayMinutes * 60)
        case .onStart: start = .onStartCommand
        }
        return NHSLoggerSetup(
            interval: intervalMinutes * 60,
            validMinimum: usesLimits ? validMinimum : nil, validMaximum: usesLimits ? validMaximum : nil,
            start: start, runningTime: stops ? runningHours * 3600 : 0)
    }

    /// The interval, the delay and the running time as the steppers show them.
    public var intervalText: String { Fmt.duration(TimeInterval(intervalMinutes * 60)) }
    public var delayText: String { Fmt.duration(TimeInterval(delayMinutes * 60)) }
    public var runningTimeText: String { Fmt.duration(TimeInterval(runningHours * 3600)) }

    /// The limit fields appear only while the logger checks limits; the delay only for a
    /// delayed start; the running time only when the logger stops.
    public var showsLimits: Bool { usesLimits }
    public var showsDelay: Bool { startChoice == .delay }
    public var showsRunningTime: Bool { stops }

    /// What is wrong with the setup, in words (nil: it can be sent).
    public var problem: String? { setup.problem.map(Self.text(for:)) }

    /// Configure needs a setup the logger takes, no other command on its way and an iPhone
    /// that reads tags; Start needs the last two only.
    public func canConfigure(sending: Bool, canReadTags: Bool) -> Bool {
        setup.problem == nil && canStart(sending: sending, canReadTags: canReadTags)
    }

    public func canStart(sending: Bool, canReadTags: Bool) -> Bool {
        !sending && canReadTags
    }

    public static func text(for problem: NHSLoggerSetup.Problem) -> String {
        switch problem {
        case .intervalOutOfRange: return String(localized: "The interval must be from 1 second to about 18 hours.")
        case .limitOutOfRange: return String(localized: "Each limit must be from -40 °C to 85 °C.")
        case .limitsReversed: return String(localized: "The minimum must be below the maximum.")
        case .oneLimitOnly: return String(localized: "Give both limits, or turn the limits off.")
        case .delayOutOfRange: return String(localized: "The start delay is too long.")
        case .runningTimeOutOfRange: return String(localized: "The running time is too long.")
        }
    }
}

/// The last Configure or Start on an NHS31xx as the screen shows it under *Last command*.
public struct CommandOutcomeDisplay: Sendable, Equatable {
    public var text: String
    public var symbol: String
    public var tone: Tone
    /// Technical detail of a failure, shown small and selectable.
    public var detail: String?

    public init(_ outcome: Result<String, ReadProblem>) {
        switch outcome {
        case .success(let done):
            self.init(text: done, symbol: "checkmark.circle.fill", tone: .good, detail: nil)
        case .failure(let problem):
            self.init(problem)
        }
    }

    /// The outcome the screen keeps under *Last command*: none for a command the person
    /// cancelled.
    public static func kept(_ outcome: Result<String, ReadProblem>) -> Result<String, ReadProblem>? {
        if case .failure(let problem) = outcome, problem.cancelled { return nil }
        return outcome
    }

    /// A failed read or command: what to do next, and its detail.
    public init(_ problem: ReadProblem) {
        self.init(text: problem.message, symbol: "exclamationmark.triangle.fill", tone: .caution, detail: problem.detail)
    }

    init(text: String, symbol: String, tone: Tone, detail: String?) {
        self.text = text
        self.symbol = symbol
        self.tone = tone
        self.detail = detail
    }
}
