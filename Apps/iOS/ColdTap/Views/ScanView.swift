import ColdChain
import SwiftUI

/// The first screen: one button to read a logger, then the verdict of the read.
struct ScanView: View {
    @EnvironmentObject private var model: AppModel
    @EnvironmentObject private var settings: SettingsStore

    var body: some View {
        List {
            Section {
                VStack(alignment: .leading, spacing: 12) {
                    Label("Hold the top of the iPhone to the logger and keep still until the sheet shows the verdict.",
                          systemImage: "iphone.radiowaves.left.and.right")
                        .font(.callout)
                    Text("Profile: \(settings.profile.name)")
                        .font(.footnote)
                        .foregroundStyle(.secondary)
                    Button {
                        Task { await model.scan() }
                    } label: {
                        Label(isReading ? String(localized: "Reading…") : String(localized: "Scan logger"),
                              systemImage: "wave.3.right")
                            .frame(maxWidth: .infinity)
                    }
                    .buttonStyle(.borderedProminent)
                    .controlSize(.large)
                    .disabled(isReading || !model.canReadTags)
                    if !model.canReadTags {
                        Text("This iPhone cannot read NFC tags; use an iPhone 7 or later.")
                            .font(.footnote)
                            .foregroundStyle(.red)
                    }
                }
                .padding(.vertical, 4)
            }

            switch model.state {
            case .idle, .reading:
                EmptyView()
            case .failed(let problem):
                Section("Last read") {
                    Label(problem.message, systemImage: "exclamationmark.triangle.fill")
                        .foregroundStyle(.orange)
                    if let detail = problem.detail {
                        Text(detail).font(.caption).foregroundStyle(.secondary).textSelection(.enabled)
                    }
                }
            case .finished(let read):
                Section("Last read") {
                    NavigationLink {
                        ResultView(read: read)
                    } label: {
                        ReadRow(read: read, assessment: model.assessment(of: read))
                    }
                }
            }
        }
        .navigationTitle("ColdTap")
    }

    private var isReading: Bool {
        if case .reading = model.state { return true }
        return false
    }
}

/// One read in a list: verdict symbol, logger and time.
struct ReadRow: View {
    @EnvironmentObject private var settings: SettingsStore
    let read: StoredRead
    let assessment: Assessment

    var body: some View {
        HStack(spacing: 12) {
            Image(systemName: assessment.verdict.symbol)
                .font(.title2)
                .foregroundStyle(assessment.verdict.color)
                .accessibilityHidden(true)
            VStack(alignment: .leading, spacing: 2) {
                Text(assessment.verdict.title).font(.headline)
                Text(read.loggerName).font(.subheadline)
                Text(Fmt.dateTime(read.readAt, in: settings.timeZone))
                    .font(.caption)
                    .foregroundStyle(.secondary)
            }
        }
        .accessibilityElement(children: .combine)
    }
}
