import Foundation

/// The interpreter for the reference scripts and why it was chosen: $COLDTAP_PYTHON; else
/// the project's `.venv` (`make venv`), looked for from the working directory and from the
/// benchmark binary upwards; else `python3` on PATH.
let benchPython: (path: String, why: String) = {
    if let given = ProcessInfo.processInfo.environment["COLDTAP_PYTHON"], !given.isEmpty {
        return (given, "COLDTAP_PYTHON")
    }
    let starts = [
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent(),
    ]
    for start in starts {
        var directory = start.standardizedFileURL
        while true {
            let python = directory.appendingPathComponent(".venv/bin/python")
            if FileManager.default.isExecutableFile(atPath: python.path) { return (python.path, "the project's .venv") }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { break }
            directory = parent
        }
    }
    return ("python3", "python3 on PATH, as there is no COLDTAP_PYTHON and no .venv; make venv creates one")
}()

/// Says once, on standard error, which Python the references run with.
private let announcedPython: Void = {
    FileHandle.standardError.write(Data("coldtap-bench: references run with \(benchPython.path) (\(benchPython.why))\n".utf8))
}()

/// Runs a reference script with the benchmark interpreter (`benchPython`) and returns the
/// JSON object it prints.
/// - Parameter tool: the reference library's name, for error messages.
/// - Throws: `BenchError.reference` when the script fails or prints something that is not a
///   JSON object of numbers.
func runPythonReference(tool: String, script: URL, arguments: [String]) throws -> [String: Double] {
    _ = announcedPython
    let python = benchPython.path
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
        throw BenchError.reference("\(tool) via \(python): \(message) (run 'make venv', or set COLDTAP_PYTHON to a Python with \(tool))")
    }
    guard let object = try? JSONSerialization.jsonObject(with: outData) as? [String: Double] else {
        throw BenchError.reference("\(tool) printed something unexpected: \(String(decoding: outData, as: UTF8.self))")
    }
    return object
}
