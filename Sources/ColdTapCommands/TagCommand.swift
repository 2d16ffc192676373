import ColdTapBase
import ColdTapKit
import Foundation
import NDEF
import NFCTags

/// `coldtap tag`: what a tag memory dump holds.
public enum TagCommand: Command {
    static let inputOption = OptionSpec.value(
        "--input", placeholder: "KIND", help: "the tag type, instead of working it out", default: "auto",
        choices: { ["auto", "tag2", "tag5"] })
    static let blockSizeOption = OptionSpec.value(
        "--block-size", placeholder: "N", help: "bytes per block of a Type 5 dump (1 to 32; with --input tag5)", default: "4")
    static let jsonOption = OptionSpec.flag("--json", help: "print it as JSON")

    public static let name = "tag"
    public static let forms = [
        CommandForm(
            positionals: "FILE",
            positionalHelp: [("FILE", "a tag memory dump: raw .bin, hex text or Flipper .nfc; - for standard input")],
            summary: "show what a tag memory dump holds: chip, capability container, TLVs, the NDEF message, lock state",
            options: [
                inputOption,
                blockSizeOption,
                jsonOption,
            ])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let json = arguments.isSet(jsonOption)
        let input = arguments.value(inputOption) ?? "auto"
        let blockSizeText = arguments.value(blockSizeOption)
        let files = try arguments.positionals(min: 1, max: 1)
        try arguments.finish()
        var blockSize = 4
        if let blockSizeText {
            guard let value = Int(blockSizeText), (1...32).contains(value) else {
                throw CommandError.usage("--block-size takes a number of bytes from 1 to 32, not '\(blockSizeText)'.")
            }
            blockSize = value
        }
        let hint: DumpHint
        switch input {
        case "auto", "flipper": hint = .auto
        case "tag2": hint = .type2
        case "tag5": hint = .type5(blockSize: blockSize)
        default: throw CommandError.usage("--input takes auto, tag2 or tag5, not '\(input)'.")
        }
        if blockSizeText != nil && input != "tag5" {
            throw CommandError.usage("--block-size applies to Type 5 dumps only; add --input tag5.")
        }
        let path = files[0]
        // Raw binary, Flipper text, or hex text of a raw dump (InputBytes tells them apart).
        let data = try InputBytes.read(path, console: console, format: .auto)
        let name = path == "-" ? "standard input" : path
        let dump: MemoryDump
        do {
            dump = try MemoryDump.parse(data, hint: hint)
        } catch let error as MemoryDumpError {
            // People pass what `decode` takes: say which command reads it instead.
            if hint == .auto, let other = notADump(data) {
                throw CommandError.data("\(name) holds \(other), not a tag memory dump; read it with 'coldtap decode \(path)'.")
            }
            throw CommandError.data("\(name): \(HintWording.describe(error)). Check that the file is a complete tag dump.")
        }
        var result: TagReadResult
        do {
            result = try await TagReader.read(from: dump.transport(), options: TagReadOptions(scope: .wholeDataArea))
        } catch let error as TagReadError {
            let kind = dump.technology == .iso14443A ? "Type 2" : "Type 5"
            guard let missing = dump.missingUnitsDescription else {
                if let truncation = LogInput.truncation(of: dump) {
                    throw CommandError.data("\(name): \(truncation): the dump is truncated.")
                }
                throw CommandError.data("\(name): the dump cannot be read as a \(kind) tag: \(error).")
            }
            // The device that made the file could not read some pages: show what can be read
            // without them (the NDEF message often ends before them) and say what was skipped.
            do {
                result = try await TagReader.read(from: dump.transport(), options: TagReadOptions(scope: .ndefMessage))
            } catch {
                if let cutOff = LogInput.cutOffDescription(dump) { throw CommandError.data("\(name): \(cutOff).") }
                throw CommandError.data("\(name): the file lacks \(missing) (unread when it was made), which reading it as a \(kind) tag needs: \(error).")
            }
            let skipped = LogInput.cutOffDescription(dump).map { "\($0), so the data area past the NDEF message was not checked" }
            result.anomalies.append(
                TagAnomaly(
                    offset: nil,
                    message: skipped ?? "the file lacks \(missing) (unread when it was made), so the data area past the NDEF message was not checked"))
        }
        if json {
            console.print(TagDumpReport.json(result: result, dump: dump, path: path).serialized())
        } else {
            console.print(TagDumpReport.text(result: result, dump: dump, path: path))
        }
    }
}

