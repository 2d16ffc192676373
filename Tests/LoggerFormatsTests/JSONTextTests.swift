import Foundation
import Testing

@testable import LoggerFormats

/// A broken descriptor file says where the JSON breaks; a syntactically fine file whose
/// value a field cannot take is not called "not valid JSON".
@Suite struct JSONTextTests {
    @Test func syntaxErrorsSayWhere() {
        #expect(JSONText.syntaxProblem(in: Data(#"{"a": "#.utf8)) == "Unexpected end of file during JSON parse")
        #expect(JSONText.syntaxProblem(in: Data(#"{"a": [1] } x"#.utf8)) == "Invalid value around character 12")
        #expect(JSONText.syntaxProblem(in: Data(#"{"a": [1]}"#.utf8)) == nil)
    }

    @Test func aDescriptorCutShortNamesTheEndOfFile() throws {
        #expect {
            try LoggerDescriptor.parse(Data(#"{"name": "x", "samples": "#.utf8), source: "my.json")
        } throws: { error in
            (error as? LoggerFormatError)?.description == "logger descriptor my.json is not valid JSON (Unexpected end of file during JSON parse)"
        }
    }

    @Test func aNumberTooLargeIsNotCalledInvalidJSON() throws {
        let text = """
            {"name": "big", "record": {"match": [{"tnf": "unknown"}]},
             "header": [{"name": "interval", "offset": 0, "width": 2, "signed": false, "endian": "little", "meaning": "interval"}],
             "samples": {"offset": 2, "width": 2, "signed": true, "endian": "little", "scale": 0.1,
                         "missing": [1000000000000000000000000000000]},
             "sensorRange": {"min": -50, "max": 100}, "timeBase": ["read-time"]}
            """
        // The same text with an ordinary marker is a valid descriptor, so only the number is at fault.
        _ = try LoggerDescriptor.parse(Data(text.replacingOccurrences(of: "1000000000000000000000000000000", with: "-32768").utf8))
        #expect {
            try LoggerDescriptor.parse(Data(text.utf8), source: "big.json")
        } throws: { error in
            (error as? LoggerFormatError)?.description
                == "logger descriptor big.json holds a value its field cannot take (a number too large for an integer field?)"
        }
    }
}
