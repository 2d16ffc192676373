import ColdTapBase
import Foundation
import Testing

@testable import AppViewModels
@testable import StationClient

/// A station that answers the sign-in from a closure, and notes what it was sent.
struct FakeSignInService: StationSignInService {
    struct Asked: Sendable, Equatable {
        var user: String
        var password: String
        var device: String
    }

    var answer: @Sendable () throws -> DeviceSignIn
    let asked = LockedValue([Asked]())

    func signIn(user: String, password: String, device: String) async throws -> DeviceSignIn {
        asked.withLock { $0.append(Asked(user: user, password: password, device: device)) }
        return try answer()
    }
}

/// A form with every field filled in.
func filledForm() -> StationSettingsForm {
    StationSettingsForm(address: "https://station.example.org", user: "olli", password: "correct horse battery", device: "ward 3 phone")
}

@Suite struct StationSignInFormTests {
    @Test func theFieldsAreSentTrimmedAndThePasswordAsTyped() throws {
        var form = StationSettingsForm(
            address: "  https://station.example.org:8443 \n", user: " olli ", password: " pass word ", device: " ward 3 phone ")
        #expect(form.canSignIn)
        #expect(form.signInTitle == "Sign in")
        let started = form.startSigningIn()
        let request = try #require(started)
        #expect(request.address == "https://station.example.org:8443")
        #expect(request.url.host == "station.example.org")
        #expect(request.url.port == 8443)
        #expect(request.user == "olli")
        #expect(request.password == " pass word ")
        #expect(request.device == "ward 3 phone")
        #expect(form.signingIn)
        #expect(form.signInTitle == "Signing in…")
        #expect(!form.canSignIn)
        // One sign-in at a time.
        let second = form.startSigningIn()
        #expect(second == nil)
    }

    @Test func whatCannotBeSentIsSaidBeforeAnythingIsSent() {
        func problem(address: String = "https://station.example.org", user: String = "olli", password: String = "pw", device: String = "phone")
            -> StationSignInProblem?
        {
            if case .failure(let problem) = StationSettingsForm(address: address, user: user, password: password, device: device).checked() {
                return problem
            }
            return nil
        }
        #expect(problem(address: "http://192.168.1.20:8080") == .plainHTTP)
        #expect(problem(address: "https://user:pw@station.example.org") == .credentialsInAddress)
        #expect(problem(address: "station.example.org") == .notAnAddress)
        #expect(problem(address: "ftp://station.example.org") == .notAnAddress)
        #expect(problem(user: "  ") == .noUserName)
        #expect(problem(password: "") == .noPassword)
        #expect(problem(device: "   ") == .badDeviceName)
        #expect(problem(device: String(repeating: "x", count: 101)) == .badDeviceName)
        #expect(problem(device: "ward\u{7}3") == .badDeviceName)
        #expect(problem(device: String(repeating: "é", count: 100)) == nil)
        // A password is sent as typed, spaces and all.
        #expect(problem(password: "   ") == nil)
        // The address is judged first.
        #expect(problem(address: "http://station.example.org", user: "", password: "") == .plainHTTP)

        // A form that cannot be sent says why and keeps the password (nothing was attempted).
        var form = filledForm()
        form.device = ""
        #expect(!form.canSignIn)
        let refused = form.startSigningIn()
        #expect(refused == nil)
        #expect(form.problem == .badDeviceName)
        #expect(!form.signingIn)
        #expect(form.password == "correct horse battery")
        #expect(form.problemText(in: utc) == "Name this iPhone for the station in 1 to 100 characters, e.g. “ward 3 phone”.")
    }

    @Test func signInNeedsEveryField() {
        #expect(filledForm().canSignIn)
        for field in [\StationSettingsForm.address, \.user, \.password, \.device] {
            var form = filledForm()
            form[keyPath: field] = ""
            #expect(!form.canSignIn)
        }
        var blank = filledForm()
        blank.user = "   "
        #expect(!blank.canSignIn)
    }

