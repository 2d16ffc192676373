import AppViewModels

#if canImport(SwiftUI)
    import SwiftUI
#else
    import SwiftUIStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

/// One read, as `ResultScreen` (AppViewModels) words it: the verdict first, then the
/// statistics, the curve, the excursions and the logger's details; share as PDF or CSV from
/// the toolbar (`ShareSheet`).
struct ResultView: View {
    @EnvironmentObject private var model: AppModel
    @EnvironmentObject private var settings: SettingsStore
    @EnvironmentObject private var station: StationUploader
    let read: StoredRead
    @State private var sharing = false

    var body: some View {
        let assessment = model.assessment(of: read)
        let screen = ResultScreen(
            read: read, assessment: assessment, upload: station.status(of: read), timeZone: settings.timeZone,
            hintWords: SessionTexts.hint)
        List {
            if let note = screen.sampleNote {
                Section { Label(note, systemImage: "info.circle").foregroundStyle(Tone.caution.color) }
            }
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
            if !read.isSample {
                Section {
                    NavigationLink {
                        HandOverView(read: read)
                    } label: {
                        Label("Hand over a lot…", systemImage: "shippingbox")
                    }
                } footer: {
                    Text("Record on the station that a lot now travels with this logger.")
                }
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
                Button {
                    sharing = true
                } label: {
                    Label("Share", systemImage: "square.and.arrow.up")
                }
            }
        }
        // The files are made when the sheet opens, off the main thread (`ReadExports.prepare`).
        .sheet(isPresented: $sharing) {
            ShareSheet(exports: ReadExports(read: read, assessment: assessment, language: .appLanguage))
        }
    }
}

/// The PDF report and the CSV data of a read, made when the sheet opens (`ShareSheetScreen`).
struct ShareSheet: View {
    let exports: ReadExports
    @State private var written: ReadExports.Written?
    @Environment(\.dismiss) private var dismiss

    var body: some View {
        let screen = ShareSheetScreen(written: written)
        NavigationStack {
            List {
                if let note = screen.preparingNote { Label(note, systemImage: "hourglass") }
                ForEach(screen.rows, id: \.url) { row in
                    ShareLink(item: row.url, preview: SharePreview(Text(row.title))) { Label(row.title, systemImage: row.symbol) }
                }
                if let problem = screen.problem { Text(problem).foregroundStyle(.red) }
            }
            .navigationTitle("Share")
            .toolbar { ToolbarItem(placement: .confirmationAction) { Button("Done") { dismiss() } } }
        }
        .task(id: exports.read.id) { written = await exports.prepare() }
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
