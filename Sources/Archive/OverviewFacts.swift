import ColdChain
import Foundation
import LoggerFormats

/// Whether a logger's last 24 hours wait for someone: the overview's review filter. Signed
/// reviews of periods will be a state of their own here.
public enum ReviewState: String, Sendable, CaseIterable {
    /// An excursion of its last 24 hours is not acknowledged yet.
    case attention
    /// Its last 24 hours had excursions, and each is acknowledged.
    case acknowledged
    /// Its last 24 hours had no excursion.
    case clear
}

/// What the station's overview shows of one logger and sorts, counts and filters its site
/// by: its last 24 hours of samples (back from its newest) judged under the profile and time
/// zone of its newest assessment, with the excursions acknowledged. A derived row of the
/// station's table `logger_overview`, never a leaf: the key (generation, newest read,
/// newest acknowledgement) says which archive it was computed from; a row whose key is not
/// the archive's now is computed again before it is shown, and `archive verify` computes
/// every current row again and compares (docs/archive-record.md).
public struct OverviewFacts: Sendable, Equatable {
    public var loggerID: String
    /// The generation of samples judged.
    public var generation: Int64
    /// The logger's newest read id, 0 for none.
    public var readID: Int64
    /// The logger's newest acknowledgement id, 0 for none.
    public var ackID: Int64
    /// The newest read time (ms).
    public var lastRead: Int64?
    /// The newest sample's time in `generation` (ms): where the 24 hours end.
    public var lastSample: Int64?
    /// `nil`: not assessed (no assessment kept to take a profile from).
    public var verdict: String?
    public var excursions: Int64
    public var openExcursions: Int64
    /// The start of the oldest excursion not acknowledged (ms).
    public var openSince: Int64?
    public var review: ReviewState

    /// Whether both were computed from the same archive: generation, newest read, newest acknowledgement.
    public func sameKey(as other: OverviewFacts) -> Bool {
        generation == other.generation && readID == other.readID && ackID == other.ackID
    }

    /// The fields in which `other` differs, by column name.
    func differences(from other: OverviewFacts) -> [String] {
        var names: [String] = []
        if lastRead != other.lastRead { names.append("last_read_ms") }
        if lastSample != other.lastSample { names.append("last_sample_ms") }
        if verdict != other.verdict { names.append("verdict") }
        if excursions != other.excursions { names.append("excursions") }
        if openExcursions != other.openExcursions { names.append("open_excursions") }
        if openSince != other.openSince { names.append("open_since_ms") }
        if review != other.review { names.append("review") }
        return names
    }

    var values: [SQLValue] {
        [
            .text(loggerID), .int(generation), .int(readID), .int(ackID), .optional(lastRead), .optional(lastSample), .optional(verdict),
            .int(excursions), .int(openExcursions), .optional(openSince), .text(review.rawValue),
        ]
    }

    /// Inserts the row or replaces the one of its logger.
    static var upsert: String {
        let names = Column.allCases.map(\.sqlName)
        let updates = names.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return "INSERT INTO logger_overview (\(names.joined(separator: ", "))) VALUES (\((1...names.count).map { "$\($0)" }.joined(separator: ", "))) "
            + "ON CONFLICT (logger_id) DO UPDATE SET \(updates) "
            // Never back to an older key: a station judging from an older snapshot must not
            // undo a newer row that a site's watermark already counts as current.
            + "WHERE logger_overview.generation <= excluded.generation AND logger_overview.read_id <= excluded.read_id "
            + "AND logger_overview.ack_id <= excluded.ack_id"
    }

    /// The judgement of a logger's last 24 hours, the same ColdChain judgement as everywhere:
    /// the samples as a log of their own (gaps between reads count as unknown time), its
    /// excursions matched with the acknowledgements kept; the record's verdict over those
    /// hours, as the logger page judges the period it shows, not the newest read's alone.
    /// - Parameters:
    ///   - times: seconds since 1970, oldest first; `values` °C, NaN where missing or flagged.
    static func judgeDay(
        times: [Double], values: [Double], format: String, newest: Date, profile: Profile, timeZone: TimeZone, acknowledged: [Date]
    ) -> Assessment {
        let dayLog = TemperatureLog(
            format: TemperatureLog.Format(name: format),
            samples: zip(times, values).map { time, value in
                TemperatureLog.Sample(time: Date(timeIntervalSince1970: time), temperature: value.isFinite ? value : nil)
            },
            interval: medianStep(times), timeBase: .loggerHeader, integrity: TemperatureLog.Integrity(status: .unverified, detail: ""),
            readTime: newest)
        let acknowledgements = acknowledged.map { ExcursionAcknowledgement(excursionStart: $0, by: "", at: $0) }
        return Assessor.assess(dayLog, profile: profile, timeZone: timeZone, acknowledgements: acknowledgements)
    }

