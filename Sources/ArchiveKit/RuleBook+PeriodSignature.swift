import Archive
import ColdChain
import Foundation

/// A review to sign: a logger's period `[from, to)`, what signing it means, why.
public struct PeriodSignatureRequest: Sendable {
    public var loggerID: String
    public var meaning: SignatureMeaning
    public var comment: String?
    public var from: Date
    public var to: Date
    /// The profile the signed assessment is judged by; `nil`: the logger's (`RuleBook.profile(for:default:)`).
    public var profile: Profile?
    public var defaultProfile: Profile
    /// The zone the statement is shown in.
    public var timeZone: TimeZone
    /// The browser session the signature is made in (it counts its signatures).
    public var session: StationSession?

    public init(
        loggerID: String, meaning: SignatureMeaning, comment: String?, from: Date, to: Date, profile: Profile? = nil, defaultProfile: Profile,
        timeZone: TimeZone, session: StationSession? = nil
    ) {
        self.loggerID = loggerID
        self.meaning = meaning
        self.comment = comment
        self.from = from
        self.to = to
        self.profile = profile
        self.defaultProfile = defaultProfile
        self.timeZone = timeZone
        self.session = session
    }

    /// What a review may mean: not `acknowledged`, which is an excursion's.
    public static let reviewMeanings: [SignatureMeaning] = [.approved, .reviewed, .rejected]

    /// The check of the meaning and its comment, which needs no archive and no signer.
    /// - Throws: `PeriodSignatureError` `.meaningIsAcknowledgement`, `.commentMissing`.
    public static func check(meaning: SignatureMeaning, comment: String?) throws {
        guard meaning != .acknowledged else { throw PeriodSignatureError.meaningIsAcknowledgement }
        if meaning.needsComment, comment?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ?? true {
            throw PeriodSignatureError.commentMissing(meaning: meaning)
        }
    }

    /// The check of the period: it does not end before it starts. Both ends are included, so
    /// a period of one instant covers the sample taken then (a report's period of a single
    /// sample runs from it to itself, `ReportPeriod`).
    /// - Throws: `PeriodSignatureError.emptyPeriod`.
    public static func check(from: Date, to: Date) throws {
        guard from <= to else { throw PeriodSignatureError.emptyPeriod }
    }
}

/// Why a review was not signed. Each front end words it.
public enum PeriodSignatureError: Error, Sendable, Equatable {
    /// Reviews are signed by reviewers and admins.
    case roleTooLow(signer: StationUser)
    case meaningIsAcknowledgement
    case commentMissing(meaning: SignatureMeaning)
    /// The period ends before it starts.
    case emptyPeriod
    case unknownLogger(loggerID: String)
    /// The logger belongs to no site, so no user may sign for it.
    case loggerHasNoSite(loggerID: String)
    /// The signer is a user of another site than the logger's.
    case otherSite(loggerID: String, signer: StationUser, signerSite: String, loggerSite: StationSite)
}

extension RuleBook {
    /// The site whose users may sign `loggerID`'s periods, checked before a signer is asked
    /// for a password.
    /// - Throws: `PeriodSignatureError` `.unknownLogger`, `.loggerHasNoSite`.
    public static func signingSite(of loggerID: String, accounts: StationStore) throws -> StationSite {
        guard try accounts.summary(loggerID: loggerID) != nil else { throw PeriodSignatureError.unknownLogger(loggerID: loggerID) }
        guard let siteID = try accounts.siteID(ofLogger: loggerID), let site = try accounts.site(id: siteID) else {
            throw PeriodSignatureError.loggerHasNoSite(loggerID: loggerID)
        }
        return site
    }

    /// Keeps `signer`'s signature over the period (docs/accounts.md, "What is signed"): the
    /// statement lists the period's read leaves and its assessment under the profile the
    /// logger is judged by. `signer`'s password was checked by the caller.
    /// - Throws: `PeriodSignatureError`; `ArchiveError(.notFound)` for a period without samples.
    public static func signPeriod(_ request: PeriodSignatureRequest, signer: StationUser, accounts: StationStore) throws -> SignatureRecord {
        guard signer.role >= .reviewer else { throw PeriodSignatureError.roleTooLow(signer: signer) }
        guard request.meaning != .acknowledged else { throw PeriodSignatureError.meaningIsAcknowledgement }
        try PeriodSignatureRequest.check(from: request.from, to: request.to)
        try PeriodSignatureRequest.check(meaning: request.meaning, comment: request.comment)
        let site = try signingSite(of: request.loggerID, accounts: accounts)
        guard signer.siteID == site.id else {
            let theirs = try accounts.site(id: signer.siteID)?.name ?? "#\(signer.siteID)"
            throw PeriodSignatureError.otherSite(loggerID: request.loggerID, signer: signer, signerSite: theirs, loggerSite: site)
        }
        let profile = try request.profile ?? self.profile(for: accounts.summary(loggerID: request.loggerID), default: request.defaultProfile)
        let draft = try PeriodReview.draft(
            store: accounts, loggerID: request.loggerID, site: site, signer: signer, meaning: request.meaning, comment: request.comment,
            from: request.from, to: request.to, profile: profile, timeZone: request.timeZone)
        let kept = try accounts.keepSignature(draft).signature
        if let session = request.session { try accounts.noteSignature(inSession: session) }
        return kept
    }
}
