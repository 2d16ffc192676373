import Digest
import Foundation
import LoggerFormats

extension LogInput {
    /// Decodes a Berlinger text report (docs/berlinger.md) and checks its device signature.
    /// The report's own creation time is the read time unless the options give one.
    /// - Throws: `InputError`: malformed naming the line, or with the hint
    ///   `.needsLoggerTimeZone` when no zone is given for the logger's clock.
    static func loadBerlingerReport(
        _ content: Data, name: String, described: InputDescription, modificationTime: Date?, options: Options
    ) throws -> Loaded {
        let decodeOptions = makeDecodeOptions(options, dumpTime: nil, tagUID: nil)
        do {
            var log = try BerlingerDecoder.decode(content, options: decodeOptions)
            log.integrity = BerlingerSignature.check(content)
            if log.integrity.status == .failed { log.warnings.append(.integrityFailed(log.integrity.detail)) }
            let lines = content.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            return Loaded(log: log, kind: .berlingerReport, described: described.with(detail: "\(lines) lines"), message: nil)
        } catch let error as LoggerFormatError {
            throw InputError(decoding: error, context: name)
        }
    }
}
