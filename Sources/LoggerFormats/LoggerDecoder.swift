import Foundation
import NDEF

/// The entry point: which logger wrote this NDEF message, and what did it log?
public enum LoggerDecoder {
    /// Names of the built-in formats, in the order auto-detection tries them.
    public static let builtInNames = ["cupltag", "dtn1", "generic16-unix", "generic16", "nhs31xx", "smartag1", "smartag2"]

    /// Names a caller may force a format by besides `builtInNames` (encoder kinds that decode with another format).
    static let aliases = ["cupltag-rh": "cupltag"]

    /// Decodes a message, auto-detecting the format unless `options.logger` forces one.
    /// - Returns: the log, samples oldest first, with `detection` saying why the format was chosen.
    /// - Throws: `LoggerFormatError` — `.noFormatMatched` listing every format tried and
    ///   why it refused; `.unknownLogger` for an unknown forced name; or the chosen format's
    ///   own error (malformed payload, cuplTag categories, unknown interval, ...).
    public static func decode(_ message: NDEFMessage, options: DecodeOptions) throws -> TemperatureLog {
        switch options.logger {
        case .named(let name):
            let format = try builtIn(named: name)
            var log = try format.decode(message, options: options)
            log.detection = .forced(format: name)
            checkTimes(&log, options: options)
            return log
        case .descriptor(let descriptor):
            try descriptor.validate(source: descriptor.name)
            var log = try DescriptorFormat(descriptor: descriptor).decode(message, options: options)
            log.detection = .forcedDescriptor(name: descriptor.name)
            checkTimes(&log, options: options)
            return log
        case nil:
            var refusals: [FormatRefusal] = []
            for name in builtInNames {
                let format: any LoggerFormatDecoder
                do {
                    format = try builtIn(named: name)
                } catch let error as LoggerFormatError {
                    refusals.append(FormatRefusal(format: name, reason: error.detail))
                    continue
                }
                switch format.detect(message, options: options) {
                case .refused(let reason):
                    refusals.append(FormatRefusal(format: name, reason: reason))
                case .accepted(let reason):
                    var log = try format.decode(message, options: options)
                    // A record type that merely contains "temp" is no proof: the decoded log
                    // must look like a logger's before it gets a verdict. A conclusive match
                    // (the format's own structure, or an integrity check that held) is never
                    // refused for it, only warned about: the logger may really be set so.
                    let problems = implausibilities(of: log, options: options)
                    if !problems.isEmpty {
                        guard format.detectionIsConclusive || log.integrity.status == .verified else {
                            refusals.append(
                                FormatRefusal(
                                    format: name,
                                    reason: "\(reason), but decoded that way "
                                        + problems.map(\.text).joined(separator: "; ")))
                            continue
                        }
                        log.warnings.append(.implausibleYetConclusive(format: name, problems))
                    }
                    log.detection = .detected(format: name, reason: reason)
                    checkTimes(&log, options: options)
                    return log
                }
            }
            let summary = describe(message)
            throw LoggerFormatError(
                .noFormatMatched(refusals),
                "no known logger format matches this message (\(summary)); tried: "
                    + refusals.map(\.description).joined(separator: "; "),
                hint: .needsLoggerDescription)
        }
    }

    /// Decodes a bare cuplTag URL (as a phone shares it).
    /// - Throws: `LoggerFormatError` with the cuplTag categories of docs/formats/cupltag.md §8.
    public static func decode(url: String, options: DecodeOptions) throws -> TemperatureLog {
        var log = try CuplTagFormat().decode(url: url, options: options)
        log.detection = .bareURL
        checkTimes(&log, options: options)
        return log
    }

    /// The shortest and longest sample intervals auto-detection accepts: 1 s … 1 day.
    public static let plausibleIntervals: ClosedRange<TimeInterval> = 1...86_400
    /// The largest share of samples outside the sensor range auto-detection accepts.
    public static let plausibleOutOfRangeShare = 0.5

    /// Why an auto-detected log does not look like a logger's: no samples, an interval
    /// outside 1 s … 1 day, most samples outside the sensor range, a start before 2000 or
    /// more than a day after the read. Empty when it looks plausible.
    static func implausibilities(of log: TemperatureLog, options: DecodeOptions) -> [LogWarning.Implausibility] {
        var problems: [LogWarning.Implausibility] = []
        guard !log.samples.isEmpty else { return [.noSamples] }
        if !plausibleIntervals.contains(log.interval) {
            problems.append(.interval(log.interval))
        }
        let outOfRange = log.samples.filter { $0.flags.contains(.outOfRange) }.count
        if Double(outOfRange) > plausibleOutOfRangeShare * Double(log.samples.count) {
            problems.append(.mostOutsideSensorRange(count: outOfRange, total: log.samples.count))
        }
        if log.timeBase != .readTime, let first = log.samples.first?.time {
            if first < earliestPlausibleStart || first > options.readTime.addingTimeInterval(86_400) {
                problems.append(.start(first))
            }
        }
        return problems
    }

    /// The earliest first-sample time taken as real: 2000-01-01T00:00:00Z. Earlier times come
    /// from a clock that was never set or a damaged field.
    public static let earliestPlausibleStart = Date(timeIntervalSince1970: 946_684_800)

