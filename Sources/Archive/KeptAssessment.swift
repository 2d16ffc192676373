import Foundation

/// The assessment kept with a read (the profile and zone it was judged under, and its
/// verdict), as exports name it.
public struct KeptAssessment: Sendable, Equatable {
    public var readID: Int64
    public var profileName: String
    /// The profile's full JSON as it was (`Profile.fromJSON` reads it back).
    public var profileJSON: String
    /// The zone identifier the read was judged in.
    public var timeZone: String
    public var verdict: String
}

extension Archive {
    /// The newest assessment kept with each read of `loggerID`, by read id.
    public func keptAssessments(loggerID: String) throws -> [Int64: KeptAssessment] {
        enum Column: Int, ArchiveColumns {
            case readID, profileName, profileJSON, timeZone, verdict
            var sqlName: String {
                switch self {
                case .readID: return "read_id"
                case .profileName: return "profile_name"
                case .profileJSON: return "profile_json"
                case .timeZone: return "time_zone"
                case .verdict: return "verdict"
                }
            }
        }
        var kept: [Int64: KeptAssessment] = [:]
        try engine.query(
            "SELECT \(Column.selectList) FROM assessments WHERE logger_id = $1 ORDER BY assessment_id", [.text(loggerID)]
        ) { row in
            let readID = row.int(Column.readID)
            kept[readID] = KeptAssessment(
                readID: readID, profileName: row.text(Column.profileName), profileJSON: row.text(Column.profileJSON),
                timeZone: row.text(Column.timeZone), verdict: row.text(Column.verdict))
        }
        return kept
    }
}