    @Test func theStoredAddressAndTheDevicesNameFillOnlyEmptyFields() {
        var form = StationSettingsForm()
        form.prefill(address: "https://station.example.org", deviceName: "iPhone")
        #expect(form.address == "https://station.example.org")
        #expect(form.device == "iPhone")
        form.address = "https://other.example.org"
        form.device = "ward 3 phone"
        form.prefill(address: "https://station.example.org", deviceName: "iPhone")
        #expect(form.address == "https://other.example.org")
        #expect(form.device == "ward 3 phone")
        var none = StationSettingsForm()
        none.prefill(address: nil, deviceName: String(repeating: "n", count: 140))
        #expect(none.address == "")
        #expect(none.device.count == StationSettingsForm.deviceNameLimit)
    }

    @Test func aSignInKeepsNoPasswordAndSaysWhoIsSignedIn() async throws {
        let station = FakeSignInService(answer: { olliSignIn })
        var form = filledForm()
        let started = form.startSigningIn()
        let request = try #require(started)
        let outcome = await StationSettingsForm.signIn(request, with: station)
        #expect(outcome == .success(olliSignIn))
        #expect(station.asked.withLock { $0 } == [.init(user: "olli", password: "correct horse battery", device: "ward 3 phone")])
        form.finished(outcome)
        #expect(form.password == "")
        #expect(form.problem == nil)
        #expect(!form.signingIn)
        #expect(form.user == "olli")

        let identity = StationIdentity(olliSignIn)
        let summary = try #require(StationAccountSummary(credential: .signedIn(identity), waitingCount: 0))
        #expect(summary.title == "Signed in as Olli Berg")
        #expect(summary.rows.map(\.label) == ["User name", "Role", "Site", "Device name"])
        #expect(summary.rows.map(\.value) == ["olli", "Operator", "north", "ward 3 phone"])
        #expect(summary.note == "The station records the reads this iPhone uploads as uploaded by Olli Berg from “ward 3 phone”.")
        #expect(summary.signOutTitle == "Sign out")
        #expect(!summary.offersSignIn)
        #expect(summary.waitingNote == nil)

        form.signedOut()
        #expect(form.user == "" && form.password == "" && form.problem == nil)
        #expect(form.address == "https://station.example.org")
        #expect(form.device == "ward 3 phone")
    }

    @MainActor @Test func aSignOutRunsOnceAndAFailureIsSaidWithTheFieldsKept() async {
        var form = filledForm()
        #expect(form.canSignOut(isSending: false))
        #expect(!form.canSignOut(isSending: true))  // an upload under way first
        let first = form.startSigningOut()
        let second = form.startSigningOut()  // a second tap while the first runs
        #expect(first && !second)
        #expect(!form.canSignOut(isSending: false))
        form.finishedSigningOut(await Result(catchingAsync: { throw CocoaError(.fileWriteNoPermission) }))
        #expect(!form.signingOut)
        #expect(form.accountProblem != nil)
        #expect(form.user == "olli")

        let again = form.startSigningOut()
        #expect(again)
        var ran = false
        form.finishedSigningOut(await Result(catchingAsync: { ran = true }))
        #expect(ran)
        #expect(form.accountProblem == nil)
        #expect(form.user == "" && form.password == "")
        #expect(form.address == "https://station.example.org")
    }

    @Test func removingTheStationClearsTheFieldsOrSaysWhyNot() {
        var form = filledForm()
        form.removedStation(Result { throw CocoaError(.fileWriteNoPermission) })
        #expect(form.accountProblem != nil)
        #expect(form.user == "olli")
        form.removedStation(Result {})
        #expect(form.accountProblem == nil)
        #expect(form.user == "")
    }

