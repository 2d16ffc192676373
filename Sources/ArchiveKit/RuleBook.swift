import Archive
import ColdChain
import Foundation
import LoggerFormats

/// The rule book: every use case that changes or judges the record, once, for every front
/// end (the command line, the station). Each takes typed inputs and throws typed errors
/// that the front end words; none of them words anything for a user. The front ends keep
/// parsing, wording, webhooks and transport.
///
/// The use cases live in the files named after them: `RuleBook+Acknowledgement.swift`,
/// `RuleBook+PeriodSignature.swift`, `RuleBook+LoggerReport.swift`, `RuleBook+Reads.swift`,
/// `RuleBook+Lots.swift`.
public enum RuleBook {
    /// The zone excursions are found in when one is looked up by its start (an instant, so
    /// any zone finds the same ones; UTC keeps day boundaries out of it).
    static let utc = TimeZone.utc

    /// The profile a logger is judged under: the one of its newest assessment, else
    /// `defaultProfile` (a logger not assessed yet, or a profile that no longer parses).
    public static func profile(for summary: LoggerSummary?, default defaultProfile: Profile) -> Profile {
        summary?.lastProfileJSON.flatMap { try? Profile.fromJSON(Data($0.utf8)) } ?? defaultProfile
    }

    /// One read judged under `profile`: the assessment every report of a read shows.
    public static func judge(_ log: TemperatureLog, profile: Profile, timeZone: TimeZone) -> Assessment {
        Assessor.assess(log, profile: profile, timeZone: timeZone)
    }

    /// A logger's stitched record judged under `profile`, with the acknowledgements kept.
    public static func judge(_ history: History, profile: Profile, timeZone: TimeZone) -> Assessment {
        Assessor.assess(history.temperatureLog(), profile: profile, timeZone: timeZone, acknowledgements: history.excursionAcknowledgements)
    }

    /// How many excursions of a logger's whole record, under the profile it is judged by, no
    /// acknowledgement names.
    public static func openExcursions(_ summary: LoggerSummary, archive: Archive, defaultProfile: Profile) throws -> Int {
        let history = try archive.history(loggerID: summary.logger.id)
        let assessment = judge(history, profile: profile(for: summary, default: defaultProfile), timeZone: utc)
        return assessment.excursions.filter { $0.acknowledgement == nil }.count
    }

    /// The accounts of an archive that has the station's tables; `nil` for an archive only the
    /// command line has written (it then has no users and no signatures), left as it is.
    public static func existingAccounts(of archive: Archive) throws -> StationStore? {
        try archive.engine.tableExists("users") ? try StationStore(archive: archive) : nil
    }
}