    /// The median step between `times` (0 for fewer than two).
    public static func medianStep(_ times: [Double]) -> Double {
        guard times.count > 1 else { return 0 }
        var steps = zip(times.dropFirst(), times).map { $0 - $1 }
        steps.sort()
        return steps[steps.count / 2]
    }
}

extension OverviewFacts {
    /// A `logger_overview` row.
    enum Column: Int, ArchiveColumns {
        case loggerID, generation, readID, ackID, lastRead, lastSample, verdict, excursions, openExcursions, openSince, review

        var sqlName: String {
            switch self {
            case .loggerID: return "logger_id"
            case .generation: return "generation"
            case .readID: return "read_id"
            case .ackID: return "ack_id"
            case .lastRead: return "last_read_ms"
            case .lastSample: return "last_sample_ms"
            case .verdict: return "verdict"
            case .excursions: return "excursions"
            case .openExcursions: return "open_excursions"
            case .openSince: return "open_since_ms"
            case .review: return "review"
            }
        }
    }

    init(row: any ArchiveRow) {
        self.init(
            loggerID: row.text(Column.loggerID), generation: row.int(Column.generation), readID: row.int(Column.readID),
            ackID: row.int(Column.ackID), lastRead: row.optionalInt(Column.lastRead), lastSample: row.optionalInt(Column.lastSample),
            verdict: row.optionalText(Column.verdict), excursions: row.int(Column.excursions), openExcursions: row.int(Column.openExcursions),
            openSince: row.optionalInt(Column.openSince), review: ReviewState(rawValue: row.text(Column.review)) ?? .attention)
    }
}

