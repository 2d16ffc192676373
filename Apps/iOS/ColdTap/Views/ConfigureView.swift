import AppViewModels

#if canImport(SwiftUI)
    import SwiftUI
#else
    import SwiftUIStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

/// Sets up an NXP NHS31xx logger (SETCONFIG with the iPhone's clock) and starts one that
/// waits for Start; the form's rules are `ConfigureForm`'s. Configuring erases every sample
/// and event, so it asks first.
struct ConfigureView: View {
    @EnvironmentObject private var model: AppModel
    @State private var form = ConfigureForm()
    @State private var confirming = false

    var body: some View {
        let canConfigure = form.canConfigure(sending: model.sendingLoggerCommand, canReadTags: model.canReadTags)
        let canStart = form.canStart(sending: model.sendingLoggerCommand, canReadTags: model.canReadTags)
        Form {
            Section {
                Stepper(value: $form.intervalMinutes, in: ConfigureForm.intervalMinutesRange) {
                    LabeledContent("Interval", value: form.intervalText)
                }
            } header: {
                Text("Sampling")
            }

            Section {
                Toggle("The logger checks limits", isOn: $form.usesLimits)
                if form.showsLimits {
                    TextField("Valid minimum (°C)", value: $form.validMinimum, format: .number)
                        .keyboardType(.numbersAndPunctuation)
                    TextField("Valid maximum (°C)", value: $form.validMaximum, format: .number)
                        .keyboardType(.numbersAndPunctuation)
                }
            } header: {
                Text("Valid range")
            } footer: {
                Text("The logger marks itself out of range when a sample leaves this range. ColdTap still judges every read against the profile in Settings.")
            }

            Section {
                Picker("Start", selection: $form.startChoice) {
                    ForEach(ConfigureForm.StartChoice.allCases, id: \.self) { Text($0.title).tag($0) }
                }
                if form.showsDelay {
                    Stepper(value: $form.delayMinutes, in: ConfigureForm.delayMinutesRange) {
                        LabeledContent("Delay", value: form.delayText)
                    }
                }
                Toggle("Stop after a running time", isOn: $form.stops)
                if form.showsRunningTime {
                    Stepper(value: $form.runningHours, in: ConfigureForm.runningHoursRange) {
                        LabeledContent("Running time", value: form.runningTimeText)
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
                if let problem = form.problem {
                    Label(problem, systemImage: "exclamationmark.triangle.fill").foregroundStyle(.orange)
                }
                Button(role: .destructive) {
                    confirming = true
                } label: {
                    Label("Configure logger…", systemImage: "slider.horizontal.3")
                }
                .disabled(!canConfigure)
                Button {
                    Task { await model.send(.start) }
                } label: {
                    Label("Start logger", systemImage: "play.fill")
                }
                .disabled(!canStart)
            } footer: {
                Text("Hold the top of the iPhone on the logger when the sheet appears. The logger's clock is set to this iPhone's.")
            }

            if let outcome = model.loggerCommandOutcome {
                Section("Last command") { OutcomeLines(outcome: CommandOutcomeDisplay(outcome)) }
            }
        }
        .navigationTitle("NHS31xx logger")
        .confirmationDialog("Erase and configure the logger?", isPresented: $confirming, titleVisibility: .visible) {
            Button("Erase and configure", role: .destructive) {
                let chosen = form.setup
                Task { await model.send(.configure(chosen)) }
            }
            Button("Cancel", role: .cancel) {}
        } message: {
            Text("Configuring erases every sample and event the logger holds. Read the logger first if you still need its data.")
        }
    }
}
