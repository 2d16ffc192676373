import LoggerSessions
import SwiftUI

/// Sets up an NXP NHS31xx logger (SETCONFIG with the iPhone's clock) and starts one that
/// waits for Start. Configuring erases every sample and event, so it asks first.
struct ConfigureView: View {
    enum StartChoice: Hashable { case now, delay, onStart }

    @EnvironmentObject private var model: AppModel
    @State private var intervalMinutes = 10
    @State private var usesLimits = true
    @State private var validMinimum: Double = 2
    @State private var validMaximum: Double = 8
    @State private var startChoice = StartChoice.now
    @State private var delayMinutes = 60
    @State private var stops = false
    @State private var runningHours = 72
    @State private var confirming = false

    private var setup: NHSLoggerSetup {
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

    var body: some View {
        Form {
            Section {
                Stepper(value: $intervalMinutes, in: 1...1092) {
                    LabeledContent("Interval", value: Fmt.duration(TimeInterval(intervalMinutes * 60)))
                }
            } header: {
                Text("Sampling")
            }

            Section {
                Toggle("The logger checks limits", isOn: $usesLimits)
                if usesLimits {
                    TextField("Valid minimum (°C)", value: $validMinimum, format: .number)
                        .keyboardType(.numbersAndPunctuation)
                    TextField("Valid maximum (°C)", value: $validMaximum, format: .number)
                        .keyboardType(.numbersAndPunctuation)
                }
            } header: {
                Text("Valid range")
            } footer: {
                Text("The logger marks itself out of range when a sample leaves this range. ColdTap still judges every read against the profile in Settings.")
            }

            Section {
                Picker("Start", selection: $startChoice) {
                    Text("Now").tag(StartChoice.now)
                    Text("After a delay").tag(StartChoice.delay)
                    Text("When started").tag(StartChoice.onStart)
                }
                if startChoice == .delay {
                    Stepper(value: $delayMinutes, in: 1...525_600) {
                        LabeledContent("Delay", value: Fmt.duration(TimeInterval(delayMinutes * 60)))
                    }
                }
                Toggle("Stop after a running time", isOn: $stops)
                if stops {
                    Stepper(value: $runningHours, in: 1...8760) {
                        LabeledContent("Running time", value: Fmt.duration(TimeInterval(runningHours * 3600)))
                    }
                }
            } header: {
                Text("Start and stop")
            } footer: {
                Text(
                    "When started: the logger waits until you tap Start logger below with the iPhone on it. Without a running time it logs until its memory is full."
                )
            }

            Section {
                if let problem = setup.problem {
                    Label(Self.text(for: problem), systemImage: "exclamationmark.triangle.fill")
                        .foregroundStyle(.orange)
                }
                Button(role: .destructive) {
                    confirming = true
                } label: {
                    Label("Configure logger…", systemImage: "slider.horizontal.3")
                }
                .disabled(setup.problem != nil || model.sendingLoggerCommand || !model.canReadTags)
                Button {
                    Task { await model.send(.start) }
                } label: {
                    Label("Start logger", systemImage: "play.fill")
                }
                .disabled(model.sendingLoggerCommand || !model.canReadTags)
            } footer: {
                Text("Hold the top of the iPhone on the logger when the sheet appears. The logger's clock is set to this iPhone's.")
            }

            if let outcome = model.loggerCommandOutcome {
                Section("Last command") {
                    switch outcome {
                    case .success(let done):
                        Label(done, systemImage: "checkmark.circle.fill").foregroundStyle(.green)
                    case .failure(let problem):
                        Label(problem.message, systemImage: "exclamationmark.triangle.fill").foregroundStyle(.orange)
                        if let detail = problem.detail {
                            Text(detail).font(.caption).foregroundStyle(.secondary).textSelection(.enabled)
                        }
                    }
                }
            }
        }
        .navigationTitle("NHS31xx logger")
        .confirmationDialog("Erase and configure the logger?", isPresented: $confirming, titleVisibility: .visible) {
            Button("Erase and configure", role: .destructive) {
                let chosen = setup
                Task { await model.send(.configure(chosen)) }
            }
            Button("Cancel", role: .cancel) {}
        } message: {
            Text("Configuring erases every sample and event the logger holds. Read the logger first if you still need its data.")
        }
    }

    static func text(for problem: NHSLoggerSetup.Problem) -> String {
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
