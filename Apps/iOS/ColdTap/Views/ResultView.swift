import ColdChain
import LoggerFormats
import SwiftUI
import TempChart

/// One read: the verdict first, then the statistics, the curve, the excursions and the
/// logger's details; share as PDF or CSV from the toolbar (SwiftUI's `ShareLink`, iOS 16).
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
        let stats = assessment.statistics
        List {
            Section {
                VerdictBanner(assessment: assessment, reasons: Self.reasons(read.log, assessment))
            }

            Section("Statistics") {
                LabeledContent("Minimum", value: Fmt.temperature(stats.min))
                LabeledContent("Maximum", value: Fmt.temperature(stats.max))
                LabeledContent("Mean", value: Fmt.temperature(stats.mean))
                LabeledContent("Mean kinetic temperature", value: Fmt.temperature(stats.meanKineticTemperature))
                LabeledContent("Time in range", value: Fmt.percent(stats.secondsInBand, of: stats.validSeconds))
                LabeledContent("Time above", value: Fmt.duration(stats.secondsAbove))
                LabeledContent("Time below", value: Fmt.duration(stats.secondsBelow))
                LabeledContent("Unknown time", value: Fmt.duration(stats.unknownSeconds))
                LabeledContent("Samples", value: "\(stats.validCount) / \(stats.sampleCount)")
                LabeledContent("Period") {
                    Text("\(Fmt.dateTime(stats.start, in: settings.timeZone)) – \(Fmt.dateTime(stats.end, in: settings.timeZone))")
                        .multilineTextAlignment(.trailing)
                }
            }

            Section("Temperature") {
                TemperatureChartView(
                    input: ChartInput(log: read.log, assessment: assessment, language: .appLanguage),
                    accessibilitySummary: String(localized: "Temperature chart from \(Fmt.temperature(stats.min)) to \(Fmt.temperature(stats.max))")
                )
                .frame(height: 280)
                .listRowInsets(EdgeInsets())
            }

            Section("Excursions") {
                if assessment.excursions.isEmpty {
                    Text("No excursions beyond \(assessment.band.description).")
                        .foregroundStyle(.secondary)
                } else {
                    ForEach(Array(assessment.excursions.enumerated()), id: \.offset) { _, excursion in
                        ExcursionRow(excursion: excursion, timeZone: settings.timeZone)
                    }
                }
            }

            if !assessment.gaps.isEmpty {
                Section("Gaps") {
                    ForEach(Array(assessment.gaps.enumerated()), id: \.offset) { _, gap in
                        LabeledContent(Fmt.dateTime(gap.start, in: settings.timeZone), value: Fmt.duration(gap.duration))
                    }
                }
            }

            Section("Logger") {
                LabeledContent("Logger", value: read.loggerName)
                LabeledContent("Format", value: read.log.format.name)
                if let uid = read.log.logger.tagUID {
                    LabeledContent("Tag UID", value: uid)
                }
                LabeledContent("Integrity", value: read.log.integrity.status.title)
                if !read.log.integrity.detail.isEmpty {
                    Text(LogTexts.integrity(read.log.integrity.detail, language: .appLanguage)).font(.caption).foregroundStyle(.secondary)
                }
                if let hint = read.log.integrity.hint {
                    Text(SessionTexts.hint(hint)).font(.caption).foregroundStyle(.secondary)
                }
                LabeledContent("Profile", value: assessment.profile.name)
                LabeledContent("Read at", value: Fmt.dateTime(read.readAt, in: settings.timeZone))
                LabeledContent("Time zone", value: settings.timeZone.identifier)
                if read.automaticMode == true {
                    Label(
                        "Read in automatic mode: the logger's answers were read one after another, without writing to it.",
                        systemImage: "info.circle"
                    )
                    .font(.caption)
                }
                switch station.status(of: read) {
                case .notForUpload:
                    EmptyView()
                case .waiting:
                    LabeledContent("Station", value: String(localized: "Not uploaded yet"))
                case .refused(let reason):
                    LabeledContent("Station", value: String(localized: "Refused by the station"))
                    Text(reason).font(.caption).foregroundStyle(.secondary)
                case .uploaded:
                    LabeledContent("Station", value: String(localized: "Uploaded"))
                }
                if read.resumes > 0 {
                    LabeledContent("Resumed after losing the tag", value: "\(read.resumes)")
                }
                ForEach(Array(read.log.warnings.enumerated()), id: \.offset) { item in
                    Label(LogTexts.warning(item.element, language: .appLanguage), systemImage: "exclamationmark.triangle").font(.caption)
                }
            }
        }
        .navigationTitle(read.loggerName)
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
            prepareExports(assessment: assessment)
        }
        .alert("Export failed", isPresented: $showingExportError) {
            Button("OK", role: .cancel) {}
        } message: {
            Text(exportError ?? "")
        }
    }

    /// The verdict's reasons in the app's language (ColdChain writes English; TempChart
    /// writes Chinese and Japanese ones from the same typed reasons).
    static func reasons(_ log: TemperatureLog, _ assessment: Assessment) -> [String] {
        let language = ReportLanguage.appLanguage
        return language == .english
            ? assessment.reasons
            : ReportContent.localizedReasons(log: log, assessment: assessment, language: language)
    }

    /// Writes the PDF report and the CSV data for the share menu; a file that cannot be
    /// written is left out of the menu and the reason is shown.
    private func prepareExports(assessment: Assessment) {
        let exporter = ReportExporter(read: read, assessment: assessment, language: .appLanguage)
        var written: [ReportExporter.Kind: URL] = [:]
        for kind in [ReportExporter.Kind.pdf, .csv] {
            do {
                written[kind] = try exporter.write(kind)
            } catch {
                exportError = error.localizedDescription
                showingExportError = true
            }
        }
        exports = written
    }
}

/// The verdict, big, with the reasons behind it.
struct VerdictBanner: View {
    let assessment: Assessment
    let reasons: [String]

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Label(assessment.verdict.title, systemImage: assessment.verdict.symbol)
                .font(.largeTitle.bold())
                .foregroundStyle(assessment.verdict.color)
            Text(assessment.verdict.explanation)
                .font(.callout)
            Text("Profile \(assessment.profile.name): \(assessment.band.description)")
                .font(.footnote)
                .foregroundStyle(.secondary)
            ForEach(reasons, id: \.self) { reason in
                Text("• \(reason)").font(.footnote)
            }
        }
        .padding(.vertical, 6)
        .accessibilityElement(children: .combine)
    }
}

struct ExcursionRow: View {
    let excursion: Excursion
    let timeZone: TimeZone

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            HStack {
                Image(systemName: excursion.direction == .high ? "arrow.up.circle.fill" : "arrow.down.circle.fill")
                    .foregroundStyle(.red)
                    .accessibilityHidden(true)
                Text(
                    excursion.direction == .high
                        ? String(localized: "Above \(excursion.limit.description)")
                        : String(localized: "Below \(excursion.limit.description)")
                )
                .font(.headline)
            }
            Text("\(Fmt.dateTime(excursion.start, in: timeZone)) for \(Fmt.duration(excursion.duration))")
                .font(.subheadline)
            Text("Peak \(Fmt.temperature(excursion.peak)) at \(Fmt.dateTime(excursion.peakTime, in: timeZone))")
                .font(.caption)
                .foregroundStyle(.secondary)
            if excursion.unknownBefore || excursion.unknownAfter {
                Text("Unknown time next to this excursion: it may have lasted longer.")
                    .font(.caption)
                    .foregroundStyle(.orange)
            }
        }
        .accessibilityElement(children: .combine)
    }
}
