import AppViewModels
import SwiftUI

/// The station reads are uploaded to: its address and API token (kept in the Keychain),
/// what is still waiting, and a button to send it now.
struct StationSettingsView: View {
    @EnvironmentObject private var station: StationUploader
    @State private var form = StationSettingsForm()
    @State private var error: String?
    @State private var saving = false

    var body: some View {
        Form {
            Section {
                TextField("Station address, e.g. https://station.example.org", text: $form.address)
                    .keyboardType(.URL)
                    .textInputAutocapitalization(.never)
                    .autocorrectionDisabled()
                SecureField("API token", text: $form.token)
                    .textInputAutocapitalization(.never)
                    .autocorrectionDisabled()
                Button("Save and upload") {
                    saving = true
                    Task {
                        do {
                            try await station.save(address: form.address, token: form.token)
                            error = nil
                            form.token = ""
                        } catch {
                            self.error = error.localizedDescription
                        }
                        saving = false
                    }
                }
                .disabled(!form.canSave(saving: saving))
                if let error {
                    Text(error).font(.footnote).foregroundStyle(.red)
                }
            } header: {
                Text("Station")
            } footer: {
                Text(
                    "Each read is sent to this station as it was read. The address and token are kept in the iOS Keychain on this iPhone only; the token cannot be shown again."
                )
            }

            if let url = station.stationURL {
                let summary = StationSummary(
                    stationURL: url, waitingCount: station.waiting.count, refusedCount: station.refused.count,
                    lastProblem: station.lastProblem, isSending: station.isSending)
                Section {
                    LabeledContent("Station", value: summary.address)
                    LabeledContent("Waiting to upload", value: summary.waiting)
                    if let refused = summary.refused {
                        LabeledContent("Refused by the station", value: refused)
                    }
                    if let problem = summary.problem {
                        Text(problem).font(.footnote).foregroundStyle(.orange)
                    }
                    Button {
                        Task { await station.flush() }
                    } label: {
                        Label(summary.uploadTitle, systemImage: "arrow.up.circle")
                    }
                    .disabled(!summary.canUpload)
                    Button("Remove station", role: .destructive) {
                        do {
                            try station.removeStation()
                        } catch {
                            self.error = error.localizedDescription
                        }
                    }
                } footer: {
                    Text("Reads made offline wait on this iPhone and are sent when the station can be reached again.")
                }
            }
        }
        .navigationTitle("Station")
        .onAppear {
            form.address = station.stationURL?.absoluteString ?? ""
            station.refresh()
        }
    }
}
