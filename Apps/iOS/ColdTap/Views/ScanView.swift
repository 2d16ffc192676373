import AppViewModels

#if canImport(SwiftUI)
    import SwiftUI
#else
    import SwiftUIStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

/// The first screen: one button to read a logger, then the verdict of the read
/// (`ScanScreen`, AppViewModels).
struct ScanView: View {
    @EnvironmentObject private var model: AppModel
    @EnvironmentObject private var settings: SettingsStore

    var body: some View {
        let screen = ScanScreen(state: model.state, canReadTags: model.canReadTags, profileName: settings.profile.name)
        List {
            Section {
                VStack(alignment: .leading, spacing: 12) {
                    Label(
                        "Hold the top of the iPhone to the logger and keep still until the sheet shows the verdict.",
                        systemImage: "iphone.radiowaves.left.and.right"
                    )
                    .font(.callout)
                    Text(screen.profileLine).font(.footnote).foregroundStyle(.secondary)
                    Button {
                        Task { await model.scan() }
                    } label: {
                        Label(screen.buttonTitle, systemImage: "wave.3.right").frame(maxWidth: .infinity)
                    }
                    .buttonStyle(.borderedProminent)
                    .controlSize(.large)
                    .disabled(!screen.canScan)
                    if let note = screen.cannotReadNote {
                        Text(note).font(.footnote).foregroundStyle(.red)
                    }
                }
                .padding(.vertical, 4)
            }

            Section {
                Button {
                    Task { await model.openSample() }
                } label: {
                    Label("Try a sample read", systemImage: "doc.text.magnifyingglass")
                }
                .disabled(!screen.canTrySample)
            } footer: {
                Text(screen.sampleNote)
            }

            Section {
                NavigationLink {
                    ConfigureView()
                } label: {
                    Label("Configure or start an NHS31xx logger", systemImage: "slider.horizontal.3")
                }
            } footer: {
                Text("NXP NHS31xx loggers answer commands: ColdTap can set them up and start them.")
            }

            if let lastRead = screen.lastRead {
                Section("Last read") {
                    switch lastRead {
                    case .problem(let problem):
                        OutcomeLines(outcome: problem)
                    case .read(let read):
                        NavigationLink {
                            ResultView(read: read)
                        } label: {
                            ReadRow(read: read)
                        }
                    }
                }
            }
        }
        .navigationTitle("ColdTap")
    }
}

/// What a command or a read ended with: the sentence with its symbol, and the detail small.
struct OutcomeLines: View {
    let outcome: CommandOutcomeDisplay

    var body: some View {
        Label(outcome.text, systemImage: outcome.symbol).foregroundStyle(outcome.tone.color)
        if let detail = outcome.detail {
            Text(detail).font(.caption).foregroundStyle(.secondary).textSelection(.enabled)
        }
    }
}

/// One read in a list (`ReadRowDisplay`): verdict symbol, logger and time, and whether it
/// still waits for the station.
struct ReadRow: View {
    @EnvironmentObject private var model: AppModel
    @EnvironmentObject private var settings: SettingsStore
    @EnvironmentObject private var station: StationUploader
    let read: StoredRead

    var body: some View {
        let row = ReadRowDisplay(
            read: read, verdict: model.assessment(of: read).verdict, upload: station.status(of: read), timeZone: settings.timeZone)
        HStack(spacing: 12) {
            Image(systemName: row.symbol).font(.title2).foregroundStyle(row.tone.color).accessibilityHidden(true)
            VStack(alignment: .leading, spacing: 2) {
                Text(row.verdictTitle).font(.headline)
                Text(row.loggerName).font(.subheadline)
                Text(row.readAt).font(.caption).foregroundStyle(.secondary)
                if let badge = row.badge {
                    Label(badge.text, systemImage: badge.symbol).font(.caption).foregroundStyle(badge.tone.color)
                }
            }
        }
        .accessibilityElement(children: .combine)
    }
}
