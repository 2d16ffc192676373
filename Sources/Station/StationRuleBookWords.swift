import Archive
import ArchiveKit
import ColdTapBase
import Foundation

/// The rule book's refusals (ArchiveKit's `RuleBook`) in the station's words: each typed
/// error as the status and sentence the API and the pages answer with.
extension Station {
    /// An acknowledgement refused by the rule book, in the API's words.
    static func failure(_ error: AcknowledgementError) -> HTTPFailure {
        switch error {
        case .nameMissing, .nameTooLong:
            return HTTPFailure.badRequest("\"by\" must name who acknowledges (1 to 200 characters).")
        case .commentMissing, .commentTooLong:
            return HTTPFailure.badRequest("\"comment\" must say what was done (1 to 4000 characters).")
        case .signatureNeeded:
            return HTTPFailure.badRequest("a signature names its signer: \"user\" and \"password\".")
        case .roleTooLow(let signer):
            return HTTPFailure(403, "forbidden", "acknowledging needs the operator role or above; \(signer.name) is a \(signer.role.rawValue).")
        case .noSuchExcursion(let loggerID, let start, let profile, let known):
            return HTTPFailure(
                422, "no such excursion",
                "\(loggerID) has no excursion (\(profile.name)) starting at \(start.isoUTC); "
                    + (known.isEmpty ? "it has none." : "its excursions start at \(known.map(\.isoUTC).joined(separator: ", "))."))
        case .alreadyAcknowledged(let loggerID, let start, let earlier):
            return HTTPFailure(
                409, "already acknowledged",
                "the excursion of \(loggerID) from \(start.isoUTC) was acknowledged by \(earlier.by) at \(earlier.at.isoUTC); send \"again\": true to record a follow-up."
            )
        case .loggerHasNoSite, .otherSite:
            // The route answers only for a logger of the caller's site, whose users sign.
            return HTTPFailure(401, "unauthorized", "the user name or password is wrong.")
        }
    }

    /// A review refused by the rule book, in the API's words.
    static func failure(_ error: PeriodSignatureError) -> any Error {
        switch error {
        case .roleTooLow(let signer):
            return HTTPFailure(403, "forbidden", "reviews are signed by reviewers and admins; \(signer.name) is a \(signer.role.rawValue).")
        case .meaningIsAcknowledgement:
            return HTTPFailure.badRequest("a review means reviewed, approved or rejected (acknowledged is for excursions).")
        case .emptyPeriod:
            return HTTPFailure.badRequest("a review's period must not end before it starts.")
        case .commentMissing(let meaning):
            // Answered as the archive's refusal of such a signature always was (422).
            return ArchiveError(.invalidRead, "a signature meaning \(meaning.rawValue) says why in a comment.")
        case .unknownLogger:
            return Station.noSuchLogger
        case .loggerHasNoSite, .otherSite:
            // The route answers only for a logger of the caller's site, whose users sign.
            return HTTPFailure(401, "unauthorized", "the user name or password is wrong.")
        }
    }
}
