import SwiftUI

/// The station reads are uploaded to: its address and API token (kept in the Keychain),
/// what is still waiting, and a button to send it now.
struct StationSettingsView: View {
    @EnvironmentObject private var station: StationUploader
    @State private var address = ""
    @State private var token = ""
    @State private var error: String?
    @State private var saving = false

    var body: some View {
        Form {
            Section {
                TextField("Station address, e.g. https://station.example.org", text: $address)
                    .keyboardType(.URL)
                    .textInputAutocapitalization(.never)
                    .autocorrectionDisabled()
                SecureField("API token", text: $token)
                    .textInputAutocapitalization(.never)
                    .autocorrectionDisabled()
                Button("Save and upload") {
                    saving = true
                    Task {
                        do {
                            try await station.save(address: address, token: token)
                            error = nil
                            token = ""
                        } catch {
                            self.error = error.localizedDescription
                        }
                        saving = false
                    }
                }
                .disabled(saving || address.isEmpty || token.isEmpty)
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
                Section {
                    LabeledContent("Station", value: url.absoluteString)
                    LabeledContent("Waiting to upload", value: station.waiting.count.formatted())
                    if !station.refused.isEmpty {
                        LabeledContent("Refused by the station", value: station.refused.count.formatted())
                    }
                    if let problem = station.lastProblem {
                        Text(problem).font(.footnote).foregroundStyle(.orange)
                    }
                    Button {
                        Task { await station.flush() }
                    } label: {
                        Label(
                            station.isSending ? String(localized: "Uploading…") : String(localized: "Upload now"),
                            systemImage: "arrow.up.circle")
                    }
                    .disabled(station.isSending || station.waiting.isEmpty)
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
            address = station.stationURL?.absoluteString ?? ""
            station.refresh()
        }
    }
}
