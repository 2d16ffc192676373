import ColdChain
import Foundation
import LoggerFormats
import NFCTags
import PCSC
#if canImport(Glibc)
import Glibc
#endif

/// `coldtap demo`: a built-in logger with an excursion, read through pcscd and vpcd when they
/// are available (starting a private pcscd when it may), otherwise through the in-process
/// virtual tag; decoded, assessed and reported into ./coldtap-demo/.
public enum DemoCommand: Command {
    public static let name = "demo"
    public static let synopsis = "  coldtap demo [--out DIR] [--logger KIND] [--in-process]   emulated logger → read → decode → assess → report → archive, no hardware"

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let outDirectory = try arguments.option("--out") ?? "coldtap-demo"
        let logger = try VirtualTags.logger(named: try arguments.option("--logger") ?? DemoLogger.cupltag.rawValue)
        let inProcessOnly = arguments.flag("--in-process")
        try arguments.finish()

        let readTime = Date()
        let made = try VirtualTags.make(.logger(logger), chip: nil, readTime: readTime, console: console)
        // The tag's memory is kept beside the report, so the same log can be decoded and
        // reported again (another profile, language or time zone).
        try createDirectory(outDirectory)
        let dumpPath = (outDirectory as NSString).appendingPathComponent(DemoReport.dumpName)
        let path = inProcessOnly ? DemoPath.inProcess("--in-process was given") : DemoPath.choose()
        let outcome: LoggerReadOutcome
        let how: String
        switch path {
        case .systemPCSCD:
            how = "through pcscd and vpcd (the running pcscd, reader \(DemoPath.vpcdReader))"
            console.error("Reading the demo logger \(how) …")
            outcome = try await readThroughVPCD(made.tag, saveDump: dumpPath, console: console)
        case .privatePCSCD:
            how = "through pcscd and vpcd (a private pcscd started for the demo in its own network namespace)"
            console.error("Reading the demo logger \(how) …")
            let stack = try PrivatePCSCD.start(logger: logger)
            defer { stack.stop() }
            outcome = try await readPCSC(reader: DemoPath.vpcdReader, saveDump: dumpPath, console: console)
        case .inProcess(let reason):
            how = "through the in-process virtual tag (\(reason))"
            console.error("Reading the demo logger \(how) …")
            outcome = try await LoggerRead.read(made.tag, options: LogInput.Options(), saveDump: dumpPath, console: console)
        }

        let assessment = Assessor.assess(outcome.log, profile: ReportCommand.defaultProfile,
                                         timeZone: TimeZone(identifier: "UTC") ?? .gmt)
        let files = try DemoReport.write(outcome.log, assessment: assessment, directory: outDirectory)
        console.print("Read the \(outcome.result.chip.displayName) holding a \(outcome.log.format) log of \(outcome.log.samples.count) samples \(how).")
        console.print("Verdict (\(assessment.profile.name)): \(assessment.verdict.rawValue)")
        for reason in assessment.reasons { console.print("  " + reason) }
        for file in files + [dumpPath] { console.print("  wrote \(file)") }
        for line in try await DemoArchive.record(outcome, logger: logger, origin: "\(outcome.result.chip.displayName) read \(how)",
                                                 directory: outDirectory, invocation: invocationName()) {
            console.print(line)
        }
        console.print("Report it again, e.g. in Japanese against the freezer profile:")
        console.print("  \(invocationName()) report \(dumpPath) --read-time \(outcome.readTime.isoUTC) --profile vaccine-freezer --lang ja --out \(outDirectory)")
        for line in try DemoStation.prepare(directory: outDirectory, invocation: invocationName()) { console.print(line) }
    }

    /// How to call this program again: the path it was started by when that is `coldtap`
    /// (after `make demo` it is not on PATH), relative to the current directory where it can be.
    static func invocationName() -> String {
        guard let first = CommandLine.arguments.first, (first as NSString).lastPathComponent == "coldtap",
              first.contains("/") else { return "coldtap" }
        let here = FileManager.default.currentDirectoryPath + "/"
        return first.hasPrefix(here) ? String(first.dropFirst(here.count)) : first
    }

    private static func createDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CommandError(.failure, "Cannot create the output directory '\(path)': check the path and permissions.")
        }
    }

    /// Serves `tag` to the running pcscd's vpcd from this process and reads it back through PC/SC.
    private static func readThroughVPCD(_ tag: VirtualTag, saveDump: String, console: Console) async throws -> LoggerReadOutcome {
        let client = VirtualCardClient(emulator: ContactlessReaderEmulator(tag: tag))
        let serving = Task { try await client.run() }
        defer { client.stop() }
        do {
            let outcome = try await readPCSC(reader: DemoPath.vpcdReader, saveDump: saveDump, console: console)
            client.stop()
            _ = try? await serving.value
            return outcome
        } catch {
            client.stop()
            _ = try? await serving.value
            throw error
        }
    }

    private static func readPCSC(reader: String, saveDump: String, console: Console) async throws -> LoggerReadOutcome {
        let context = try ReaderSupport.context()
        let tag = try await ReaderSupport.waitForTag(context: context, reader: reader, timeout: .seconds(10), console: console)
        do {
            let outcome = try await LoggerRead.read(tag.transport, options: LogInput.Options(), saveDump: saveDump, console: console)
            await tag.close()
            return outcome
        } catch {
            await tag.close()
            throw error
        }
    }
}

