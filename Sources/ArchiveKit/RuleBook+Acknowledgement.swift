import Archive
import ColdChain
import Foundation

/// An acknowledgement to keep: which excursion, who, what was done about it.
public struct AcknowledgementRequest: Sendable {
    public static let maximumNameLength = 200
    public static let maximumCommentLength = 4000

    public var loggerID: String
    /// The excursion's start as the person saw it (matched within half an interval).
    public var excursionStart: Date
    /// The typed name of who acknowledges; a signer's printed name takes its place.
    public var by: String?
    public var comment: String?
    /// A follow-up of an excursion acknowledged before.
    public var again: Bool
    /// The person signing it with their password, checked by the caller; `nil`: a typed name,
    /// allowed only before the archive has users.
    public var signer: StationUser?
    /// Who typed the name, as the record names a command-line user (`os:ACCOUNT`): kept
    /// with a typed name, which is marked unsigned in the record.
    public var typedOnAccount: String?
    /// The browser session the signature is made in (it counts its signatures).
    public var session: StationSession?
    /// The profile the excursion is looked up under; `nil`: the logger's (`RuleBook.profile(for:default:)`).
    public var profile: Profile?
    public var defaultProfile: Profile
    /// The zone a signature's statement is shown in.
    public var timeZone: TimeZone

    public init(
        loggerID: String, excursionStart: Date, by: String?, comment: String?, again: Bool = false, signer: StationUser? = nil,
        session: StationSession? = nil, typedOnAccount: String? = nil, profile: Profile? = nil, defaultProfile: Profile, timeZone: TimeZone
    ) {
        self.loggerID = loggerID
        self.excursionStart = excursionStart
        self.by = by
        self.comment = comment
        self.again = again
        self.signer = signer
        self.session = session
        self.typedOnAccount = typedOnAccount
        self.profile = profile
        self.defaultProfile = defaultProfile
        self.timeZone = timeZone
    }

    /// The name and comment as kept (trimmed), or why they cannot be: the check a front end
    /// may also make before it opens the archive.
    /// - Throws: `AcknowledgementError` `.nameMissing`, `.nameTooLong`, `.commentMissing`, `.commentTooLong`.
    public static func checked(by: String?, comment: String?) throws -> (by: String, comment: String) {
        let by = by?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !by.isEmpty else { throw AcknowledgementError.nameMissing }
        guard by.count <= maximumNameLength else { throw AcknowledgementError.nameTooLong(maximum: maximumNameLength) }
        let comment = comment?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !comment.isEmpty else { throw AcknowledgementError.commentMissing }
        guard comment.count <= maximumCommentLength else { throw AcknowledgementError.commentTooLong(maximum: maximumCommentLength) }
        return (by, comment)
    }

    /// The name kept for a typed acknowledgement made on `account`: the name, marked as no
    /// signature, with the account that typed it, so the record shows both wherever it is shown.
    public static func keptTypedName(_ name: String, account: String) -> String {
        "\(name) (unsigned, typed by \(account))"
    }
}

/// Why an acknowledgement was not kept. Each front end words it.
public enum AcknowledgementError: Error, Sendable, Equatable {
    case nameMissing
    case nameTooLong(maximum: Int)
    case commentMissing
    case commentTooLong(maximum: Int)
    /// The archive has users: an acknowledgement is the signature of one of them, not a typed name.
    case signatureNeeded
    /// Acknowledging needs the operator role or above.
    case roleTooLow(signer: StationUser)
    /// No excursion of the logger, under `profile`, starts near `start`; `known` are the
    /// starts of those it has.
    case noSuchExcursion(loggerID: String, start: Date, profile: Profile, known: [Date])
    /// The excursion was acknowledged before (`earlier`), and the request is no follow-up.
    case alreadyAcknowledged(loggerID: String, excursionStart: Date, earlier: ExcursionAcknowledgement)
    /// A signed acknowledgement names a logger of no site, or of another site than the signer's.
    case loggerHasNoSite(loggerID: String)
    case otherSite(loggerID: String, signer: StationUser, signerSite: String, loggerSite: StationSite)
}

