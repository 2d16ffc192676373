import Foundation

/// Runs a reference script with the benchmark interpreter ($COLDTAP_PYTHON, else python3)
/// and returns the JSON object it prints.
/// - Parameter tool: the reference library's name, for error messages.
/// - Throws: `BenchError.reference` when the script fails or prints something that is not a
///   JSON object of numbers.
func runPythonReference(tool: String, script: URL, arguments: [String]) throws -> [String: Double] {
    let python = ProcessInfo.processInfo.environment["COLDTAP_PYTHON"] ?? "python3"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [python, script.path] + arguments
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    let errData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        let message = String(decoding: errData, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        throw BenchError.reference("\(tool) via \(python): \(message) (run 'make venv' and set COLDTAP_PYTHON=.venv/bin/python)")
    }
    guard let object = try? JSONSerialization.jsonObject(with: outData) as? [String: Double] else {
        throw BenchError.reference("\(tool) printed something unexpected: \(String(decoding: outData, as: UTF8.self))")
    }
    return object
}
