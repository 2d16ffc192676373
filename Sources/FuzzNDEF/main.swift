import Foundation
import NDEF

/// libFuzzer entry point. Parses the input in both modes and runs every typed view on what
/// is recovered; a throw is fine, a crash is not. Invariants checked (a violation traps):
/// strict and lenient parsing agree (strict succeeds exactly when lenient finds no
/// violation — notes without a `kind` do not count — with the same records), and a strictly valid message, written out again,
/// parses strictly to the same message.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNDEF(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let strictResult = try? NDEFParser.parse(data, mode: .strict)
    let lenientResult = try? NDEFParser.parse(data, mode: .lenient)
    let lenientClean = lenientResult.map { $0.warnings.allSatisfy { $0.kind == nil } } ?? false
    if (strictResult != nil) != lenientClean || (strictResult != nil && strictResult?.message != lenientResult?.message) {
        fatalError("strict and lenient parsing disagree")
    }
    if let strict = strictResult {
        let again = try? NDEFParser.parse(strict.message.serialized(), mode: .strict)
        if again?.message != strict.message {
            fatalError("a strictly valid message does not survive serialize + parse")
        }
        _ = try? strict.message.encoded(maxChunkSize: 7)
    }
    if let lenient = lenientResult {
        _ = lenient.message.serialized(maxChunkSize: 5)
        for record in lenient.message.records {
            exerciseViews(record)
        }
    }
    // The payload as a record of each well-known kind, so that every view sees raw bytes.
    for type in ["T", "U", "Sp"] {
        exerciseViews(NDEFRecord(tnf: .wellKnown, type: type, payload: data))
    }
    _ = try? NDEFParser.parse(data, mode: .lenient, checkingRecordTypes: false)
    return 0
}

func exerciseViews(_ record: NDEFRecord) {
    _ = record.typeName
    _ = record.textRecord
    _ = record.uriRecord
    _ = record.smartPosterRecord
    _ = record.mimeRecord?.text
    _ = record.externalRecord
    _ = record.absoluteURIRecord
    _ = record.content
    _ = try? record.decodedContent(mode: .strict)
    var warnings: [NDEFWarning] = []
    _ = try? TextRecord(payload: record.payload, mode: .lenient, warnings: &warnings)
    _ = try? URIRecord(payload: record.payload, mode: .lenient, warnings: &warnings)
    _ = try? SmartPosterRecord(payload: record.payload, mode: .lenient, warnings: &warnings)
    if let poster = try? SmartPosterRecord(payload: record.payload) {
        _ = poster.record
    }
    if let text = try? TextRecord(payload: record.payload), (try? TextRecord(payload: text.payload)) != text {
        fatalError("a valid Text record does not survive a rebuild")
    }
}