extension TagCommand {
    /// What a file that is no dump holds when it is something `decode` reads: an NDEF
    /// message or a URL; `nil` otherwise.
    static func notADump(_ data: Data) -> String? {
        let text = String(decoding: data.prefix(16), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if text.hasPrefix("https://") || text.hasPrefix("http://") { return "a URL" }
        if let message = try? NDEFParser.message(from: data) {
            return "an NDEF message (\(message.records.count) record(s))"
        }
        return nil
    }
}

/// Text and JSON views of a dump read.
enum TagDumpReport {
    static func hex(_ bytes: Data?, separator: String = " ") -> String {
        (bytes ?? Data()).hexString(separator: separator)
    }

    static func formatName(_ dump: MemoryDump) -> String {
        switch dump.format {
        case .raw: return "raw binary"
        case .proxmark: return "Proxmark3 mfu binary"
        case .flipper: return "Flipper Zero .nfc"
        }
    }

    /// One line saying what an NDEF record is.
    static func summary(_ record: NDEFRecord) -> String {
        let size = "\(record.payload.count) bytes"
        if let text = record.textRecord {
            return "Text (\(text.language)): \"\(clip(text.text))\""
        }
        if let uri = record.uriRecord { return "URI: \(clip(uri.uri))" }
        switch record.tnf {
        case .empty: return "Empty record"
        case .wellKnown:
            if record.isWellKnown("Sp") { return "Smart Poster, \(size)" }
            return "Well-known type \(record.typeName), \(size)"
        case .media: return "MIME \(record.typeName), \(size)"
        case .absoluteURI: return "Absolute-URI type \(record.typeName), \(size)"
        case .external: return "External type \(record.typeName), \(size)"
        case .unknown, .unchanged, .reserved: return "Unknown type, \(size)"
        }
    }