/// How the demo reaches its virtual logger.
enum DemoPath: Equatable {
    /// A pcscd is running here with vpcd listening: serve the card from this process.
    case systemPCSCD
    /// No usable pcscd, but this process may start one (root, pcscd and vpcd installed).
    case privatePCSCD
    /// Straight to the virtual tag, no PC/SC.
    case inProcess(String)

    static let vpcdReader = "Virtual PCD 00 00"
    static let vpcdPort: UInt16 = 35963

    /// The PC/SC client library fixes its socket path at the first connection, so pcscd is
    /// only asked when vpcd already listens here; otherwise a private pcscd can still be
    /// pointed to with PCSCLITE_CSOCK_NAME.
    static func choose() -> DemoPath {
        if listening(port: vpcdPort) {
            return runningVPCDReaderIsFree() ? .systemPCSCD
                : .inProcess("vpcd listens here but pcscd's \(vpcdReader) is not free")
        }
        if let reason = PrivatePCSCD.cannotStart() { return .inProcess(reason) }
        return .privatePCSCD
    }

    /// True when pcscd answers and lists vpcd's reader without a card.
    private static func runningVPCDReaderIsFree() -> Bool {
        guard let context = try? PCSCContext(), let states = try? context.status(of: [vpcdReader]) else { return false }
        return states.first?.cardPresent == false
    }

    /// True when a TCP socket listens on `port` in the network namespace of `process`
    /// (`self` = this process).
    static func listening(port: UInt16, process: String = "self") -> Bool {
        let hexPort = String(format: ":%04X", port)
        for table in ["/proc/\(process)/net/tcp", "/proc/\(process)/net/tcp6"] {
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                // local_address is field 1, state field 3 (0A = LISTEN).
                if fields.count > 3, fields[1].hasSuffix(hexPort), fields[3] == "0A" { return true }
            }
        }
        return false
    }
}

/// A pcscd with vpcd in private network and mount namespaces, and `coldtap emulate` as its
/// card: vpcd's port (bound to all addresses) is reachable from nowhere else, and the private
/// /run keeps it apart from any other pcscd on the host.
final class PrivatePCSCD: @unchecked Sendable {
    private let daemon: Process
    private let card: Process
    private static let pcscdPath = "/usr/sbin/pcscd"
    private static let vpcdDriver = "/usr/lib/pcsc/drivers/serial/libifdvpcd.so"

    private init(daemon: Process, card: Process) {
        self.daemon = daemon
        self.card = card
    }

    /// Why a private pcscd cannot be started here, or `nil` when it can.
    static func cannotStart() -> String? {
        guard geteuid() == 0 else { return "starting pcscd in a private network namespace needs root" }
        guard FileManager.default.isExecutableFile(atPath: pcscdPath) else { return "pcscd is not installed" }
        guard FileManager.default.fileExists(atPath: vpcdDriver) else { return "vsmartcard-vpcd is not installed" }
        guard tool("unshare") != nil, tool("nsenter") != nil, tool("ip") != nil else {
            return "unshare, nsenter or ip is missing"
        }
        guard selfExecutable() != nil else { return "this program cannot start itself as the card" }
        if ProcessInfo.processInfo.environment["PCSCLITE_CSOCK_NAME"] != nil {
            return "PCSCLITE_CSOCK_NAME points at another pcscd"
        }
        return nil
    }

