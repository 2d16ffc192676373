import SwiftUI

/// Every read kept on the phone, newest first.
struct HistoryView: View {
    @EnvironmentObject private var model: AppModel
    @EnvironmentObject private var history: HistoryStore
    @EnvironmentObject private var station: StationUploader

    var body: some View {
        List {
            if history.reads.isEmpty {
                Text("No reads yet. Scan a logger and its read is kept here, on this iPhone only.")
                    .foregroundStyle(.secondary)
            }
            ForEach(history.reads) { read in
                NavigationLink {
                    ResultView(read: read)
                } label: {
                    ReadRow(read: read, assessment: model.assessment(of: read))
                }
            }
            .onDelete { offsets in
                history.remove(offsets.map { history.reads[$0].id })
            }
            if !history.unreadableFiles.isEmpty {
                Section {
                    Text("\(history.unreadableFiles.count) saved reads could not be opened by this version of ColdTap; they are kept unchanged.")
                        .font(.footnote)
                        .foregroundStyle(.secondary)
                }
            }
            if let problem = station.lastProblem, !station.waiting.isEmpty {
                Section {
                    Text(problem).font(.footnote).foregroundStyle(.orange)
                }
            }
            if let error = history.lastError {
                Text(error).font(.footnote).foregroundStyle(.red)
            }
        }
        // Pull down to send the reads still waiting for the station.
        .refreshable {
            await station.flush()
        }
        .navigationTitle("History")
        .toolbar {
            if !history.reads.isEmpty {
                EditButton()
            }
        }
    }
}
