import ColdChain
import Foundation
import Testing

/// A profile file cut short says where its JSON breaks, in one sentence.
@Suite struct ProfileJSONSyntaxTests {
    @Test func aTruncatedProfileSaysWhereTheJSONBreaks() {
        #expect {
            try Profile.fromJSON(Data(#"{"name": "x", "band": "#.utf8))
        } throws: { error in
            "\(error)" == "not valid JSON (Unexpected end of file during JSON parse); fix its syntax."
        }
    }
}
