import ColdChain
import Foundation
import LoggerFormats

/// What `coldtap read` (and `demo`) print and write for one logger read.
struct LoggerOutput {
    var json: Bool
    var csv: Bool
    var outDirectory: String?
    var profileName: String?

    /// Checks the options before waiting for a tag, so that a typo does not cost a read.
    /// - Throws: `CommandError.usage` for an unknown profile.
    func validate() throws {
        _ = try profile()
    }

    /// The profile given with `--profile` (a built-in name or a JSON file), or the 2–8 °C
    /// vaccine-fridge profile.
    func profile() throws -> Profile {
        guard let profileName else { return Profile.vaccineFridge }
        if let builtIn = Profile.builtIn(named: profileName) { return builtIn }
        guard FileManager.default.fileExists(atPath: profileName) else {
            throw CommandError.usage("--profile '\(profileName)' is neither a built-in profile (\(Profile.builtIn.map(\.name).joined(separator: ", "))) nor a profile file.")
        }
        do {
            return try Profile.fromJSON(try Data(contentsOf: URL(fileURLWithPath: profileName)))
        } catch let error as ProfileError {
            throw CommandError.data("the profile '\(profileName)' is invalid: \(error).")
        }
    }

    /// Prints the log (JSON, CSV or text with the verdict) and writes the files of `--out`.
    func emit(_ outcome: LoggerReadOutcome, source: String, subdirectory: String?, console: Console) throws {
        let log = outcome.log
        if json {
            console.print(LogExport.json(log).serialized())
        } else if csv {
            console.write(Data(LogExport.csv(log).utf8))
        } else {
            let assessment = Assessor.assess(log, profile: try profile(), timeZone: TimeZone(identifier: "UTC") ?? .gmt)
            console.print(LogExport.text(log, input: source))
            console.print("Verdict (\(assessment.profile.name)): \(assessment.verdict.rawValue)")
            for reason in assessment.reasons { console.print("  " + reason) }
        }
        if let outDirectory {
            let directory = subdirectory.map { (outDirectory as NSString).appendingPathComponent($0) } ?? outDirectory
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw CommandError(.failure, "cannot create '\(directory)': \(error.localizedDescription).")
            }
            let csvPath = (directory as NSString).appendingPathComponent("samples.csv")
            let jsonPath = (directory as NSString).appendingPathComponent("log.json")
            try LoggerRead.write(Data(LogExport.csv(log).utf8), to: csvPath)
            try LoggerRead.write(Data((LogExport.json(log).serialized() + "\n").utf8), to: jsonPath)
            console.error("Wrote \(csvPath) and \(jsonPath).")
        }
    }
}
