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
                    Label(
                        "Hold the top of the iPhone to the logger and keep still until the sheet shows the verdict.",
                        systemImage: "iphone.radiowaves.left.and.right"
                    )
                    .font(.callout)
                    Text("Profile: \(settings.profile.name)")
                        .font(.footnote)
                        .foregroundStyle(.secondary)
                    Button {
                        Task { await model.scan() }
                    } label: {
                        Label(
                            isReading ? String(localized: "Reading…") : String(localized: "Scan logger"),
                            systemImage: "wave.3.right"
                        )
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

            Section {
                NavigationLink {
                    ConfigureView()
                } label: {
                    Label("Configure or start an NHS31xx logger", systemImage: "slider.horizontal.3")
                }
            } footer: {
                Text("NXP NHS31xx loggers answer commands: ColdTap can set them up and start them.")
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

/// One read in a list: verdict symbol, logger and time, and whether it still waits for
/// the station.
struct ReadRow: View {
    @EnvironmentObject private var settings: SettingsStore
    @EnvironmentObject private var station: StationUploader
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
                UploadStatusLabel(status: station.status(of: read))
            }
        }
        .accessibilityElement(children: .combine)
    }
}

/// A read's place with the station, shown only while it is not there.
struct UploadStatusLabel: View {
    let status: StationUploader.Status

    var body: some View {
        switch status {
        case .notForUpload, .uploaded:
            EmptyView()
        case .waiting:
            Label("Not uploaded yet", systemImage: "icloud.slash")
                .font(.caption)
                .foregroundStyle(.orange)
        case .refused:
            Label("Refused by the station", systemImage: "xmark.icloud")
                .font(.caption)
                .foregroundStyle(.red)
        }
    }
}
