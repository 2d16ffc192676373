import AppViewModels

#if canImport(SwiftUI)
    import SwiftUI
#else
    import SwiftUIStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

/// Hands a lot over to the logger just read (`HandOverScreen`, AppViewModels): the site's
/// lots worst first with a search on their ids, where and when, then the move recorded on
/// the station. A move is sent once; after a lost answer the screen says to look at the
/// lot's moves before recording it again.
struct HandOverView: View {
    @EnvironmentObject private var station: StationUploader
    @State private var screen: HandOverScreen

    init(read: StoredRead) {
        _screen = State(initialValue: HandOverScreen(loggerID: read.stationLoggerID))
    }

    var body: some View {
        Form {
            Section {
                Text(screen.loggerLine).font(.headline)
                if let progress = screen.progressText {
                    HStack(spacing: 8) {
                        ProgressView()
                        Text(progress).foregroundStyle(.secondary)
                    }
                }
            }

            if let done = screen.doneText {
                Section {
                    Label(done, systemImage: "checkmark.circle.fill").foregroundStyle(Tone.good.color)
                    Button("Hand over another lot") { screen.handOverAnother() }
                }
            }

            if let problem = screen.problemText {
                Section {
                    Label(problem, systemImage: "exclamationmark.triangle.fill").foregroundStyle(Tone.caution.color)
                    if screen.canRetry {
                        Button("Try again") { screen.retry() }
                    }
                }
            }

            if screen.showsChoices {
                Section("Lots") {
                    TextField("Search lot", text: $screen.search)
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                    if let note = screen.emptyNote {
                        Text(note).foregroundStyle(.secondary)
                    }
                    ForEach(screen.rows) { row in
                        Button {
                            screen.pick(row.id)
                        } label: {
                            LotRowView(row: row)
                        }
                        .buttonStyle(.plain)
                    }
                }
                .disabled(screen.choicesLocked)

                Section {
                    TextField("Place (optional)", text: $screen.place)
                    DatePicker(selection: $screen.at, in: ...Date()) {
                        Text("Handed over at")
                    }
                    Button {
                        send()
                    } label: {
                        Label(screen.sendTitle, systemImage: "arrow.right.circle.fill")
                    }
                    .disabled(!screen.canSend)
                } footer: {
                    Text("Each hand-over is recorded once and never edited; a wrong one is corrected by another move.")
                }
            }
        }
        .navigationTitle(screen.title)
        .navigationBarTitleDisplayMode(.inline)
        .task(id: screen.needsLots) {
            guard screen.needsLots else { return }
            screen.loaded(await HandOverScreen.fetchLots(from: station.lotStation()))
        }
    }

    private func send() {
        guard let request = screen.startSending() else { return }
        let client = station.lotStation()
        Task { screen.sent(await HandOverScreen.record(request, at: client)) }
    }
}

/// One lot (`HandOverScreen.LotRow`): its id and product, its decision and what it used.
struct LotRowView: View {
    let row: HandOverScreen.LotRow

    var body: some View {
        HStack(spacing: 12) {
            Image(systemName: row.symbol).font(.title2).foregroundStyle(row.tone.color).accessibilityHidden(true)
            VStack(alignment: .leading, spacing: 2) {
                Text(row.id).font(.headline)
                Text(row.productLine).font(.subheadline)
                Text(row.detailLine).font(.caption).foregroundStyle(.secondary)
            }
            Spacer()
            if row.selected {
                Image(systemName: "checkmark").foregroundStyle(.tint).accessibilityLabel(Text("Selected"))
            }
        }
        .contentShape(Rectangle())
        .accessibilityElement(children: .combine)
        .accessibilityAddTraits(row.selected ? .isSelected : [])
    }
}
