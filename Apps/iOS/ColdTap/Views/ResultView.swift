import AppViewModels
import ColdChain

#if canImport(SwiftUI)
    import SwiftUI
#else
    import SwiftUIStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

/// One read, as `ResultScreen` (AppViewModels) words it: the verdict first, then the
/// statistics, the curve, the excursions and the logger's details; share as PDF or CSV from
/// the toolbar (SwiftUI's `ShareLink`, iOS 16).
struct ResultView: View {
    @EnvironmentObject private var model: AppModel
    @EnvironmentObject private var settings: SettingsStore
    @EnvironmentObject private var station: StationUploader
    let read: StoredRead
    /// The files to share, written when the read is shown.
    @State private var exports: [ReportExporter.Kind: URL] = [:]
    @State private var exportError: String?
    @State private var showingExportError = false

    var body: some View {
        let assessment = model.assessment(of: read)
        let screen = ResultScreen(
            read: read, assessment: assessment, upload: station.status(of: read), timeZone: settings.timeZone,
            hintWords: SessionTexts.hint)
        List {
            Section { VerdictBanner(banner: screen.banner) }
            Section("Statistics") {
                ForEach(screen.statistics, id: \.self) { row in
                    LabeledContent(row.label) { Text(row.value).multilineTextAlignment(.trailing) }
                }
            }
            Section("Temperature") {
                TemperatureChartView(
                    input: ChartInput(log: read.log, assessment: assessment, language: .appLanguage),
                    accessibilitySummary: screen.chartSummary
                )
                .frame(height: 280)
                .listRowInsets(EdgeInsets())
            }
            Section("Excursions") {
                if let note = screen.noExcursionsNote {
                    Text(note).foregroundStyle(.secondary)
                }
                ForEach(Array(screen.excursions.enumerated()), id: \.offset) { _, excursion in
                    ExcursionRow(item: excursion)
                }
            }
            if !screen.gaps.isEmpty {
                Section("Gaps") {
                    ForEach(Array(screen.gaps.enumerated()), id: \.offset) { _, gap in LabeledContent(gap.label, value: gap.value) }
                }
            }
            Section {
                NavigationLink {
                    HandOverView(read: read)
                } label: {
                    Label("Hand over a lot…", systemImage: "shippingbox")
                }
            } footer: {
                Text("Record on the station that a lot now travels with this logger.")
            }
            Section("Logger") {
                ForEach(Array(screen.details.enumerated()), id: \.offset) { _, line in
                    switch line {
                    case .row(let row): LabeledContent(row.label, value: row.value)
                    case .caption(let text): Text(text).font(.caption).foregroundStyle(.secondary)
                    case .note(let text, let symbol): Label(text, systemImage: symbol).font(.caption)
                    }
                }
            }
        }
        .navigationTitle(screen.title)
        .navigationBarTitleDisplayMode(.inline)
        .toolbar {
            ToolbarItem(placement: .primaryAction) {
                Menu {
                    if let pdf = exports[.pdf] {
                        ShareLink(item: pdf, preview: SharePreview(Text("PDF report"))) {
                            Label("PDF report", systemImage: "doc.richtext")
                        }
                    }
                    if let csv = exports[.csv] {
                        ShareLink(item: csv, preview: SharePreview(Text("CSV data"))) {
                            Label("CSV data", systemImage: "tablecells")
                        }
                    }
                } label: {
                    Label("Share", systemImage: "square.and.arrow.up")
                }
                .disabled(exports.isEmpty)
            }
        }
        .task(id: read.id) {
            await prepareExports(assessment: assessment)
        }
        .alert("Export failed", isPresented: $showingExportError) {
            Button("OK", role: .cancel) {}
        } message: {
            Text(exportError ?? "")
        }
    }

    /// Writes the PDF report and the CSV data for the share menu, off the main thread (a long
    /// log's report takes real time to draw); a file that cannot be written is left out of the
    /// menu and the reason is shown.
    private func prepareExports(assessment: Assessment) async {
        let exporter = ReportExporter(read: read, assessment: assessment, language: .appLanguage)
        let written = await Task.detached(priority: .userInitiated) { exporter.writeAll() }.value
        exports = written.files
        if let problem = written.problem {
            exportError = problem
            showingExportError = true
        }
    }
}

/// The verdict, big, with the reasons behind it.
struct VerdictBanner: View {
    let banner: ResultScreen.Banner

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Label(banner.title, systemImage: banner.symbol)
                .font(.largeTitle.bold())
                .foregroundStyle(banner.tone.color)
            Text(banner.explanation).font(.callout)
            Text(banner.profileLine).font(.footnote).foregroundStyle(.secondary)
            ForEach(banner.reasons, id: \.self) { Text($0).font(.footnote) }
        }
        .padding(.vertical, 6)
        .accessibilityElement(children: .combine)
    }
}

struct ExcursionRow: View {
    let item: ResultScreen.ExcursionItem

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            HStack {
                Image(systemName: item.symbol).foregroundStyle(.red).accessibilityHidden(true)
                Text(item.title).font(.headline)
            }
            Text(item.timeLine).font(.subheadline)
            Text(item.peakLine).font(.caption).foregroundStyle(.secondary)
            if let note = item.unknownNote {
                Text(note).font(.caption).foregroundStyle(.orange)
            }
        }
        .accessibilityElement(children: .combine)
    }
}