extension Archive {
    /// The overview's facts of `loggerID` as the archive holds it now, inside the caller's
    /// read transaction.
    /// - Parameter profiles: profiles already read, by their kept text (a site's loggers share a few).
    func overviewFacts(loggerID: String, generation: Int64, profiles: inout [String: Profile?]) throws -> OverviewFacts {
        /// What the logger's row needs, in one round trip.
        enum Newest: Int, ArchiveColumns {
            case format, readID, readTime, ackID, lastSample, verdict, profileJSON, timeZone

            var sqlName: String {
                switch self {
                case .format: return "(SELECT format FROM loggers WHERE logger_id = $1)"
                case .readID: return "(SELECT MAX(read_id) FROM reads WHERE logger_id = $1)"
                case .readTime: return "(SELECT MAX(read_time_ms) FROM reads WHERE logger_id = $1)"
                case .ackID: return "(SELECT MAX(ack_id) FROM acknowledgements WHERE logger_id = $1)"
                case .lastSample: return "(SELECT MAX(last_ms) FROM sample_blocks WHERE logger_id = $1 AND generation = $2)"
                case .verdict: return "(SELECT verdict FROM assessments WHERE logger_id = $1 ORDER BY assessment_id DESC LIMIT 1)"
                case .profileJSON: return "(SELECT profile_json FROM assessments WHERE logger_id = $1 ORDER BY assessment_id DESC LIMIT 1)"
                case .timeZone: return "(SELECT time_zone FROM assessments WHERE logger_id = $1 ORDER BY assessment_id DESC LIMIT 1)"
                }
            }
        }
        var format = "", keptVerdict: String?, profileJSON: String?, zone: String?
        var facts = OverviewFacts(
            loggerID: loggerID, generation: generation, readID: 0, ackID: 0, lastRead: nil, lastSample: nil, verdict: nil, excursions: 0,
            openExcursions: 0, openSince: nil, review: .clear)
        try engine.query("SELECT \(Newest.selectList)", [.text(loggerID), .int(generation)]) { row in
            format = row.optionalText(Newest.format) ?? ""
            facts.readID = row.optionalInt(Newest.readID) ?? 0
            facts.lastRead = row.optionalInt(Newest.readTime)
            facts.ackID = row.optionalInt(Newest.ackID) ?? 0
            facts.lastSample = row.optionalInt(Newest.lastSample)
            keptVerdict = row.optionalText(Newest.verdict)
            profileJSON = row.optionalText(Newest.profileJSON)
            zone = row.optionalText(Newest.timeZone)
        }
        guard let newest = facts.lastSample else {
            // No sample to judge: the newest read's own verdict, as its summary gives it.
            facts.verdict = keptVerdict
            return facts
        }
        guard let profileJSON else { return facts }
        let profile: Profile
        if let known = profiles[profileJSON] {
            guard let known else { return facts }
            profile = known
        } else {
            let read = try? Profile.fromJSON(Data(profileJSON.utf8))
            profiles[profileJSON] = read
            guard let read else { return facts }
            profile = read
        }
        var acknowledged: [Date] = []
        try engine.query("SELECT excursion_start_ms FROM acknowledgements WHERE logger_id = $1", [.text(loggerID)]) {
            acknowledged.append(Date(milliseconds: $0.int(0)))
        }
        var times: [Double] = [], values: [Double] = []
        for sample in try storedSamples(loggerID: loggerID, generation: generation, from: newest - 86_400_000, to: newest) {
            times.append(Double(sample.time) / 1000)
            values.append(sample.flags.isEmpty ? sample.temperature ?? .nan : .nan)
        }
        let assessment = OverviewFacts.judgeDay(
            times: times, values: values, format: format, newest: Date(milliseconds: newest), profile: profile,
            timeZone: zone.flatMap(TimeZone.init(identifier:)) ?? .gmt, acknowledged: acknowledged)
        let open = assessment.excursions.filter { $0.acknowledgement == nil }
        facts.verdict = assessment.verdict.rawValue
        facts.excursions = Int64(assessment.excursions.count)
        facts.openExcursions = Int64(open.count)
        facts.openSince = open.map(\.start).min()?.milliseconds
        facts.review = open.isEmpty ? (assessment.excursions.isEmpty ? .clear : .acknowledged) : .attention
        return facts
    }

    /// Every `logger_overview` row whose key is the archive's now, computed again and compared
    /// (a row of an older key is computed again before the overview shows it).
    func overviewFactsProblems() throws -> [String] {
        guard try engine.tableExists("logger_overview") else { return [] }
        var kept: [OverviewFacts] = []
        try engine.query("SELECT \(OverviewFacts.Column.selectList) FROM logger_overview ORDER BY logger_id", []) { kept.append(OverviewFacts(row: $0)) }
        let generation = Int64(try currentGeneration())
        var profiles: [String: Profile?] = [:]
        var problems: [String] = []
        for row in kept {
            let again = try overviewFacts(loggerID: row.loggerID, generation: generation, profiles: &profiles)
            guard again.sameKey(as: row) else { continue }
            let fields = row.differences(from: again)
            guard !fields.isEmpty else { continue }
            problems.append(
                "logger \(row.loggerID): its overview row (derived) says \(row.verdict ?? "not assessed") with \(row.openExcursions) open excursion(s), but judging its last 24 hours again gives \(again.verdict ?? "not assessed") with \(again.openExcursions) — it differs in \(fields.joined(separator: ", ")); the row was edited, or the rules changed"
            )
        }
        // A site's watermark says all its loggers' rows are current: a missing row would
        // never be made again.
        if try engine.tableExists("overview_watermarks") {
            try engine.query(
                """
                SELECT s.logger_id FROM site_loggers s JOIN overview_watermarks w ON w.site_id = s.site_id
                LEFT JOIN logger_overview f ON f.logger_id = s.logger_id WHERE f.logger_id IS NULL ORDER BY s.logger_id
                """, []
            ) { row in
                problems.append(
                    "logger \(row.text(0)): its site's overview counts its row (derived) as current, but there is none; it was removed (delete the site's row of overview_watermarks to have every row judged again)"
                )
            }
        }
        return problems
    }
}
