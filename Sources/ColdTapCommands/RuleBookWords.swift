import Archive
import ArchiveKit
import ColdTapBase
import Foundation

/// The rule book's refusals (ArchiveKit's `RuleBook`) in the command line's words: each
/// typed error as the error and sentence a command exits with.
enum RuleBookWords {
    /// An acknowledgement refused, as `coldtap ack` says it.
    static func error(_ error: AcknowledgementError) -> CommandError {
        switch error {
        case .nameMissing: return CommandError.usage("say who acknowledges with --by NAME.")
        case .nameTooLong(let maximum): return CommandError.usage("--by names who acknowledges in at most \(maximum) characters.")
        case .commentMissing: return CommandError.usage("say why with --comment TEXT (what was done about the excursion).")
        case .commentTooLong(let maximum): return CommandError.usage("--comment says what was done in at most \(maximum) characters.")
        case .signatureNeeded:
            return CommandError.usage(
                "this archive has users, so an acknowledgement is a user's signature: give --user NAME (and the password at the prompt or with --password-stdin) instead of --by."
            )
        case .roleTooLow(let signer):
            return CommandError(
                .noPermission,
                "\(signer.name) is a \(signer.role.rawValue); acknowledging needs the operator role or above ('coldtap user role \(signer.name) --role operator'). Nothing was kept."
            )
        case .noSuchExcursion(let loggerID, let start, let profile, let known):
            return CommandError.usage(
                "\(loggerID) has no excursion outside \(profile.excursionBand) (\(profile.name)) starting at \(start.isoUTC); "
                    + (known.isEmpty ? "it has none." : "its excursions start at \(known.map(\.isoUTC).joined(separator: ", ")).")
            )
        case .alreadyAcknowledged(let loggerID, let start, let earlier):
            return CommandError.usage(
                "the excursion of \(loggerID) from \(start.isoUTC) was acknowledged already, by \(earlier.by) at \(earlier.at.isoUTC) (\"\(earlier.comment.prefix(80))\"); add --again to record a follow-up."
            )
        case .loggerHasNoSite(let loggerID):
            return noSite(loggerID)
        case .otherSite(let loggerID, let signer, let signerSite, let loggerSite):
            return CommandError(
                .noPermission,
                "\(signer.name) is a user of site '\(signerSite)', and \(loggerID) belongs to site '\(loggerSite.name)'. Nothing was acknowledged.")
        }
    }

    /// A review refused, as `coldtap review` says it.
    static func error(_ error: PeriodSignatureError) -> CommandError {
        switch error {
        case .roleTooLow(let signer):
            return CommandError(
                .noPermission,
                "\(signer.name) is a\(signer.role == .operator ? "n" : "") \(signer.role.rawValue); signing a review needs the reviewer or admin role ('coldtap user role \(signer.name) --role reviewer'). Nothing was signed."
            )
        case .meaningIsAcknowledgement:
            let allowed = PeriodSignatureRequest.reviewMeanings.map(\.rawValue).joined(separator: ", ")
            return CommandError.usage(
                "--meaning must be one of \(allowed), not '\(SignatureMeaning.acknowledged.rawValue)' (acknowledged is an excursion's, not a review's).")
        case .commentMissing(let meaning):
            return CommandError.usage("a review meaning \(meaning.rawValue) says why: give --comment TEXT.")
        case .emptyPeriod:
            return CommandError.usage("--from must not be after --to.")
        case .unknownLogger(let loggerID):
            return ArchiveAccess.commandError(ArchiveError(.notFound, "the archive holds no logger '\(loggerID)'.", hint: .listLoggers(count: nil)))
        case .loggerHasNoSite(let loggerID):
            return noSite(loggerID)
        case .otherSite(let loggerID, let signer, let signerSite, let loggerSite):
            return CommandError(
                .noPermission, "\(signer.name) is a user of site '\(signerSite)', and \(loggerID) belongs to site '\(loggerSite.name)'. Nothing was signed.")
        }
    }

    static func noSite(_ loggerID: String) -> CommandError {
        CommandError(
            .failure, "\(loggerID) belongs to no site (a logger joins the site that first uploads it), so no user of a site can sign its period.")
    }
}
