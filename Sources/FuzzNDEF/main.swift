import Foundation
import NDEF

/// libFuzzer entry point: both parsing modes on the same bytes; a throw is fine, a crash is not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNDEF(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    for mode in [NDEFParsingMode.strict, .lenient] {
        if let result = try? NDEFParser.parse(data, mode: mode) {
            let bytes = result.message.serialized()
            _ = try? NDEFParser.parse(bytes, mode: .strict)
            for record in result.message.records {
                _ = record.textRecord
                _ = record.uriRecord
            }
        }
    }
    return 0
}
