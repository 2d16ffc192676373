import ArchiveKit
import ColdChain
import ColdTapKit
import Foundation
import LoggerFormats
import LoggerSessions
import NFCTags
import NFCTagsEmulation
import PCSC

/// The virtual NHS3100 of `coldtap emulate --logger nhs3100` and `coldtap demo --logger nhs3100`:
/// a pristine logger that follows the wall clock; the demo configures it through the reader
/// (SETCONFIG taken as given two days ago, so there is a history to read), taps it again and
/// reads it in command mode, then reports.
enum NHSDemo {
    static let loggerName = "nhs3100"
    /// How far back the demo's configuration is dated.
    static let history: Double = 2 * 86_400
    /// 10 minutes, limits 2.0–8.0 °C, starting at once.
    static let request = ConfigureCommand.Request(interval: 600, validMinimum: 20, validMaximum: 80, yes: true)
    static let transcriptName = "logger-transcript.jsonl"

    /// A fridge near 5 °C with a daily swing, and a door left open for 90 minutes 30 hours in.
    static func fridge(from start: Double) -> @Sendable (Double) -> Double {
        { time in
            let hours = (time - start) / 3600
            let door = hours >= 30 && hours < 31.5 ? 5.0 : 0
            return 5 + 0.8 * sin(hours / 24 * 2 * .pi) + door
        }
    }

    /// Served through vpcd, which cannot show the field going away, the virtual tag takes this
    /// many seconds without commands as the end of a tap (a real tap ends when the card leaves).
    static let tapEndsAfterIdle = 2.5

    /// A virtual NHS3100 following this machine's clock.
    /// - Parameter endsTapsWhenIdle: for vpcd; in-process the caller taps it explicitly.
    static func makeTag(history: Double?, faults: TagFaults = .none, endsTapsWhenIdle: Bool = true) async -> VirtualNHS3100 {
        let now = Date().timeIntervalSince1970
        let tag = VirtualNHS3100(logger: NHS3100Logger(now: now, temperature: fridge(from: now - (history ?? 0))), faults: faults)
        await tag.follow(clock: { Date().timeIntervalSince1970 }, tapEndsAfterIdle: endsTapsWhenIdle ? tapEndsAfterIdle : nil)
        if let history { await tag.backdateNextConfiguration(by: history) }
        return tag
    }

    /// `coldtap emulate --logger nhs3100 [--demo-history SECONDS] [--fault FAULT]…`.
    static func emulate(endpointText: String?, history: String?, faults: TagFaults = .none, trace: Bool, console: Console) async throws {
        let endpoint =
            try endpointText.map { text -> VPCDEndpoint in
                guard let endpoint = VPCDEndpoint(text) else {
                    throw CommandError.usage("--vpcd takes HOST:PORT (e.g. 127.0.0.1:35963), not '\(text)'.")
                }
                return endpoint
            } ?? .standard
        let seconds = try history.map { text -> Double in
            guard let value = Double(text), value >= 0, value <= 366 * 86_400 else {
                throw CommandError.usage("--demo-history takes seconds from 0 to a year, not '\(text)'.")
            }
            return value
        }
        let tag = await makeTag(history: seconds, faults: faults)
        var tracer: (@Sendable (String) -> Void)?
        if trace { tracer = { @Sendable line in console.error(line) } }
        let client = VirtualCardClient(emulator: ContactlessReaderEmulator(tag: tag), endpoint: endpoint, trace: tracer)
        console.error(
            "Serving a virtual NHS3100 (tlogger firmware, pristine) to vpcd at \(endpoint)"
                + (seconds.map { "; its next SETCONFIG is dated \(Int($0)) s back" } ?? "")
                + (faults.isEmpty ? "" : " with faults \(faults)") + "; press Ctrl-C to stop.")
        do {
            let outcome = try await client.run()
            switch outcome {
            case .closed(let apdus): console.error("vpcd closed the connection after \(apdus) command APDU(s).")
            case .tagRemoved(let apdus): console.error("The tag left the field after \(apdus) command APDU(s).")
            }
        } catch let error as VirtualCardError {
            throw CommandError(.unavailable, error.description)
        }
    }