    /// Says when the times are estimates and when they cannot be right: marks
    /// `timesEstimated` and warns when the sample times were placed from a read time that is
    /// not known; warns when the log starts before 2000 or after the read, or when its newest
    /// sample is later than the read.
    static func checkTimes(_ log: inout TemperatureLog, options: DecodeOptions) {
        if log.timeBase == .readTime && !options.readTimeSource.isKnown && !log.samples.isEmpty {
            log.timesEstimated = true
            log.warnings.append(.timesEstimated(readTime: options.readTime, source: options.readTimeSource))
        }
        guard let first = log.samples.first?.time, let newest = log.samples.last?.time else { return }
        if first < earliestPlausibleStart {
            log.warnings.append(.startsBefore2000(first: first))
        }
        // A minute of slack for clocks that disagree by seconds.
        if first > options.readTime.addingTimeInterval(60) {
            log.warnings.append(.startsAfterReadTime(first: first, readTime: options.readTime))
        } else if newest > options.readTime.addingTimeInterval(60) {
            log.warnings.append(.readTimeBeforeNewest(readTime: options.readTime, newest: newest))
        }
    }

    /// The built-in format of that name (`cupltag`, `dtn1`, `generic16`, `generic16-unix`, or
    /// the alias `cupltag-rh`).
    static func builtIn(named name: String) throws -> any LoggerFormatDecoder {
        let canonical = aliases[name.lowercased()] ?? name.lowercased()
        if canonical == "cupltag" { return CuplTagFormat() }
        if canonical == NHS31xxFormat.formatName { return NHS31xxFormat() }
        if canonical == SmarTag1Log.formatName { return SmarTagFormat(generation: 1) }
        if canonical == SmarTag2Log.formatName { return SmarTagFormat(generation: 2) }
        if BerlingerDecoder.formatNames.contains(canonical) {
            throw LoggerFormatError(.unknownLogger, format: canonical, "this format reads Berlinger text reports, and this input is not one")
        }
        guard builtInNames.contains(canonical) else {
            throw LoggerFormatError(.unknownLogger, "unknown logger '\(name)'; known: \(builtInNames.joined(separator: ", ")), or give a descriptor .json file")
        }
        return DescriptorFormat(descriptor: try builtInDescriptor(named: canonical))
    }

    /// A built-in descriptor, loaded from the package's resources.
    /// - Throws: `LoggerFormatError` (`.badDescriptor`) when the resource bundle or file is
    ///   missing or invalid — never a crash.
    public static func builtInDescriptor(named name: String) throws -> LoggerDescriptor {
        if let parsed = BuiltInDescriptors.parsed[name] { return try parsed.get() }
        return try loadBuiltInDescriptor(named: name)
    }

    /// Every built-in descriptor, read and parsed once per process (a station decodes
    /// thousands of uploads; the files do not change while it runs).
    private enum BuiltInDescriptors {
        static let parsed: [String: Result<LoggerDescriptor, any Error>] = {
            guard let directory = DescriptorResources.directory,
                let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
            else { return [:] }
            var parsed: [String: Result<LoggerDescriptor, any Error>] = [:]
            for file in files where file.hasSuffix(".json") {
                let name = String(file.dropLast(5))
                parsed[name] = Result { try loadBuiltInDescriptor(named: name) }
            }
            return parsed
        }()
    }

    private static func loadBuiltInDescriptor(named name: String) throws -> LoggerDescriptor {
        guard let directory = DescriptorResources.directory else {
            throw LoggerFormatError(
                .badDescriptor, format: name,
                "the built-in logger descriptors were not found (resource bundle \(DescriptorResources.bundleName) is missing next to the program); reinstall ColdTap",
                hint: .needsLoggerDescription)
        }
        let file = directory.appendingPathComponent(name + ".json")
        guard let data = try? Data(contentsOf: file) else {
            throw LoggerFormatError(.badDescriptor, format: name, "the built-in descriptor \(name).json is missing from \(directory.path)")
        }
        return try LoggerDescriptor.parse(data, source: name + ".json")
    }

    private static func describe(_ message: NDEFMessage) -> String {
        let records = message.records.map { record -> String in
            switch record.tnf {
            case .unknown: return "unknown-type (\(record.payload.count) bytes)"
            case .empty: return "empty"
            default: return "'\(record.typeName)' (\(record.payload.count) bytes)"
            }
        }
        return "\(records.count) record(s): " + records.joined(separator: ", ")
    }
}

/// Finds the `Descriptors` resource folder without `Bundle.module`, whose generated
/// accessor stops the program when the bundle is missing.
enum DescriptorResources {
    static let bundleName = "ColdTap_LoggerFormats.resources"

    static let directory: URL? = {
        var roots: [URL] = []
        if let override = ProcessInfo.processInfo.environment["COLDTAP_RESOURCES"] { roots.append(URL(fileURLWithPath: override)) }
        roots.append(Bundle.main.bundleURL)
        if let resources = Bundle.main.resourceURL { roots.append(resources) }
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            roots.append(executable.deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles { roots.append(bundle.bundleURL.deletingLastPathComponent()) }
        return find(in: roots)
    }()

    /// The first `Descriptors` folder (holding `generic16.json`) in or under one of `roots`.
    static func find(in roots: [URL]) -> URL? {
        let fileManager = FileManager.default
        let names = [bundleName, "ColdTap_LoggerFormats.bundle", "ColdTap_LoggerFormats.bundle/Contents/Resources"]
        for root in roots {
            for name in names {
                for candidate in [
                    root.appendingPathComponent(name).appendingPathComponent("Descriptors"),
                    root.appendingPathComponent(name),
                ] {
                    let probe = candidate.appendingPathComponent("generic16.json")
                    if fileManager.fileExists(atPath: probe.path) { return candidate }
                }
            }
        }
        return nil
    }
}
