import Foundation

/// pyHanko, an implementation of PDF signatures that shares nothing with ColdTap's, run from
/// the project's test virtual environment (`make test-venv` installs the pinned version) on a
/// signed PDF through scripts/lib/validate_pdf_signature.py.
public enum PyHanko {
    /// The repository's root, found from this file.
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    public static let python = repository.appendingPathComponent(".venv/bin/python")
    public static let script = repository.appendingPathComponent("scripts/lib/validate_pdf_signature.py")

    /// pyHanko's verdict on one signature, and the signature dictionary's texts as it read them.
    public struct Signature: Decodable, Sendable {
        public var field: String?
        public var reason: String?
        public var name: String?
        public var location: String?
        public var contactInfo: String?
        public var m: String?
        public var subFilter: String?
        /// Why pyHanko could not validate it at all (then the verdict fields are absent).
        public var error: String?
        public var intact: Bool?
        public var valid: Bool?
        public var trusted: Bool?
        public var bottomLine: Bool?
        /// `ENTIRE_FILE`, `ENTIRE_REVISION` or `CONTIGUOUS_BLOCK_FROM_START`.
        public var coverage: String?
        public var mdAlgorithm: String?
        public var signerCommonName: String?
        public var summary: String?
    }

    /// What the script printed: the signatures, or why pyHanko could not read the PDF.
    public struct Report: Decodable, Sendable {
        public var signatures: [Signature]?
        public var error: String?
    }

    /// pyHanko could not be run: the environment is missing or the script failed.
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs pyHanko on `pdf`, trusting only `certificate` (PEM).
    /// - Throws: `Unavailable` when `.venv` has no Python (run `make test-venv`) or the script
    ///   printed no JSON, with what it printed.
    public static func validate(pdf: URL, trusting certificate: URL) throws -> Report {
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw Unavailable(description: "\(python.path) is missing: run make test-venv (it installs the pinned pyHanko into .venv)")
        }
        let process = Process()
        process.executableURL = python
        process.arguments = [script.path, pdf.path, certificate.path]
        // One pipe for both streams, so a chatty standard error can never block the run.
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: output, as: UTF8.self)
        let lastLine = text.split(separator: "\n").last.map(String.init) ?? ""
        guard process.terminationStatus == 0, let report = try? JSONDecoder().decode(Report.self, from: Data(lastLine.utf8)) else {
            throw Unavailable(description: "pyHanko's script exited \(process.terminationStatus) without a verdict:\n\(text)")
        }
        return report
    }
}
