import AppViewModels
import ColdChain

#if canImport(SwiftUI)
    import SwiftUI
#else
    import SwiftUIStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

/// The alarm profile, the time zone, how tags are read, and the loggers' secret keys.
struct SettingsView: View {
    @EnvironmentObject private var settings: SettingsStore
    @EnvironmentObject private var model: AppModel
    @EnvironmentObject private var station: StationUploader
    @State private var keys = SecretKeyList()
    @State private var addingKey = false

    var body: some View {
        Form {
            Section {
                Picker("Profile", selection: $settings.profileName) {
                    ForEach(Profile.builtIn, id: \.name) { profile in
                        Text(profile.name).tag(profile.name)
                    }
                }
                Text(settings.profile.summary)
                    .font(.footnote)
                    .foregroundStyle(.secondary)
            } header: {
                Text("Alarm profile")
            } footer: {
                Text("Reads are judged against this profile's rules. Earlier reads keep the profile they were read with.")
            }

            Section {
                NavigationLink {
                    TimeZonePicker(selection: $settings.timeZoneIdentifier)
                } label: {
                    LabeledContent("Time zone", value: TimeZoneChoices.settingsValue(settings.timeZoneIdentifier))
                }
            } footer: {
                Text("Times are stored in UTC; the time zone only changes how they are shown and how days are counted.")
            }

            Section {
                Picker("Reading", selection: $settings.readingMode) {
                    Text("Tag commands (fastest)").tag(SettingsStore.ReadingMode.tagSession)
                    Text("NDEF only").tag(SettingsStore.ReadingMode.ndefOnly)
                }
                Toggle("Read NHS31xx loggers without writing", isOn: $settings.readLoggersWithoutWriting)
            } footer: {
                VStack(alignment: .leading, spacing: 4) {
                    Text(
                        "Tag commands read NFC Forum Type 2 and Type 5 loggers in as few round trips as the chip allows. Use NDEF only for tags the tag commands cannot read."
                    )
                    Text(
                        "NHS31xx loggers are read by sending them commands. Without writing, ColdTap reads their answers one after another instead: slower, and the logger is left exactly as it was."
                    )
                }
            }

            Section {
                NavigationLink {
                    StationSettingsView()
                } label: {
                    LabeledContent("Station", value: StationSummary.settingsValue(stationURL: station.stationURL, credential: station.credential))
                }
            } header: {
                Text("Upload")
            } footer: {
                Text("Once you sign in to a station, every read is uploaded to it in your name; reads made offline are sent later.")
            }

            Section {
                ForEach(keys.labels, id: \.self) { label in
                    Label(label, systemImage: "key.fill")
                }
                .onDelete { keys.delete(at: $0, from: model.keychain) }
                Button {
                    addingKey = true
                } label: {
                    Label("Add a secret key", systemImage: "plus")
                }
                if let problem = keys.problem {
                    Text(problem).font(.footnote).foregroundStyle(.red)
                }
            } header: {
                Text("Secret keys")
            } footer: {
                Text("Loggers that sign their data need their key to verify it. Keys are kept in the iOS Keychain on this iPhone only and never leave it.")
            }
        }
        .navigationTitle("Settings")
        .onAppear { keys.reload(from: model.keychain) }
        .sheet(isPresented: $addingKey, onDismiss: { keys.reload(from: model.keychain) }) {
            NavigationStack { AddKeyView(keychain: model.keychain) }
        }
    }
}

/// Enters a logger's secret key: a label (serial number or tag UID) and the key as
/// hexadecimal or Base64.
struct AddKeyView: View {
    let keychain: KeychainStore
    @Environment(\.dismiss) private var dismiss
    @State private var form = SecretKeyForm()
    @State private var error: String?

    var body: some View {
        Form {
            Section {
                TextField("Logger serial number or tag UID (hex)", text: $form.label)
                    .textInputAutocapitalization(.never)
                    .autocorrectionDisabled()
                SecureField("Key, exactly as the logger's maker gives it", text: $form.secret)
                    .textInputAutocapitalization(.never)
                    .autocorrectionDisabled()
            } footer: {
                Text("The key is stored in the Keychain and cannot be shown again.")
            }
            if let error {
                Text(error).foregroundStyle(.red)
            }
        }
        .navigationTitle("Secret key")
        .toolbar {
            ToolbarItem(placement: .cancellationAction) {
                Button("Cancel") { dismiss() }
            }
            ToolbarItem(placement: .confirmationAction) {
                Button("Save", action: save)
                    .disabled(!form.canSave)
            }
        }
    }

    private func save() {
        do {
            try keychain.store(form.secretData, for: form.trimmedLabel)
            dismiss()
        } catch {
            self.error = error.localizedDescription
        }
    }
}

/// All time zones, searchable, with "this iPhone's" first.
struct TimeZonePicker: View {
    @Binding var selection: String?
    @Environment(\.dismiss) private var dismiss
    @State private var query = ""

    var body: some View {
        List {
            Button {
                selection = nil
                dismiss()
            } label: {
                row(TimeZoneChoices.phoneZone(), selected: selection == nil)
            }
            ForEach(TimeZoneChoices.matching(query), id: \.self) { identifier in
                Button {
                    selection = identifier
                    dismiss()
                } label: {
                    row(TimeZoneChoices.title(identifier), selected: selection == identifier)
                }
            }
        }
        .searchable(text: $query)
        .navigationTitle("Time zone")
    }

    private func row(_ title: String, selected: Bool) -> some View {
        HStack {
            Text(title).foregroundStyle(.primary)
            Spacer()
            if selected { Image(systemName: "checkmark").foregroundStyle(.tint) }
        }
    }
}
