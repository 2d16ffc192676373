import AppViewModels

#if canImport(SwiftUI)
    import SwiftUI
#else
    import SwiftUIStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

/// Every read kept on the phone, newest first, with the notes `HistoryScreen` decides on.
struct HistoryView: View {
    @EnvironmentObject private var history: HistoryStore
    @EnvironmentObject private var station: StationUploader

    var body: some View {
        let screen = HistoryScreen(
            readCount: history.reads.count, unreadableCount: history.unreadableFiles.count,
            stationProblem: station.lastProblem, readsWaiting: station.waiting.count, saveError: history.lastError)
        List {
            if let note = screen.emptyNote {
                Text(note).foregroundStyle(.secondary)
            }
            ForEach(history.reads) { read in
                NavigationLink {
                    ResultView(read: read)
                } label: {
                    ReadRow(read: read)
                }
            }
            .onDelete { offsets in
                history.remove(offsets.map { history.reads[$0].id })
            }
            if let note = screen.unreadableNote {
                Section { Text(note).font(.footnote).foregroundStyle(.secondary) }
            }
            if let problem = screen.stationProblem {
                Section { Text(problem).font(.footnote).foregroundStyle(.orange) }
            }
            if let error = screen.saveError {
                Text(error).font(.footnote).foregroundStyle(.red)
            }
        }
        // Pull down to send the reads still waiting for the station.
        .refreshable {
            await station.flush()
        }
        .navigationTitle("History")
        .toolbar {
            if screen.canEdit {
                EditButton()
            }
        }
    }
}
