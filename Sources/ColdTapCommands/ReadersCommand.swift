import ColdTapBase
import Foundation
import NFCTags
import PCSC

/// `coldtap readers`: the PC/SC readers, whether a tag is on each, and what it is.
public enum ReadersCommand: Command {
    static let jsonOption = OptionSpec.flag("--json", help: "print the list as JSON")

    public static let name = "readers"
    public static let forms = [
        CommandForm(
            summary: "list PC/SC readers and whether a tag is present",
            options: [jsonOption])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let json = arguments.isSet(jsonOption)
        try arguments.finish()
        let context = try ReaderConnection.context()
        let names: [String]
        do {
            names = try context.readers()
        } catch let error as PCSCError {
            throw ReaderConnection.commandError(error)
        }
        guard !names.isEmpty else { throw ReaderConnection.commandError(.noReaders) }
        let states: [ReaderStatus]
        do {
            states = try context.status(of: names)
        } catch let error as PCSCError {
            throw ReaderConnection.commandError(error)
        }
        var entries: [JSONValue] = []
        var lines: [String] = []
        for state in states {
            let profile = ReaderProfile(readerName: state.name)
            var tag: [(String, JSONValue)] = []
            var line = state.name
            if state.cardPresent {
                let atr = ContactlessATR(state.atr)
                var uid = state.exclusive ? nil : await readUID(context: context, state: state)
                // ISO 15693 UIDs are shown as people write them, E0 first, whatever order the reader used.
                if atr?.technology == .iso15693, let raw = uid, raw.count == 8, raw.last == 0xE0 {
                    uid = Data(raw.reversed())
                }
                tag = [
                    ("technology", .optional(atr?.technology?.rawValue)),
                    ("chip", .optional(atr.map { $0.family.description })),
                    ("uid", .optional(uid?.hexString())),
                    ("atr", .string(state.atr.hexString())),
                ]
                let what = atr.map { "\($0.family) (\($0.technology?.rawValue ?? "not a memory tag"))" } ?? "a card that is not an NFC memory tag"
                line += ": tag present — \(what)" + (uid.map { ", UID \($0.hexString())" } ?? "")
            } else {
                line += ": no tag"
            }
            if !profile.readsISO15693 { line += " [no ISO 15693]" }
            lines.append(line)
            entries.append(
                .object([
                    ("name", .string(state.name)),
                    ("model", .string(profile.family.rawValue)),
                    ("iso15693", .bool(profile.readsISO15693)),
                    ("tagPresent", .bool(state.cardPresent)),
                    ("tag", state.cardPresent ? .object(tag) : .null),
                ]))
        }
        if json {
            console.print(JSONValue.object([("readers", .array(entries))]).serialized())
        } else {
            lines.forEach(console.print)
        }
    }

    /// The UID through GET DATA, or `nil` when the reader will not give it.
    private static func readUID(context: PCSCContext, state: ReaderStatus) async -> Data? {
        guard let card = try? context.connect(reader: state.name) else { return nil }
        defer { card.disconnect() }
        guard let response = try? await PCSCChannel(card: card).transmit(Data([0xFF, 0xCA, 0x00, 0x00, 0x00]), timeout: .seconds(1)),
            response.count > 2, response.suffix(2) == Data([0x90, 0x00])
        else { return nil }
        return response.dropLast(2)
    }
}
