// Tests for this module go here.
import Foundation
import Testing
@testable import ColdTapCommands

@Test func jsonValueKeepsOrderAndPrecision() {
    let value = JSONValue.object([("b", .number(17.564697265625)), ("a", .array([.int(1), .null, .string("x\"y")]))])
    #expect(value.serialized(pretty: false) == #"{"b":17.564697265625,"a":[1,null,"x\"y"]}"#)
    #expect(Date(timeIntervalSince1970: 1_712_651_700).isoUTC == "2024-04-09T08:35:00Z")
}
