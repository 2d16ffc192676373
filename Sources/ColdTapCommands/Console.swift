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
    /// How much of a capturing console's `standardInput` `readLine` has taken.
    private let inputTaken = LockedValue(0)
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

    /// True when standard input is a terminal (never for a capturing console).
    public var inputIsTerminal: Bool { standardInput == nil && isatty(STDIN_FILENO) == 1 }

    /// One line of standard input without its line ending (`\n` or `\r\n`), or `nil` at its
    /// end. Reads no further than the line, so what follows stays for the next caller.
    public func readLine() -> String? {
        var bytes: [UInt8] = []
        if let standardInput {
            let (line, ended) = inputTaken.withLock { taken -> ([UInt8], Bool) in
                let rest = standardInput.dropFirst(taken)
                guard !rest.isEmpty else { return ([], true) }
                let line = rest.prefix { $0 != 0x0A }
                taken += line.count + (line.count < rest.count ? 1 : 0)
                return (Array(line), false)
            }
            if ended { return nil }
            bytes = line
        } else {
            var byte: UInt8 = 0
            var sawAny = false
            while true {
                let count = read(STDIN_FILENO, &byte, 1)
                if count < 0, errno == EINTR { continue }
                guard count == 1 else { break }
                sawAny = true
                if byte == 0x0A { break }
                bytes.append(byte)
            }
            if !sawAny { return nil }
        }
        if bytes.last == 0x0D { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A secret typed at the terminal: `prompt` on standard error, then one line read with
    /// the terminal's echo off (restored afterwards, also when SIGINT or SIGTERM ends the
    /// process meanwhile). Not at a terminal (a pipe, a capturing console) it is `readLine()`.
    public func readSecret(prompt: String) -> String? {
        guard inputIsTerminal else { return readLine() }
        writeError(Data(prompt.utf8))
        guard tcgetattr(STDIN_FILENO, &Console.savedTerminal) == 0 else { return readLine() }
        var quiet = Console.savedTerminal
        quiet.c_lflag &= ~tcflag_t(ECHO | ECHONL)
        let previous = [SIGINT, SIGTERM].map { ($0, signal($0, Console.restoreTerminalAndExit)) }
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        let line = readLine()
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &Console.savedTerminal)
        for (number, handler) in previous { signal(number, handler) }
        // The line feed the user typed was not echoed.
        writeError(Data("\n".utf8))
        return line
    }

    /// The terminal's settings before `readSecret` turned the echo off: written before the
    /// handler is installed, read only by it and by `readSecret` (one prompt at a time).
    nonisolated(unsafe) private static var savedTerminal = termios()

    /// Puts the echo back and ends the process as the signal would have.
    private static let restoreTerminalAndExit: @convention(c) (Int32) -> Void = { number in
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &Console.savedTerminal)
        signal(number, SIG_DFL)
        raise(number)
    }

    /// What was written to standard output (capturing consoles only).
    public var output: String { String(decoding: captured.current.out, as: UTF8.self) }
    public var outputData: Data { captured.current.out }
    /// What was written to standard error (capturing consoles only).
    public var errorOutput: String { String(decoding: captured.current.err, as: UTF8.self) }
}