    @Test func eachRefusalHasItsOwnProblemAndWords() async throws {
        let until = t0.addingTimeInterval(300)
        let lockEnd = Fmt.dateTime(until, in: utc, locale: usEnglish)
        let cases: [(Error, StationSignInProblem, String)] = [
            (StationSignInError.wrongNameOrPassword, .wrongNameOrPassword, "The user name or password is wrong."),
            (
                StationSignInError.locked(until: until), .locked(until: until),
                "This account is locked after repeated wrong passwords until \(lockEnd). Try again then, or ask an admin of the station to unlock it."
            ),
            (
                StationSignInError.locked(until: nil), .locked(until: nil),
                "This account is locked after repeated wrong passwords. Try again later, or ask an admin of the station to unlock it."
            ),
            (StationSignInError.notAllowed(.disabled, detail: "d"), .disabled, "This account is disabled. Ask an admin of the station."),
            (
                StationSignInError.notAllowed(.noPasswordYet, detail: "d"), .noPasswordYet,
                "This account has no password yet. Open the set-up link an admin of the station gave you, choose a password, then sign in here."
            ),
            (
                StationSignInError.notAllowed(.viewer, detail: "d"), .viewer,
                "A viewer cannot upload reads. Ask an admin of the station for the operator role."
            ),
            (StationSignInError.notAllowed(.other, detail: "not today"), .refused("not today"), "The station refused the sign-in: not today"),
            (StationSignInError.unreachable("no route"), .offline, "The station cannot be reached. Check the network and try again."),
            (URLError(.timedOut), .offline, "The station cannot be reached. Check the network and try again."),
            (
                StationSignInError.refused(status: 404, error: "not found", detail: "no such path"), .stationWithoutSignIn,
                "This station does not sign phones in yet. Ask whoever runs it to update it."
            ),
            (
                StationSignInError.refused(status: 400, error: "bad request", detail: "\"device\" names the device"), .refused("\"device\" names the device"),
                "The station refused the sign-in: \"device\" names the device"
            ),
            (StationSignInError.refused(status: 502, error: "HTTP 502", detail: ""), .refused("HTTP 502"), "The station refused the sign-in: HTTP 502"),
            (StationSignInError.badAnswer("no token"), .unreadableAnswer("no token"), "The station's answer could not be read: no token"),
        ]
        for (error, expected, words) in cases {
            let station = FakeSignInService(answer: { throw error })
            var form = filledForm()
            let started = form.startSigningIn()
            let request = try #require(started)
            form.finished(await StationSettingsForm.signIn(request, with: station))
            #expect(form.problem == expected, "\(error)")
            #expect(form.problemText(in: utc, locale: usEnglish) == words)
            #expect(form.password == "", "the password stays after \(error)")
            #expect(!form.signingIn)
            #expect(form.canSignIn == false)
        }
        // Each refusal is worded apart (the two offline ones are one problem).
        #expect(Set(cases.map { $0.1.message(in: utc, locale: usEnglish) }).count == cases.count - 1)
        #expect(StationSignInProblem.keychain("locked").message(in: utc) == "The Keychain refused the change: locked")
        #expect(StationSignInProblem.noUserName.message(in: utc) == "Enter your user name on the station.")
        #expect(StationSignInProblem.noPassword.message(in: utc) == "Enter your password.")
        #expect(StationSignInProblem.plainHTTP.message(in: utc).contains("HTTPS with a certificate"))
        #expect(
            StationSignInProblem.credentialsInAddress.message(in: utc)
                == "Leave the user name and password out of the address; they go in their own fields.")
    }

    @Test func aLockEndsInTheChosenTimeZone() {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let until = t0.addingTimeInterval(300)
        let text = StationSignInProblem.locked(until: until).message(in: tokyo, locale: usEnglish)
        #expect(text.contains(Fmt.dateTime(until, in: tokyo, locale: usEnglish)))
        #expect(!text.contains(Fmt.dateTime(until, in: utc, locale: usEnglish)))
    }

    @Test func theKeychainsItemsSayWhoUploads() throws {
        let identity = StationIdentity(olliSignIn)
        let kept = identity.keychainData
        // The identity kept next to the token never holds the token itself.
        #expect(!String(decoding: kept, as: UTF8.self).contains("ct_7"))
        let token = Data(olliSignIn.token.utf8)
        #expect(StationCredential.from(token: token, identity: kept) == .signedIn(identity))
        #expect(StationCredential.from(token: token, identity: nil) == .pastedToken)
        #expect(StationCredential.from(token: token, identity: Data("{}".utf8)) == .pastedToken)
        #expect(StationCredential.from(token: nil, identity: kept) == StationCredential.signedOut)
        #expect(StationCredential.from(token: Data(), identity: kept) == StationCredential.signedOut)
        #expect(StationCredential.from(token: Data([0xFF, 0xFE]), identity: kept) == StationCredential.signedOut)

        #expect(StationCredential.signedIn(identity).canUpload)
        #expect(StationCredential.pastedToken.canUpload)
        #expect(!StationCredential.signedOut.canUpload)
        #expect(StationCredential.signedIn(identity).uploaderName == "Olli Berg")
        #expect(StationCredential.pastedToken.uploaderName == nil)
    }

    @Test func aPastedTokenStillUploadsAndOffersSignIn() throws {
        #expect(StationAccountSummary(credential: .signedOut, waitingCount: 3) == nil)
        let pasted = try #require(StationAccountSummary(credential: .pastedToken, waitingCount: 3))
        #expect(pasted.title == "Uploading with a token entered before sign-in")
        #expect(pasted.rows.isEmpty)
        #expect(pasted.offersSignIn)
        #expect(pasted.signOutTitle == "Forget the token")
        #expect(pasted.note == "Sign in to upload as yourself: the station then records your name with each read.")
        #expect(
            pasted.waitingNote
                == "Signing out first sends the reads still waiting, if the station can be reached; any left are uploaded by whoever signs in next.")
    }

    @Test func rolesAreNamedAndAnUnknownOneIsShownAsSent() {
        func title(_ role: String) -> String {
            StationIdentity(user: "u", fullName: "U", role: role, site: "s", device: "d").roleTitle
        }
        #expect(["viewer", "operator", "reviewer", "admin", "auditor"].map(title) == ["Viewer", "Operator", "Reviewer", "Admin", "auditor"])
    }

    @Test func theSummaryCountsWhatWaitsAndWhatWasRefused() throws {
        let url = try #require(URL(string: "https://station.example.org"))
        let idle = StationSummary(stationURL: url, waitingCount: 1234, refusedCount: 0, lastProblem: nil, isSending: false, locale: usEnglish)
        #expect(idle.address == "https://station.example.org")
        #expect(idle.waiting == "1,234")
        #expect(idle.refused == nil)
        #expect(idle.uploadTitle == "Upload now")
        #expect(idle.canUpload)
        let sending = StationSummary(stationURL: url, waitingCount: 2, refusedCount: 1, lastProblem: "offline", isSending: true)
        #expect(sending.refused == "1")
        #expect(sending.problem == "offline")
        #expect(sending.uploadTitle == "Uploading…")
        #expect(!sending.canUpload)
        #expect(!StationSummary(stationURL: url, waitingCount: 0, refusedCount: 0, lastProblem: nil, isSending: false).canUpload)
        let signedIn = StationCredential.signedIn(StationIdentity(olliSignIn))
        #expect(StationSummary.settingsValue(stationURL: url, credential: signedIn) == "station.example.org")
        #expect(StationSummary.settingsValue(stationURL: url, credential: .pastedToken) == "station.example.org")
        #expect(StationSummary.settingsValue(stationURL: url, credential: .signedOut) == "Not signed in")
        #expect(StationSummary.settingsValue(stationURL: nil, credential: signedIn) == "None")
    }

    /// Asks for every text of the sign-in (CatalogTests).
    static func wordEverything() {
        let problems: [StationSignInProblem] = [
            .notAnAddress, .plainHTTP, .credentialsInAddress, .noUserName, .noPassword, .badDeviceName, .wrongNameOrPassword, .locked(until: t0),
            .locked(until: nil), .disabled, .noPasswordYet, .viewer, .offline, .stationWithoutSignIn, .refused("x"), .unreadableAnswer("x"), .keychain("x"),
        ]
        for problem in problems { _ = problem.message(in: utc) }
        var form = filledForm()
        _ = form.signInTitle
        _ = form.startSigningIn()
        _ = form.signInTitle
        for role in ["viewer", "operator", "reviewer", "admin"] {
            _ = StationIdentity(user: "u", fullName: "U", role: role, site: "s", device: "d").roleTitle
        }
        for credential in [StationCredential.pastedToken, .signedIn(StationIdentity(olliSignIn))] {
            _ = StationAccountSummary(credential: credential, waitingCount: 1)
        }
        let url = URL(string: "https://station.example.org")!
        _ = StationSummary.settingsValue(stationURL: url, credential: .signedOut)
        _ = StationSummary.settingsValue(stationURL: nil, credential: .signedOut)
        _ = UploadStatus.uploaded(by: "Olli Berg").detail
        var result = UploadQueue.FlushResult()
        result.lastError = .refused(status: 401, error: "unauthorized", detail: "x")
        _ = UploadTexts.problem(after: result)
    }
}
