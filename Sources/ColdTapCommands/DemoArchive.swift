import Archive
import ColdChain
import ColdTapBase
import ColdTapKit
import Foundation
import LoggerFormats
import NFCTags
import NFCTagsEmulation

/// The demo's record: the same logger read twice, the evening before and now (20 hours
/// apart, so the two reads overlap by four hours), both kept in `archive.sqlite` in the
/// demo folder; prints the stitched history and how to report the whole period.
enum DemoArchive {
    static let fileName = "archive.sqlite"
    /// How long before the demo's read the earlier read is simulated.
    static let earlierReadAge: TimeInterval = 20 * 3600

    /// The earlier read's series: 120 samples of the fridge before the demo's log began,
    /// then the first 24 samples of the demo's log (what both reads saw).
    static var earlierSeries: [Double] {
        let before = Int(earlierReadAge) / DemoLogger.interval
        let older = (0..<before).map { offset -> Double in
            let index = Double(offset - before)
            return ((5.0 + 0.8 * sin(index * 2 * Double.pi / 36)) * 10).rounded() / 10
        }
        return older + DemoLogger.temperatures.prefix(DemoLogger.sampleCount - before)
    }

    /// Reads the earlier state of `logger` in-process, keeps it and then `outcome` (the
    /// demo's read) in a fresh archive in `directory`, and returns the lines to print.
    static func record(
        _ outcome: LoggerRead, logger: DemoLogger, origin: String, directory: String,
        invocation: String
    ) async throws -> [String] {
        let path = (directory as NSString).appendingPathComponent(fileName)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let earlierTime = outcome.readTime.addingTimeInterval(-earlierReadAge)
        let earlier: LoggerRead
        do {
            let tag: VirtualTag
            if logger.isSmarTag {
                // From the newest record read now, not the read time, so that both reads
                // place their records on the same times whatever second the read ended in.
                let newest = outcome.log.samples.last?.time.addingTimeInterval(180 - earlierReadAge) ?? earlierTime
                tag = try VirtualTags.smarTag(logger, readTime: newest, series: earlierSeries, chip: nil)
            } else {
                let message = try logger.message(readTime: earlierTime, series: earlierSeries).encoded()
                tag = try VirtualTag.make(chip: try VirtualTags.chip(named: logger.defaultChip), ndefMessage: message)
            }
            let options = LogInput.Options(readTime: earlierTime)
            var read = try await CommandLineRead.read(tag, options: options, saveDump: nil, console: Console.capturing())
            read.readTime = earlierTime
            earlier = read
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(.failure, "the demo's earlier read could not be made: \(error).")
        }
        let profile = ReportCommand.defaultProfile
        let zone = TimeZone.utc
        let first = try await ArchiveAccess.keep(
            earlier, origin: "in-process virtual tag (demo, the evening before)",
            options: LogInput.Options(readTime: earlierTime), loggerArgument: nil,
            loggerID: nil, profile: profile, timeZone: zone, archive: path)
        let second = try await ArchiveAccess.keep(
            outcome, origin: origin, options: LogInput.Options(), loggerArgument: nil,
            loggerID: nil, profile: profile, timeZone: zone, archive: path)
        let history = try await ArchiveAccess.mapping { () async throws -> History in
            let archive = try Archive.open(path, create: false)
            defer { archive.close() }
            return try archive.history(loggerID: second.loggerID)
        }
        var lines = ["", "The record: the same logger read \(Int(earlierReadAge / 3600)) hours earlier too, both reads kept in \(path):"]
        lines.append("  read #\(first.readID) at \(earlier.readTime.isoUTC): \(ArchiveAccess.addLine(first))")
        lines.append("  read #\(second.readID) at \(outcome.readTime.isoUTC): \(ArchiveAccess.addLine(second))")
        let firstTime = history.samples.first?.sample.time
        let lastTime = history.samples.last?.sample.time
        lines.append(
            "  stitched: \(history.samples.count) samples of \(history.logger.id) from \(ArchiveAccess.time(firstTime)) to \(ArchiveAccess.time(lastTime)), "
                + "\(second.duplicates) duplicates dropped, \(history.gaps.count) gap(s), \(history.conflicts.count) conflict(s)")
        lines.append("  chain head \(history.chainHead)")
        lines.append("Show the stitched history, and report the whole period:")
        lines.append("  \(invocation) history \(history.logger.id) --archive \(path)")
        lines.append("  \(invocation) report --logger-id \(history.logger.id) --archive \(path)")
        return lines
    }
}
