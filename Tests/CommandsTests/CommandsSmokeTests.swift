// Small checks of the command plumbing: JSON output, option errors, output paths.
import ColdTapBase
import Foundation
import Testing

@testable import ColdTapCommands

@Test func jsonValueKeepsOrderAndPrecision() {
    let value = JSONValue.object([("b", .number(17.564697265625)), ("a", .array([.int(1), .null, .string("x\"y")]))])
    #expect(value.serialized(pretty: false) == #"{"b":17.564697265625,"a":[1,null,"x\"y"]}"#)
    #expect(Date(timeIntervalSince1970: 1_712_651_700).isoUTC == "2024-04-09T08:35:00Z")
}

@Test func anUnknownOptionIsNamedRatherThanItsValue() async {
    let console = Console.capturing()
    let status = await ColdTap.main(["decode", "log.ndef", "--zone", "UTC"], console: console)
    #expect(status == ExitStatus.usage.rawValue)
    #expect(console.errorOutput.hasPrefix("coldtap decode: Unknown option '--zone'."))
}

@Test func reportRefusesAnOutputPathThatIsAFile() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-out-\(UUID().uuidString)")
    try Data("x".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let q = "WXmWWXqBWXqHWXksWXlbAAAA1hdJpWG8CgAFBAA~" + String(repeating: "MDAw", count: 182)
    let url = "https://t.plotsensor.com/?t=DAA.&s=AAAAAAAA&v=000000000000AAIB&x=AAABAAhm&q=" + q
    let console = Console.capturing()
    let status = await ColdTap.main(["report", url, "--out", file.path, "--png"], console: console)
    #expect(status == ExitStatus.failure.rawValue)
    #expect(console.errorOutput.contains("is not a directory ('\(file.path)' is a file); give a directory"))
    #expect(console.output.isEmpty, "checked before anything is printed")
}
