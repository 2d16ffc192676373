import AppViewModels

#if canImport(SwiftUI)
    import SwiftUI
#else
    import SwiftUIStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif
#if canImport(UIKit)
    import UIKit
#else
    import UIKitStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

/// The station reads are uploaded to: its address and the person's sign-in (user name,
/// password, this iPhone's name on the station), who is signed in, what is still waiting,
/// and a button to send it now. The sign-in gives this iPhone a token of its own, kept in
/// the Keychain; the form no longer takes a pasted API token (one pasted into an earlier
/// version keeps working until someone signs in or out).
struct StationSettingsView: View {
    @EnvironmentObject private var station: StationUploader
    @EnvironmentObject private var settings: SettingsStore
    @State private var form = StationSettingsForm()

    var body: some View {
        let account = StationAccountSummary(credential: station.credential, waitingCount: station.waiting.count)
        Form {
            if let account {
                Section {
                    Text(account.title).font(.headline)
                    ForEach(account.rows) { row in
                        LabeledContent(row.label, value: row.value)
                    }
                    if let waitingNote = account.waitingNote {
                        Text(waitingNote).font(.footnote).foregroundStyle(.secondary)
                    }
                    Button(account.signOutTitle, role: .destructive) {
                        signOut()
                    }
                    .disabled(!form.canSignOut(isSending: station.isSending))
                } header: {
                    Text("Signed in")
                } footer: {
                    Text(account.note)
                }
            }

            if account?.offersSignIn ?? true {
                Section {
                    TextField("Station address, e.g. https://station.example.org", text: $form.address)
                        .keyboardType(.URL)
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                    TextField("User name", text: $form.user)
                        .textContentType(.username)
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                    SecureField("Password", text: $form.password)
                        .textContentType(.password)
                    TextField("Device name, e.g. ward 3 phone", text: $form.device)
                        .autocorrectionDisabled()
                    Button(form.signInTitle) {
                        signIn()
                    }
                    .disabled(!form.canSignIn)
                    if let problem = form.problemText(in: settings.timeZone) {
                        Text(problem).font(.footnote).foregroundStyle(.red)
                    }
                } header: {
                    Text("Sign in")
                } footer: {
                    Text(
                        "Sign in with your user name and password on the station, and name this iPhone so the station can tell it apart (e.g. ward 3 phone). The station gives this iPhone a token of its own, kept in the iOS Keychain on this iPhone only; the password is not kept."
                    )
                }
            }

            if let problem = form.accountProblem {
                Section {
                    Text(problem).font(.footnote).foregroundStyle(.red)
                }
            }

            if let url = station.stationURL, station.isConfigured {
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
                        form.removedStation(Result { try station.removeStation() })
                    }
                } footer: {
                    Text("Reads made offline wait on this iPhone and are sent when the station can be reached again.")
                }
            }
        }
        .navigationTitle("Station")
        .onAppear {
            // The device's name as the station's name for it until the person types another: on iOS
            // 16 and later the generic "iPhone" (the user-assigned name needs an entitlement this
            // app does not ask for), so the footer asks for a name like "ward 3 phone".
            form.prefill(address: station.stationURL?.absoluteString, deviceName: UIDevice.current.name)
            station.refresh()
        }
    }

    private func signIn() {
        guard let request = form.startSigningIn() else { return }
        Task { form.finished(await station.signIn(request)) }
    }

    private func signOut() {
        guard form.startSigningOut() else { return }
        Task { form.finishedSigningOut(await Result(catchingAsync: { try await station.signOut() })) }
    }
}
