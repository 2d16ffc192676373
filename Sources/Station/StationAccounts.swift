import Archive
import ArchiveKit
import ColdChain
import ColdTapBase
import Foundation
import JSONOutput

/// Named people on the station (docs/accounts.md): a phone's sign-in for its device token,
/// signatures read back, and the password checks every signature shares with the web.
extension Station {
    /// The user `name` when `password` is theirs; every refusal says the same for an unknown
    /// name and a wrong password, and when the account is locked, until when.
    /// - Throws: `HTTPFailure` 401 (wrong or unknown), 423 (locked), 403 (disabled or no password yet).
    func checkPassword(name: String, password: String, purpose: String) throws -> StationUser {
        switch try passwordOutcome(name: name, password: password, purpose: purpose) {
        case .success(let user): return user
        case .failure(.locked(let until)):
            throw HTTPFailure(
                423, "locked", "this account is locked after repeated wrong passwords until \(until.isoUTC); try again then, or ask an admin to reset it.")
        case .failure(.disabled): throw HTTPFailure(403, "forbidden", "this account is disabled.")
        case .failure(.noPasswordYet): throw HTTPFailure(403, "forbidden", "this account has no password yet: open its set-up link first.")
        case .failure(.wrongNameOrPassword): throw HTTPFailure(401, "unauthorized", "the user name or password is wrong.")
        }
    }

    /// The check of a name and password as the record keeps it (`StationStore.checkPassword`):
    /// the user, or why they are refused, for the caller to word.
    func passwordOutcome(name: String, password: String, purpose: String) throws -> Result<StationUser, SignInRefusal> {
        try pool.with { store in
            let outcome = try store.checkPassword(name: name, password: password, purpose: purpose)
            signRecord(store)
            return outcome
        }
    }

    /// The signer of a signature made in `caller`'s name: the session's user, who gives the
    /// password again (and the name too on the session's first signing, 21 CFR 11.200), or,
    /// for an API token, the user named in the request with their password.
    func signer(_ caller: Caller, name: String?, password: String?) throws -> StationUser {
        guard let password, !password.isEmpty else { throw HTTPFailure.badRequest("a signature needs the signer's password again.") }
        let firstInSession = (caller.session?.signatures ?? 0) == 0
        let signerName: String
        if let user = caller.user {
            if firstInSession || name != nil {
                guard let name, name == user.name else {
                    throw HTTPFailure.badRequest("the first signature of a session gives the signer's user name and password; the name must be \(user.name)'s.")
                }
            }
            signerName = user.name
        } else {
            guard let name, !name.isEmpty else { throw HTTPFailure.badRequest("a signature names its signer: \"user\" and \"password\".") }
            signerName = name
        }
        let user = try checkPassword(name: signerName, password: password, purpose: "signature")
        guard user.siteID == caller.site.id else { throw HTTPFailure(401, "unauthorized", "the user name or password is wrong.") }
        return user
    }

    /// `GET /api/v1/loggers/{id}/signatures`: every signature of the logger, oldest first.
    func signatures(loggerID: String) throws -> HTTPResponse {
        let kept = try pool.with { try $0.signatures(loggerID: loggerID) }
        return .json(200, .object([("signatures", .array(kept.map { ArchiveJSON.signature($0) }))]))
    }

    /// Keeps a signed review of `loggerID` over `[from, to)` by `signer`.
    func signReview(
        loggerID: String, signer: StationUser, caller: Caller, meaning: SignatureMeaning, comment: String?, from: Date, to: Date
    ) throws -> SignatureRecord {
        let request = PeriodSignatureRequest(
            loggerID: loggerID, meaning: meaning, comment: comment, from: from, to: to, defaultProfile: configuration.defaultProfile,
            timeZone: configuration.timeZone, session: caller.session)
        let signature: SignatureRecord
        do {
            signature = try pool.with { store -> SignatureRecord in
                let kept = try RuleBook.signPeriod(request, signer: signer, accounts: store)
                signRecord(store)
                return kept
            }
        } catch let error as PeriodSignatureError {
            throw Station.failure(error)
        }
        webhooks.send(
            type: "signature", siteID: caller.site.id, members: [("site", .string(caller.site.name)), ("signature", ArchiveJSON.signature(signature))])
        return signature
    }
}
