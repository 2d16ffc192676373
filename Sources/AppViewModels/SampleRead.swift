import ColdTapKit
import Foundation
import NFCTags

/// The read someone without a logger can try (App Review has none): a logger's memory bundled
/// with the app, `Resources/SampleRead.nfc`, the Flipper file `coldtap demo` saves of its
/// built-in cuplTag logger (a day in a 2–8 °C fridge, the door left open one afternoon). It is
/// read with ColdTapKit's `LoggerReader` over the virtual tag the dump makes, the one read a
/// tapped logger goes through, and then kept, judged, drawn and shared as any read is, marked
/// as a sample wherever it shows and never queued for a station (`ReadKeeping`).
public enum SampleRead {
    /// The bundled dump's bytes.
    /// - Throws: `CocoaError(.fileNoSuchFile)` when the resource is missing from the build.
    public static func dump() throws -> Data {
        guard let url = Bundle.module.url(forResource: "SampleRead", withExtension: "nfc") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try Data(contentsOf: url)
    }

    /// Reads the bundled logger as a tapped one is read (`LoggerReader.read(from:)`).
    /// - Parameter readTime: when the sample is read (the samples end a few minutes before
    ///   it); `nil` is now, as for a tapped logger.
    /// - Throws: what parsing the dump or reading it throws (a broken build only).
    public static func read(at readTime: Date? = nil) async throws -> FinishedRead {
        let dump = try MemoryDump.parse(try dump())
        var options = LogInput.Options()
        if let readTime { (options.readTime, options.readTimeSource) = (readTime, .tagRead) }
        let started = Date()
        let read = try await LoggerReader(options: options).read(from: dump.transport())
        let raw = read.rawRead
        return FinishedRead(
            log: read.log, raw: raw?.bytes ?? Data(), rawKind: raw?.kind == .flipper ? .tagMemory : .ndefMessage,
            seconds: Date().timeIntervalSince(started), sample: true)
    }

    /// Said when the sample cannot be opened (a build without its resource).
    public static func problem(_ error: Error) -> ReadProblem {
        ReadProblem(message: String(localized: "The sample read could not be opened."), detail: "\(error)")
    }
}
