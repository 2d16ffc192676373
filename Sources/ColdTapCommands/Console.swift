import ColdTapBase
import Foundation
import NFCTags

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command writes. The real one writes to the process's stdout/stderr; tests use
/// a capturing one and read back what a user would have seen.
public final class Console: @unchecked Sendable {
    private let capture: Bool
    private let captured = LockedValue((out: Data(), err: Data()))
    private let standardInput: Data?
    /// True when standard output is a terminal (colour, terminal charts).
    public let outputIsTerminal: Bool
    /// Terminal width in columns, when known.
    public let terminalColumns: Int?
    /// True when standard error is a terminal (progress bars).
    public let errorIsTerminal: Bool

    /// The process's own standard streams.
    public static func standard() -> Console {
        var size = winsize()
        let columns: Int? =
            ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0
            ? Int(size.ws_col) : nil
        return Console(
            capture: false, stdin: nil, outputIsTerminal: isatty(STDOUT_FILENO) == 1,
            errorIsTerminal: isatty(STDERR_FILENO) == 1, terminalColumns: columns)
    }

    /// A console that keeps everything written, for tests.
    public static func capturing(
        stdin: Data = Data(), outputIsTerminal: Bool = false,
        terminalColumns: Int? = nil
    ) -> Console {
        Console(
            capture: true, stdin: stdin, outputIsTerminal: outputIsTerminal, errorIsTerminal: false,
            terminalColumns: terminalColumns)
    }

    private init(capture: Bool, stdin: Data?, outputIsTerminal: Bool, errorIsTerminal: Bool, terminalColumns: Int?) {
        self.capture = capture
        self.standardInput = stdin
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
        self.terminalColumns = terminalColumns
    }

    /// Writes a line (a newline is added) to standard output.
    public func print(_ text: String) { write(Data((text + "\n").utf8)) }

    /// Writes raw bytes to standard output.
    public func write(_ data: Data) {
        if capture {
            captured.withLock { $0.out.append(data) }
        } else {
            FileHandle.standardOutput.write(data)
        }
    }

    /// Writes a line (a newline is added) to standard error.
    public func error(_ text: String) { writeError(Data((text + "\n").utf8)) }

    /// Writes raw text to standard error without a newline (progress bars).
    public func writeError(_ data: Data) {
        if capture {
            captured.withLock { $0.err.append(data) }
        } else {
            FileHandle.standardError.write(data)
        }
    }

    /// All of standard input.
    public func readStandardInput() -> Data {
        if let standardInput { return standardInput }
        return FileHandle.standardInput.readDataToEndOfFile()
    }

    /// What was written to standard output (capturing consoles only).
    public var output: String { String(decoding: captured.current.out, as: UTF8.self) }
    public var outputData: Data { captured.current.out }
    /// What was written to standard error (capturing consoles only).
    public var errorOutput: String { String(decoding: captured.current.err, as: UTF8.self) }
}