extension RuleBook {
    /// Keeps an acknowledgement of the excursion of `request.loggerID` that starts near
    /// `request.excursionStart`, under the profile the logger is judged by. With a signer it
    /// is their electronic signature (meaning `acknowledged`) over the excursion, kept with
    /// the acknowledgement in one transaction, and the name kept is theirs.
    /// Once the archive has users, every acknowledgement is a user's signature; before,
    /// a typed name is kept, marked unsigned.
    /// - Parameter accounts: the archive's accounts when the caller has them open; else they
    ///   are read when the archive has the station's tables.
    /// - Throws: `AcknowledgementError`; `ArchiveError` from the archive (an unknown logger).
    public static func acknowledgeExcursion(
        _ request: AcknowledgementRequest, archive: Archive, accounts: StationStore? = nil
    ) throws -> Acknowledgement {
        let (by, comment) = try AcknowledgementRequest.checked(by: request.signer?.fullName ?? request.by, comment: request.comment)
        let accounts = try accounts ?? existingAccounts(of: archive)
        if request.signer == nil, try accounts?.hasUsers() == true { throw AcknowledgementError.signatureNeeded }
        if let signer = request.signer, signer.role < .operator { throw AcknowledgementError.roleTooLow(signer: signer) }
        let loggerID = request.loggerID
        let history = try archive.history(loggerID: loggerID)
        let profile = try request.profile ?? self.profile(for: archive.loggerSummary(loggerID), default: request.defaultProfile)
        let assessment = judge(history, profile: profile, timeZone: utc)
        guard let excursion = assessment.excursion(startingNear: request.excursionStart, interval: history.interval) else {
            throw AcknowledgementError.noSuchExcursion(
                loggerID: loggerID, start: request.excursionStart, profile: profile, known: assessment.excursions.map(\.start))
        }
        if !request.again, let earlier = excursion.acknowledgement {
            throw AcknowledgementError.alreadyAcknowledged(loggerID: loggerID, excursionStart: excursion.start, earlier: earlier)
        }
        guard let signer = request.signer, let accounts else {
            let kept = request.typedOnAccount.map { AcknowledgementRequest.keptTypedName(by, account: $0) } ?? by
            return try archive.acknowledge(loggerID: loggerID, excursionStart: excursion.start, by: kept, comment: comment)
        }
        let site = try loggerSite(loggerID, signer: signer, accounts: accounts)
        let draft = try PeriodReview.draft(
            store: accounts, loggerID: loggerID, site: site, signer: signer, meaning: .acknowledged, comment: comment, subject: .acknowledgement,
            from: excursion.start, to: excursion.end, profile: profile, timeZone: request.timeZone)
        let kept = try accounts.keepSignature(draft, acknowledging: excursion.start)
        if let session = request.session { try accounts.noteSignature(inSession: session) }
        guard let ack = kept.acknowledgement else { throw ArchiveError(.engine, "the signed acknowledgement was not kept.") }
        return ack
    }

    /// Whether an acknowledgement on `archive` must be a user's signature: once it has users.
    public static func acknowledgementsAreSigned(archive: Archive) throws -> Bool {
        try existingAccounts(of: archive)?.hasUsers() ?? false
    }

    /// The site of the logger a signer signs for: theirs, or the refusal.
    static func loggerSite(_ loggerID: String, signer: StationUser, accounts: StationStore) throws -> StationSite {
        guard let siteID = try accounts.siteID(ofLogger: loggerID), let site = try accounts.site(id: siteID) else {
            throw AcknowledgementError.loggerHasNoSite(loggerID: loggerID)
        }
        guard signer.siteID == site.id else {
            let theirs = try accounts.site(id: signer.siteID)?.name ?? "#\(signer.siteID)"
            throw AcknowledgementError.otherSite(loggerID: loggerID, signer: signer, signerSite: theirs, loggerSite: site)
        }
        return site
    }
}
