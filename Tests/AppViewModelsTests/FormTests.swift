import Foundation
import LoggerSessions
import Testing

@testable import AppViewModels

@Suite struct ConfigureFormTests {
    @Test func theDefaultFormIsATenMinuteLoggerWithTwoToEightDegreesStartingNow() {
        let form = ConfigureForm()
        #expect(form.setup == NHSLoggerSetup(interval: 600, validMinimum: 2, validMaximum: 8, start: .now, runningTime: 0))
        #expect(form.problem == nil)
        #expect(!form.showsDelay && !form.showsRunningTime && form.showsLimits)
        #expect(ConfigureForm.StartChoice.allCases.map(\.title) == ["Now", "After a delay", "When started"])
    }

    @Test func theChoicesBecomeTheLoggersSeconds() {
        var form = ConfigureForm()
        form.intervalMinutes = 5
        form.usesLimits = false
        form.startChoice = .delay
        form.delayMinutes = 90
        form.stops = true
        form.runningHours = 48
        #expect(form.setup == NHSLoggerSetup(interval: 300, validMinimum: nil, validMaximum: nil, start: .after(seconds: 5400), runningTime: 172_800))
        #expect(form.showsDelay && form.showsRunningTime && !form.showsLimits)
        form.startChoice = .onStart
        #expect(form.setup.start == .onStartCommand)
        #expect(!form.showsDelay)
        #expect(form.intervalText == Fmt.duration(300))
        #expect(form.delayText == Fmt.duration(5400))
        #expect(form.runningTimeText == Fmt.duration(172_800))
    }

    @Test func aSetupTheLoggerCannotTakeIsSaidAndCannotBeSent() {
        var form = ConfigureForm()
        form.validMinimum = 9
        #expect(form.problem == "The minimum must be below the maximum.")
        #expect(!form.canConfigure(sending: false, canReadTags: true))
        // Start needs no setup.
        #expect(form.canStart(sending: false, canReadTags: true))
        form.validMinimum = -41
        #expect(form.problem == "Each limit must be from -40 °C to 85 °C.")
        form.validMinimum = 2
        form.intervalMinutes = ConfigureForm.intervalMinutesRange.upperBound + 1
        #expect(form.problem == "The interval must be from 1 second to about 18 hours.")
        // The stepper's top is the last interval the logger takes.
        form.intervalMinutes = ConfigureForm.intervalMinutesRange.upperBound
        #expect(form.problem == nil)
    }

    @Test func everyProblemHasItsOwnSentence() {
        let problems: [NHSLoggerSetup.Problem] = [
            .intervalOutOfRange(0), .limitOutOfRange(99), .limitsReversed, .oneLimitOnly, .delayOutOfRange(-1), .runningTimeOutOfRange(-1),
        ]
        #expect(Set(problems.map(ConfigureForm.text(for:))).count == problems.count)
    }

    @Test func noCommandWhileOneIsOnItsWayOrWithoutNFC() {
        let form = ConfigureForm()
        #expect(form.canConfigure(sending: false, canReadTags: true))
        #expect(!form.canConfigure(sending: true, canReadTags: true))
        #expect(!form.canConfigure(sending: false, canReadTags: false))
        #expect(!form.canStart(sending: true, canReadTags: true))
        #expect(!form.canStart(sending: false, canReadTags: false))
    }

    @Test func theLastCommandShowsWhatWasDoneOrWhyNot() {
        let done = CommandOutcomeDisplay(.success("Logger started."))
        #expect(done == CommandOutcomeDisplay(text: "Logger started.", symbol: "checkmark.circle.fill", tone: .good, detail: nil))
        let failed = CommandOutcomeDisplay(.failure(ReadProblem(message: "Hold still.", detail: "tag lost")))
        #expect(failed.tone == .caution)
        #expect(failed.text == "Hold still.")
        #expect(failed.detail == "tag lost")
    }

    @Test func aCancelledCommandLeavesNothingUnderLastCommand() {
        #expect(CommandOutcomeDisplay.kept(.failure(ReadProblem(message: "Reading cancelled.", cancelled: true))) == nil)
        #expect(CommandOutcomeDisplay.kept(.failure(ReadProblem(message: "Hold still."))) == .failure(ReadProblem(message: "Hold still.")))
        #expect(CommandOutcomeDisplay.kept(.success("Logger started.")) == .success("Logger started."))
    }
}

@Suite struct SettingsScreenTests {
    @Test func storedChoicesThatNameNothingFallBack() {
        #expect(SettingsChoices.profile(named: "cdc-vaccine-fridge").name == "cdc-vaccine-fridge")
        #expect(SettingsChoices.profile(named: "gone").name == "vaccine-fridge")
        #expect(SettingsChoices.profile(named: nil).name == "vaccine-fridge")
        #expect(SettingsChoices.timeZoneIdentifier("Europe/Berlin") == "Europe/Berlin")
        #expect(SettingsChoices.timeZoneIdentifier("Mars/Olympus") == nil)
        #expect(SettingsChoices.timeZone("Mars/Olympus", current: utc) == utc)
        #expect(SettingsChoices.timeZone("Asia/Tokyo", current: utc).identifier == "Asia/Tokyo")
    }

    @Test func timeZonesAreFoundAsTyped() {
        let zones = ["Europe/Berlin", "America/New_York", "America/Los_Angeles", "Asia/Tokyo"]
        #expect(TimeZoneChoices.matching("", in: zones) == zones.sorted())
        #expect(TimeZoneChoices.matching("new york", in: zones) == ["America/New_York"])
        #expect(TimeZoneChoices.matching("AMERICA", in: zones) == ["America/Los_Angeles", "America/New_York"])
        #expect(TimeZoneChoices.title("America/New_York") == "America/New York")
        #expect(TimeZoneChoices.phoneZone(utc) == "This iPhone's (UTC)" || TimeZoneChoices.phoneZone(utc) == "This iPhone's (GMT)")
        #expect(TimeZoneChoices.settingsValue("Asia/Tokyo") == "Asia/Tokyo")
        #expect(TimeZoneChoices.settingsValue(nil, current: TimeZone(identifier: "Asia/Tokyo")!) == "This iPhone's (Asia/Tokyo)")
    }

    @Test func theTimeZoneListStartsWithThePhonesAndMarksTheChoice() {
        let zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo"]
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let following = TimeZoneChoices.rows(matching: "", selection: nil, in: zones, current: tokyo)
        #expect(following.map(\.choice) == [nil, "America/New_York", "Asia/Tokyo", "Europe/Berlin"])
        #expect(following.map(\.isSelected) == [true, false, false, false])
        #expect(following[0].title == "This iPhone's (Asia/Tokyo)")
        #expect(following[1].title == "America/New York")
        // The phone's row stays whatever is typed; the chosen zone's row is the one marked.
        let searched = TimeZoneChoices.rows(matching: "new york", selection: "America/New_York", in: zones, current: tokyo)
        #expect(searched.map(\.choice) == [nil, "America/New_York"])
        #expect(searched.map(\.isSelected) == [false, true])
        #expect(Set(following.map(\.id)).count == following.count)
    }

    @Test func aSecretKeyNeedsALabelAndAKey() {
        #expect(!SecretKeyForm(label: "  ", secret: "k").canSave)
        #expect(!SecretKeyForm(label: "E004", secret: "").canSave)
        let form = SecretKeyForm(label: " E0040150 ", secret: " key with spaces ")
        #expect(form.canSave)
        #expect(form.trimmedLabel == "E0040150")
        // The key is kept exactly as typed.
        #expect(form.secretData == Data(" key with spaces ".utf8))
    }
}
