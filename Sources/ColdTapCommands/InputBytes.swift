import Foundation

/// Reads the bytes a command works on from a file or standard input, as raw bytes or as hex
/// text. Shared by every command that takes a data FILE (`ndef decode`, `decode`, `tag`, ...).
///
/// Hex text is two hex digits per byte, optionally separated by spaces, tabs, newlines,
/// colons or commas, each group optionally prefixed with `0x` (`D1 01 05`, `d1:01:05`,
/// `0xD1, 0x01, 0x05` and `d10105` all give the same three bytes). A `0x` group with one
/// digit is one byte (`0x5` = 05).
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
        case .auto: return looksLikeHex(content) ? try parseHex(content, name: name) : content
        }
    }

    /// True when `content` consists only of hex digits, `x`/`X`, whitespace, `:` and `,`,
    /// with at least one hex digit.
    public static func looksLikeHex(_ content: Data) -> Bool {
        var sawDigit = false
        for byte in content {
            if hexValue(byte) != nil {
                sawDigit = true
            } else if !isSeparator(byte) && byte != UInt8(ascii: "x") && byte != UInt8(ascii: "X") {
                return false
            }
        }
        return sawDigit
    }

    /// Decodes hex text (see the type's documentation for the accepted forms).
    /// - Parameter name: how to name the input in an error message.
    /// - Throws: `CommandError` (`.dataError`) naming the 1-based character position of the
    ///   first bad character or of a group with an odd number of digits.
    public static func parseHex(_ content: Data, name: String = "the input") throws -> Data {
        let text = Array(content)
        var out = Data()
        out.reserveCapacity(text.count / 2)
        var index = 0
        while index < text.count {
            if isSeparator(text[index]) {
                index += 1
                continue
            }
            let groupStart = index
            var prefixed = false
            if text[index] == UInt8(ascii: "0"), index + 1 < text.count,
               text[index + 1] == UInt8(ascii: "x") || text[index + 1] == UInt8(ascii: "X") {
                prefixed = true
                index += 2
            }
            var digits: [UInt8] = []
            while index < text.count, !isSeparator(text[index]) {
                guard let value = hexValue(text[index]) else {
                    throw CommandError.data("\(name) is not valid hex: unexpected character at position \(index + 1). Give raw bytes or hex digits separated by spaces, colons or newlines.")
                }
                digits.append(value)
                index += 1
            }
            if prefixed && digits.isEmpty {
                throw CommandError.data("\(name) is not valid hex: '0x' without digits at position \(groupStart + 1).")
            }
            if digits.count % 2 == 1 {
                guard prefixed else {
                    throw CommandError.data("\(name) is not valid hex: the group at position \(groupStart + 1) has an odd number of digits. Write two digits per byte.")
                }
                digits.insert(0, at: 0)
            }
            var pair = 0
            while pair < digits.count {
                out.append(digits[pair] << 4 | digits[pair + 1])
                pair += 2
            }
        }
        return out
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ",")
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
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