    static func clip(_ text: String, _ limit: Int = 70) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: "⏎")
        return flat.count > limit ? String(flat.prefix(limit)) + "…" : flat
    }

    static func tlvDetail(_ tlv: TLVEntry) -> String {
        switch tlv.kind {
        case .null, .terminator: return ""
        case .lockControl, .memoryControl:
            var text = "\(tlv.length) bytes: \(hex(tlv.controlValue))"
            if let area = tlv.reservedArea { text += " → reserves bytes \(area.lowerBound)–\(area.upperBound - 1)" }
            return text
        default: return "\(tlv.length) bytes"
        }
    }

    static func text(result: TagReadResult, dump: MemoryDump, path: String) -> String {
        var lines: [String] = []
        let type = result.technology == .iso14443A ? "Type 2" : "Type 5"
        lines.append(
            "\(path): \(formatName(dump)), \(type) (\(result.technology.rawValue)), \(dump.unitCount) \(result.technology == .iso14443A ? "pages" : "blocks") of \(result.unitSize) bytes"
        )
        var chip = "Chip: \(result.chip.displayName)"
        if let version = dump.version {
            chip += " (GET_VERSION \(hex(version)))"
        } else if result.technology == .iso14443A && result.version != nil {
            chip += " (from the dump size, \(dump.unitCount) pages)"
        }
        if let info = result.systemInfo, let count = info.blockCount, let size = info.blockSize {
            chip += " (\(count) blocks × \(size) bytes" + (info.icReference.map { String(format: ", IC reference 0x%02X", $0) } ?? "") + ")"
        }
        lines.append(chip)
        lines.append("UID: " + (result.uid.map { hex($0, separator: ":") } ?? "unknown"))
        if let cc = result.capabilityContainer {
            let access = cc.isWritable ? "read/write" : "read-only"
            var ccLine =
                "Capability container (\(result.location(of: cc.offset))): \(hex(cc.bytes)) — version \(cc.majorVersion).\(cc.minorVersion), data area \(cc.dataAreaSize) bytes, \(access)"
            if result.technology == .iso15693 {
                ccLine += cc.supportsReadMultiple ? ", MBREAD" : ", no MBREAD"
            }
            lines.append(ccLine)
        } else {
            lines.append("Capability container: none (not NDEF-formatted)")
        }
        if !result.tlvs.isEmpty {
            lines.append("TLVs:")
            for tlv in result.tlvs {
                let location = "byte \(tlv.offset) (\(result.location(of: tlv.offset)))"
                let detail = tlvDetail(tlv)
                lines.append(
                    "  " + location.padding(toLength: 30, withPad: " ", startingAt: 0) + " " + tlv.kind.name
                        + (detail.isEmpty ? "" : "  " + detail))
            }
        }
        if let bytes = result.ndefMessageBytes {
            if bytes.isEmpty {
                lines.append("NDEF message: empty")
            } else if let message = result.ndefMessage {
                lines.append("NDEF message: \(bytes.count) bytes, \(message.records.count) record(s)")
                for (index, record) in message.records.enumerated() {
                    lines.append("  \(index + 1). \(summary(record))")
                }
            } else {
                lines.append("NDEF message: \(bytes.count) bytes that do not parse as NDEF")
            }
        } else {
            lines.append("NDEF message: none")
        }
        if result.anomalies.isEmpty {
            lines.append("Anomalies: none")
        } else {
            lines.append("Anomalies:")
            for anomaly in result.anomalies {
                if let offset = anomaly.offset {
                    lines.append("  byte \(offset) (\(result.location(of: offset))): \(anomaly.message)")
                } else {
                    lines.append("  \(anomaly.message)")
                }
            }
        }
        if !dump.missingUnits.isEmpty {
            let name = result.technology == .iso14443A ? "page" : "block"
            let list = dump.missingUnits.sorted().prefix(12).map(String.init).joined(separator: ", ")
            lines.append("Not in the file: \(dump.missingUnits.count) \(name)(s): \(list)\(dump.missingUnits.count > 12 ? ", …" : "")")
        }
        return lines.joined(separator: "\n")
    }

    static func json(result: TagReadResult, dump: MemoryDump, path: String) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("file", .string(path)),
            ("format", .string(dump.format.rawValue)),
            ("technology", .string(result.technology.rawValue)),
            ("chip", .string(result.chip.displayName)),
            ("uid", result.uid.map { .string(hex($0, separator: "")) } ?? .null),
            ("unitSize", .int(result.unitSize)),
            ("units", .int(dump.unitCount)),
        ]
        if let version = dump.version { members.append(("version", .string(hex(version, separator: "")))) }
        if let cc = result.capabilityContainer {
            members.append(
                (
                    "capabilityContainer",
                    .object([
                        ("offset", .int(cc.offset)),
                        ("bytes", .string(hex(cc.bytes, separator: ""))),
                        ("version", .string("\(cc.majorVersion).\(cc.minorVersion)")),
                        ("dataAreaBytes", .int(cc.dataAreaSize)),
                        ("readAccess", .int(Int(cc.readAccess))),
                        ("writeAccess", .int(Int(cc.writeAccess))),
                        ("writable", .bool(cc.isWritable)),
                    ])
                ))
        } else {
            members.append(("capabilityContainer", .null))
        }
        members.append(
            (
                "tlvs",
                .array(
                    result.tlvs.map { tlv in
                        var entry: [(String, JSONValue)] = [
                            ("type", .string(tlv.kind.name)),
                            ("offset", .int(tlv.offset)),
                            ("location", .string(result.location(of: tlv.offset))),
                            ("length", .int(tlv.length)),
                            ("valueOffset", .int(tlv.valueOffset)),
                        ]
                        if let area = tlv.reservedArea {
                            entry.append(("reserved", .object([("offset", .int(area.lowerBound)), ("length", .int(area.count))])))
                        }
                        return .object(entry)
                    })
            ))
        if let bytes = result.ndefMessageBytes {
            var ndef: [(String, JSONValue)] = [("bytes", .int(bytes.count)), ("hex", .string(hex(bytes, separator: "")))]
            if let message = result.ndefMessage {
                ndef.append(
                    (
                        "records",
                        .array(
                            message.records.map { record in
                                .object([
                                    ("tnf", .int(Int(record.tnf.rawValue))), ("type", .string(record.typeName)),
                                    ("payloadBytes", .int(record.payload.count)), ("summary", .string(summary(record))),
                                ])
                            })
                    ))
            } else {
                ndef.append(("records", .null))
                ndef.append(("error", .optional(result.ndefError.map { $0.description })))
            }
            members.append(("ndef", .object(ndef)))
        } else {
            members.append(("ndef", .null))
        }
        members.append(
            (
                "anomalies",
                .array(
                    result.anomalies.map { anomaly in
                        .object([
                            ("offset", anomaly.offset.map { .int($0) } ?? .null),
                            ("location", anomaly.offset.map { .string(result.location(of: $0)) } ?? .null),
                            ("message", .string(anomaly.message)),
                        ])
                    })
            ))
        members.append(("missingUnits", .array(dump.missingUnits.sorted().map { .int($0) })))
        return .object(members)
    }
}
