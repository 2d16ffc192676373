import ColdTapKit
import Foundation

/// Reads the bytes a command works on from a file or standard input, as raw bytes or as hex
/// text (ColdTapKit's `HexText`). Shared by every command that takes a data FILE (`ndef
/// decode`, `decode`, `tag`, ...).
public enum InputBytes {
    /// How to interpret the file's content.
    public enum Format: Sendable, Equatable {
        /// Hex text when every byte is a hex digit, separator or `x` and there is at least one
        /// digit (an NDEF message or tag dump in binary essentially always has other bytes);
        /// raw bytes otherwise.
        case auto
        /// The bytes as they are.
        case raw
        /// Hex text; anything else is an error.
        case hex
    }

    /// Reads `path` (`-` means standard input) and returns the bytes it holds.
    /// - Throws: `CommandError` with status `.failure` when the file cannot be read, and
    ///   `.dataError` when hex text is malformed (the message names the character position).
    public static func read(_ path: String, console: Console, format: Format = .auto) throws -> Data {
        let content: Data
        if path == "-" {
            content = console.readStandardInput()
        } else {
            content = try readFile(path)
        }
        let name = path == "-" ? "standard input" : "'\(path)'"
        switch format {
        case .raw: return content
        case .hex: return try parseHex(content, name: name)
        case .auto: return HexText.looksLikeHex(content) ? try parseHex(content, name: name) : content
        }
    }

    /// Hex text decoded, its error in the command line's terms.
    /// - Throws: `CommandError` (`.dataError`) naming the character position.
    public static func parseHex(_ content: Data, name: String = "the input") throws -> Data {
        do {
            return try HexText.parseHex(content, name: name)
        } catch let error as InputError {
            throw CommandError(error)
        }
    }

    /// Reads a whole file through a file handle, so that pipes and process substitutions
    /// (`<(...)`, `/dev/stdin`) work as well as regular files.
    /// - Throws: `CommandError` with status `.failure` naming the path and the reason.
    public static func readFile(_ path: String) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandError(.failure, "Cannot read '\(path)': no such file. Check the path.")
        }
        guard !isDirectory.boolValue else {
            throw CommandError(.failure, "Cannot read '\(path)': it is a directory. Give a file.")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CommandError(.failure, "Cannot read '\(path)': permission denied. Check the permissions.")
        }
        defer { try? handle.close() }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw CommandError(.failure, "Cannot read '\(path)': \(reason(error)).")
        }
    }

    private static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain && nsError.code == NSFileReadNoSuchFileError { return "no such file" }
        if nsError.domain == NSCocoaErrorDomain && nsError.code == NSFileReadNoPermissionError { return "permission denied" }
        return nsError.localizedDescription
    }
}