    /// Starts pcscd and the card, and points this process's PC/SC client at that pcscd.
    /// - Throws: `CommandError(.unavailable)` when either does not come up.
    static func start(logger: DemoLogger) throws -> PrivatePCSCD {
        guard let unshare = tool("unshare"), let nsenter = tool("nsenter"), let me = selfExecutable() else {
            throw CommandError(.unavailable, "unshare, nsenter or coldtap itself cannot be found.")
        }
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: unshare)
        daemon.arguments = ["--net", "--mount", "--", "sh", "-c",
                            "mount -t tmpfs -o mode=0755 tmpfs /run && ip link set lo up && exec \(pcscdPath) --foreground"]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        do { try daemon.run() } catch {
            throw CommandError(.unavailable, "pcscd could not be started: \(error.localizedDescription).")
        }
        let socket = "/proc/\(daemon.processIdentifier)/root/run/pcscd/pcscd.comm"
        // The PC/SC client library reads this once, before its first connection.
        setenv("PCSCLITE_CSOCK_NAME", socket, 1)
        let card = Process()
        card.executableURL = URL(fileURLWithPath: nsenter)
        card.arguments = ["--net=/proc/\(daemon.processIdentifier)/ns/net", me, "emulate", "--logger", logger.rawValue]
        card.standardOutput = FileHandle.nullDevice
        card.standardError = FileHandle.nullDevice
        let stack = PrivatePCSCD(daemon: daemon, card: card)
        StopOnSignal.shared.register(stack)
        guard waitFor({ FileManager.default.fileExists(atPath: socket) || !daemon.isRunning }), daemon.isRunning else {
            stack.stop()
            throw CommandError(.unavailable, "pcscd did not start; run '\(pcscdPath) --foreground --debug' to see why.")
        }
        // vpcd listens a moment after pcscd's socket appears; its port is visible in pcscd's namespace.
        guard waitFor({ DemoPath.listening(port: DemoPath.vpcdPort, process: String(daemon.processIdentifier)) }) else {
            stack.stop()
            throw CommandError(.unavailable, "pcscd started without vpcd listening on port \(DemoPath.vpcdPort); check /etc/reader.conf.d/vpcd.")
        }
        do { try card.run() } catch {
            stack.stop()
            throw CommandError(.unavailable, "the virtual card could not be started: \(error.localizedDescription).")
        }
        return stack
    }

    /// Stops the card and pcscd (SIGTERM, then SIGKILL after 3 s). Safe to call more than once.
    func stop() {
        for process in [card, daemon] where process.isRunning {
            process.terminate()
            if !PrivatePCSCD.waitFor({ !process.isRunning }, seconds: 3) {
                kill(process.processIdentifier, SIGKILL)
            }
        }
        StopOnSignal.shared.unregister(self)
    }

    private static func waitFor(_ condition: () -> Bool, seconds: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    static func tool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/sbin:/usr/bin:/sbin:/bin"
        return (path.split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/bin", "/sbin", "/bin"])
            .map { ($0 as NSString).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// This program, when it is the `coldtap` executable (not a test runner).
    static func selfExecutable() -> String? {
        let path = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        return (path as NSString).lastPathComponent == "coldtap" ? path : nil
    }
}

/// Stops private daemons when the user interrupts the demo.
final class StopOnSignal: @unchecked Sendable {
    static let shared = StopOnSignal()
    private let lock = NSLock()
    private var stacks: [ObjectIdentifier: PrivatePCSCD] = [:]
    private var sources: [any DispatchSourceSignal] = []

    func register(_ stack: PrivatePCSCD) {
        lock.withLock {
            stacks[ObjectIdentifier(stack)] = stack
            guard sources.isEmpty else { return }
            for signalNumber in [SIGINT, SIGTERM] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: DispatchQueue(label: "coldtap.signals"))
                source.setEventHandler { [self] in
                    let pending = lock.withLock { Array(stacks.values) }
                    pending.forEach { $0.stop() }
                    exit(130)
                }
                source.resume()
                sources.append(source)
            }
        }
    }

    func unregister(_ stack: PrivatePCSCD) {
        _ = lock.withLock { stacks.removeValue(forKey: ObjectIdentifier(stack)) }
    }
}

/// The demo's files: report.pdf, report.html, report.png and samples.csv.
enum DemoReport {
    /// The logger's memory as a Flipper Zero `.nfc` file, readable by `decode`, `report` and `tag`.
    static let dumpName = "logger.nfc"
    /// `coldtap report`'s file kinds and the names the demo gives them.
    private static let names: [(ReportArtifacts.Kind, String)] = [
        (.pdf, "report.pdf"), (.html, "report.html"), (.png, "report.png"), (.csv, "samples.csv"),
    ]

    /// Writes the files through `ReportArtifacts` (as `coldtap report` does) and returns their paths.
    /// - Throws: `CommandError` when the directory or a file cannot be written.
    static func write(_ log: TemperatureLog, assessment: Assessment, directory: String) throws -> [String] {
        let target = URL(fileURLWithPath: directory, isDirectory: true)
        let staging = target.appendingPathComponent(".coldtap-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: staging) }
        let options = ReportArtifacts.Options(outDirectory: staging.path, kinds: Set(names.map(\.0)))
        let written = try ReportArtifacts.write(log: log, assessment: assessment, inputName: "demo", options: options,
                                                console: Console.capturing())
        var paths: [String] = []
        for (kind, name) in names {
            guard let source = written.first(where: { kindOf($0) == kind }) else { continue }
            let destination = target.appendingPathComponent(name)
            do {
                if FileManager.default.fileExists(atPath: destination.path) {
                    try FileManager.default.removeItem(at: destination)
                }
                try FileManager.default.moveItem(at: source, to: destination)
            } catch {
                throw CommandError(.failure, "cannot write '\(destination.path)': \(error.localizedDescription).")
            }
            paths.append((directory as NSString).appendingPathComponent(name))
        }
        return paths
    }

    private static func kindOf(_ url: URL) -> ReportArtifacts.Kind? {
        switch url.pathExtension {
        case "pdf": return .pdf
        case "html": return .html
        case "png": return .png
        case "csv": return .csv
        default: return nil
        }
    }
}