    /// `coldtap demo --logger nhs3100`.
    static func run(outDirectory: String, inProcessOnly: Bool, console: Console) async throws {
        do {
            try FileManager.default.createDirectory(atPath: outDirectory, withIntermediateDirectories: true)
        } catch {
            throw CommandError(.failure, "cannot create '\(outDirectory)': \(error.localizedDescription).")
        }
        let transcriptPath = (outDirectory as NSString).appendingPathComponent(transcriptName)
        let path = inProcessOnly ? DemoPath.inProcess("--in-process was given") : DemoPath.choose()
        let outcome: LoggerRead
        let how: String
        switch path {
        case .systemPCSCD:
            how = "through pcscd and vpcd (the running pcscd, reader \(DemoPath.vpcdReader))"
            let tag = await makeTag(history: history)
            let client = VirtualCardClient(emulator: ContactlessReaderEmulator(tag: tag))
            let serving = Task { try await client.run() }
            defer { client.stop() }
            outcome = try await configureAndRead(how: how, transcriptPath: transcriptPath, console: console)
            client.stop()
            _ = try? await serving.value
        case .privatePCSCD:
            how = "through pcscd and vpcd (a private pcscd started for the demo in its own network namespace)"
            let stack = try PrivatePCSCD.start(cardArguments: ["--logger", loggerName, "--demo-history", String(Int(history))])
            defer { stack.stop() }
            outcome = try await configureAndRead(how: how, transcriptPath: transcriptPath, console: console)
        case .inProcess(let reason):
            how = "through the in-process virtual tag (\(reason))"
            let tag = await makeTag(history: history, endsTapsWhenIdle: false)
            console.error("Configuring the virtual NHS3100 \(how) …")
            let session = try await NHSConnect.session(on: tag)
            try await ConfigureCommand.configure(session, request: request, clock: Date(), console: console)
            await tag.remove()
            await tag.tap()
            console.error("Reading it …")
            outcome = try await CommandLineRead.read(tag, options: LogInput.Options(), saveDump: transcriptPath, console: console)
        }
        let assessment = RuleBook.judge(outcome.log, profile: ReportCommand.defaultProfile, timeZone: TimeZone(identifier: "UTC") ?? .gmt)
        let files = try DemoReport.write(outcome.log, assessment: assessment, directory: outDirectory)
        console.print(
            "Configured a virtual NHS3100 (SETCONFIG dated \(Int(history / 3600)) h back: \(request.summary)), then read its "
                + "\(outcome.log.samples.count) samples and \(outcome.log.events.count) events in command mode \(how).")
        console.print("Verdict (\(assessment.profile.name)): \(assessment.headline(in: assessment.timeZone))")
        // The reasons include what the logger itself concluded.
        for reason in assessment.reasons { console.print("  " + reason) }
        for file in files + [transcriptPath] { console.print("  wrote \(file)") }
        console.print("Decode the exchange again:")
        console.print("  \(DemoCommand.invocationName()) report \(transcriptPath) --out \(outDirectory)")
    }

    /// Configures through PC/SC, waits for the emulated tap to end, reads through PC/SC.
    private static func configureAndRead(how: String, transcriptPath: String, console: Console) async throws -> LoggerRead {
        console.error("Configuring the virtual NHS3100 \(how) …")
        try await NHSConnect.withLogger(reader: DemoPath.vpcdReader, timeout: .seconds(10), console: console) { session, _ in
            try await ConfigureCommand.configure(session, request: request, clock: Date(), console: console)
        }
        // The virtual tag takes a pause without commands as the end of the tap; the read is a new tap.
        try? await Task.sleep(for: .milliseconds(Int64(tapEndsAfterIdle * 1000) + 300))
        console.error("Reading it …")
        return try await DemoCommand.readPCSC(reader: DemoPath.vpcdReader, saveDump: transcriptPath, console: console)
    }
}
