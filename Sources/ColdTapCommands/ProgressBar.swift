import ColdTapBase
import Foundation
import NFCTags

/// A one-line progress bar on standard error, drawn only when standard error is a terminal.
final class ProgressBar: Sendable {
    private let console: Console
    private let label: String
    /// True while a bar is on the line.
    private let drawn = LockedValue(false)

    init(console: Console, label: String) {
        self.console = console
        self.label = label
    }

    /// Redraws the bar for `progress` (bytes read of the total, when known).
    func update(_ progress: TagReadProgress) {
        guard console.errorIsTerminal else { return }
        let width = 30
        let line: String
        if let fraction = progress.fraction, let total = progress.totalBytes {
            let filled = Int((fraction * Double(width)).rounded(.down))
            line =
                "\(label) [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
                + "] \(progress.bytesRead)/\(total) bytes"
        } else {
            line = "\(label) \(progress.bytesRead) bytes"
        }
        drawn.withLock { drawn in
            drawn = true
            console.writeError(Data(("\r\u{1B}[K" + line).utf8))
        }
    }

    /// Redraws the bar for `done` of `total` things (e.g. samples of a message-based logger).
    func update(done: Int, total: Int, unit: String) {
        guard console.errorIsTerminal else { return }
        let width = 30
        let filled = total > 0 ? min(width, done * width / total) : width
        let line = "\(label) [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] \(done)/\(total) \(unit)"
        drawn.withLock { drawn in
            drawn = true
            console.writeError(Data(("\r\u{1B}[K" + line).utf8))
        }
    }

    /// Clears the bar so that the next message starts on a clean line.
    func finish() {
        drawn.withLock { drawn in
            guard drawn else { return }
            drawn = false
            console.writeError(Data("\r\u{1B}[K".utf8))
        }
    }
}
