import Foundation

/// scripts/lib/validate_epcis.py from the test venv: GS1's JSON Schema (read in place from
/// ../shared, docs/epcis.md) with URI and date-time format checking, the reference event
/// hash generator on every `eventID`, and the rules no schema sees.
public enum EPCISValidator {
    public static let schema = "epcis/EPCIS-JSON-Schema.json"

    /// Runs the validator on the documents at `paths`: whether they passed and what it said;
    /// `nil`, after saying so, where GS1's schema is absent (a checkout without ../shared).
    public static func validate(_ paths: [String]) throws -> (passed: Bool, output: String)? {
        let schema = SharedFacts.file(Self.schema)
        guard let schemaURL = schema.url else {
            print("EPCIS validation skipped: \(schema.absent)")
            return nil
        }
        let process = Process()
        process.executableURL = PyHanko.python
        process.arguments = [SharedFacts.repository.appendingPathComponent("scripts/lib/validate_epcis.py").path, schemaURL.path] + paths
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus == 0, output)
    }
}
