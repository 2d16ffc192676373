import ColdTapBase
import ColdTapKit
import Foundation
import NDEF
import NFCTags

/// `coldtap ndef decode FILE [--json] [--lenient]` and
/// `coldtap ndef encode (--text T [--lang L] | --uri U | --mime TYPE FILE | --external TYPE FILE)... [--hex] [-o OUT]`.
public enum NDEFCommand: Command {
    static let jsonOption = OptionSpec.flag("--json", help: "print the records as JSON")
    static let lenientOption = OptionSpec.flag("--lenient", help: "recover what can be read from a malformed message, with warnings")
    static let textOption = OptionSpec.value("--text", placeholder: "T", help: "a Text record", repeatable: true)
    static let langOption = OptionSpec.value("--lang", placeholder: "L", help: "the language of the --text before it", default: "en", repeatable: true)
    static let uriOption = OptionSpec.value("--uri", placeholder: "U", help: "a URI record", repeatable: true)
    static let mimeOption = OptionSpec.values("--mime", placeholders: ["TYPE", "FILE"], help: "a MIME record of type TYPE holding FILE", path: true)
    static let externalOption = OptionSpec.values(
        "--external", placeholders: ["TYPE", "FILE"], help: "an external record (domain:type) holding FILE", path: true)
    static let hexOption = OptionSpec.flag("--hex", help: "print the message as hex text")
    static let outOption = OptionSpec.value("-o", "--out", placeholder: "OUT", help: "write the message to OUT", default: "standard output", path: true)

    public static let name = "ndef"
    public static let abstract = "decode or build an NDEF message"
    public static let forms = [
        CommandForm(
            verb: "decode", positionals: "FILE",
            positionalHelp: [("FILE", "raw NDEF bytes, hex text, or a tag dump or Flipper file (its NDEF message); - for standard input")],
            summary: "show the records of an NDEF message",
            options: [
                jsonOption,
                lenientOption,
            ]),
        CommandForm(
            verb: "encode", summary: "build an NDEF message from records, in the order given",
            options: [
                textOption,
                langOption,
                uriOption,
                mimeOption,
                externalOption,
                hexOption,
                outOption,
            ]),
    ]

    /// Bytes of payload shown in hex in the human-readable output before it is cut short.
    static let payloadPreviewBytes = 32

    public static func run(_ arguments: Arguments, console: Console) async throws {
        switch arguments.verb {
        case "encode": try encode(arguments, console: console)
        default: try await decode(arguments, console: console)
        }
    }

    // MARK: decode

    static func decode(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let json = arguments.isSet(jsonOption)
        let lenient = arguments.isSet(lenientOption)
        let path = try arguments.positionals(min: 1, max: 1)[0]
        try arguments.finish()
        let bytes = try await messageBytes(try InputBytes.read(path, console: console), path: path, console: console)
        let result: NDEFParseResult
        do {
            result = try NDEFParser.parse(bytes, mode: lenient ? .lenient : .strict)
        } catch let error as NDEFError {
            let hint = lenient ? "nothing could be recovered" : "run with --lenient to see what can be recovered"
            throw CommandError.data("malformed NDEF at offset \(error.offset): \(error.kind.explanation); \(hint).")
        }
        if json {
            var top: [(String, JSONValue)] = [("records", .array(result.message.records.map(jsonRecord)))]
            if lenient {
                top.append(
                    (
                        "warnings",
                        .array(
                            result.warnings.map {
                                .object([("offset", .int($0.offset)), ("message", .string($0.message))])
                            })
                    ))
            }
            console.print(JSONValue.object(top).serialized())
        } else {
            let records = result.message.records
            for (index, record) in records.enumerated() {
                if index > 0 { console.print("") }
                console.print(humanBlock(record, number: index + 1, of: records.count))
            }
            for warning in result.warnings {
                console.error("coldtap ndef: warning: offset \(warning.offset): \(printable(warning.message))")
            }
        }
    }

    static func jsonRecord(_ record: NDEFRecord) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("tnf", .int(Int(record.tnf.rawValue))),
            ("type", .string(record.typeName)),
            ("id", .string(hex(record.id))),
            ("payload", .string(hex(record.payload))),
        ]
        switch record.content {
        case .text(let text):
            members.append(
                (
                    "text",
                    .object([
                        ("encoding", .string(text.encoding.rawValue)),
                        ("language", .string(text.language)), ("text", .string(text.text)),
                    ])
                ))
        case .uri(let uri):
            members.append(("uri", .string(uri.uri)))
        case .smartPoster(let poster):
            members.append(
                (
                    "smartPoster",
                    .object([
                        ("uri", .string(poster.uri)),
                        ("titles", .object(poster.titles.map { ($0.language, .string($0.text)) })),
                        ("action", .optional(poster.action?.name)),
                    ])
                ))
        default:
            break
        }
        return .object(members)
    }

    static func humanBlock(_ record: NDEFRecord, number: Int, of count: Int) -> String {
        let content = record.content
        var lines = ["Record \(number) of \(count): \(content?.kindName ?? "Smart Poster (undecodable)")"]
        switch content {
        case .text(let text):
            lines.append("  \"\(printable(text.text))\"")
            lines.append("  language \(printable(text.language)), \(text.encoding.rawValue)")
        case .uri(let uri):
            lines.append("  \(printable(uri.uri))")
        case .smartPoster(let poster):
            lines.append("  URI: \(printable(poster.uri))")
            for title in poster.titles { lines.append("  title (\(printable(title.language))): \(printable(title.text))") }
            if let action = poster.action { lines.append("  action: \(action.name)") }
            if let size = poster.size { lines.append("  size: \(size) bytes") }
            if let type = poster.targetType { lines.append("  type: \(printable(type))") }
            for icon in poster.icons { lines.append("  icon: \(printable(icon.mimeType)), \(icon.data.count) bytes") }
        case .mime(let mime):
            if let text = mime.text {
                lines.append("  \(printable(mime.mimeType)): \(printable(String(text.prefix(200))))\(text.count > 200 ? "…" : "")")
            } else {
                lines.append("  \(printable(mime.mimeType)), \(mime.data.count) bytes")
            }
        case .external(let external):
            lines.append("  \(printable(external.typeName)), \(external.payload.count) bytes")
        case .absoluteURI(let absolute):
            lines.append("  \(printable(absolute.uri)), \(absolute.payload.count) bytes")
        case .otherWellKnown(let type):
            lines.append("  well-known type \(printable(type)), \(record.payload.count) bytes")
        case .empty:
            lines.append("  (no type, no payload)")
        case .unknown(let unknown):
            lines.append("  \(unknown.payload.count) bytes of unstated type")
        case nil:
            lines.append("  (the nested message could not be read)")
        }
        let id = record.id.isEmpty ? "no ID" : "ID \(hex(record.id, spaced: true))"
        lines.append("  TNF \(record.tnf.rawValue) (\(record.tnf.name)), type \"\(record.typeName)\", \(id)")
        var payloadLine = "  payload \(record.payload.count) byte\(record.payload.count == 1 ? "" : "s")"
        if !record.payload.isEmpty {
            payloadLine += ": " + hex(record.payload.prefix(payloadPreviewBytes), spaced: true)
            if record.payload.count > payloadPreviewBytes { payloadLine += " …" }
        }
        lines.append(payloadLine)
        return lines.joined(separator: "\n")
    }

    // MARK: encode

    static func encode(_ arguments: Arguments, console: Console) throws {
        var arguments = arguments
        var records: [NDEFRecord] = []
        var lastText: (index: Int, text: TextRecord, languageGiven: Bool)?
        // Records come in the order given; --lang belongs to the --text before it.
        for occurrence in arguments.occurrences {
            let values = occurrence.values
            switch occurrence.spec {
            case textOption.displayName:
                let text = TextRecord(text: values[0])
                lastText = (records.count, text, false)
                records.append(text.record)
            case langOption.displayName:
                let language = values[0]
                guard var pending = lastText, !pending.languageGiven else {
                    throw CommandError.usage("--lang sets the language of the --text before it; give it after a --text.")
                }
                guard !language.isEmpty, language.utf8.count <= 63,
                    language.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
                else {
                    throw CommandError.usage("--lang '\(language)' is not a language code like en or pt-BR (ASCII letters, digits, '-', at most 63).")
                }
                pending.text.language = language
                pending.languageGiven = true
                records[pending.index] = pending.text.record
                lastText = pending
            case uriOption.displayName:
                records.append(URIRecord(uri: values[0]).record)
            case mimeOption.displayName:
                records.append(MIMERecord(mimeType: values[0], data: try InputBytes.read(values[1], console: console, format: .raw)).record)
            case externalOption.displayName:
                let payload = try InputBytes.read(values[1], console: console, format: .raw)
                do {
                    records.append(try ExternalRecord(type: values[0], payload: payload).record)
                } catch let error as NDEFError {
                    throw CommandError.usage("--external '\(values[0])': \(error.kind.explanation); write it as domain:type, e.g. example.com:temp.")
                }
            default:
                break
            }
        }
        arguments.takeAll()
        _ = try arguments.positionals(max: 0)
        let asHex = arguments.isSet(hexOption)
        let out = arguments.value(outOption)
        try arguments.finish()
        guard !records.isEmpty else {
            throw CommandError.usage("Give at least one record: --text, --uri, --mime or --external.")
        }
        let bytes: Data
        do {
            bytes = try NDEFMessage(records: records).encoded()
        } catch let error as NDEFEncodingError {
            throw CommandError.usage("Cannot encode \(error); fix that option.")
        }
        let output = asHex ? Data((hex(bytes, spaced: true) + "\n").utf8) : bytes
        if let out {
            try OutputFile.write(output, to: out, what: "the message")
        } else {
            if !asHex && console.outputIsTerminal {
                throw CommandError.usage("The message is binary; add --hex to see it or -o FILE to save it.")
            }
            console.write(output)
        }
    }

    /// The NDEF message FILE holds: the file itself when it is one; the message inside a
    /// tag memory dump (Flipper `.nfc` file, raw image, as `decode` takes them), said on
    /// standard error with the `coldtap tag` command that shows the rest of the tag.
    /// - Throws: `CommandError.data` for a URL (not NDEF), or a dump without a readable message.
    static func messageBytes(_ content: Data, path: String, console: Console) async throws -> Data {
        if (try? NDEFParser.message(from: content)) != nil { return content }
        let name = path == "-" ? "standard input" : "'\(path)'"
        let tagCommand = "coldtap tag \(path == "-" ? "FILE" : path)"
        if LogInput.classifyText(content).0 == .url {
            throw CommandError.data(
                "\(name) is a URL, not an NDEF message: `coldtap decode` decodes a cuplTag URL, "
                    + "and `coldtap ndef encode --uri URL` makes its NDEF record.")
        }
        guard let dump = try? MemoryDump.parse(content) else { return content }
        let kind = dump.format == .flipper ? "a Flipper .nfc dump" : "a tag memory dump"
        let result: TagReadResult
        do {
            result = try await TagReader.read(from: dump.transport())
        } catch {
            throw CommandError.data("\(name) is \(kind) whose NDEF message cannot be read (\(error)); `\(tagCommand)` shows what it holds.")
        }
        guard let message = result.ndefMessageBytes, !message.isEmpty else {
            throw CommandError.data("\(name) is \(kind) of an \(result.chip.displayName) without an NDEF message; `\(tagCommand)` shows what it holds.")
        }
        let start = result.tlvs.first { $0.kind == .ndef }.map { " from byte \($0.valueOffset)" } ?? ""
        console.error(
            "coldtap ndef: \(name) is \(kind) of an \(result.chip.displayName); decoding the NDEF message it holds "
                + "(\(message.count) bytes\(start); offsets below count from its start). `\(tagCommand)` shows the whole tag.")
        return message
    }

    // MARK: formatting

    /// Lower-case hex; `spaced` puts a space between bytes.
    static func hex<Bytes: Sequence>(_ bytes: Bytes, spaced: Bool = false) -> String where Bytes.Element == UInt8 {
        bytes.hexString(separator: spaced ? " " : "", uppercase: false)
    }

    /// The text with control characters escaped, so that a hostile tag cannot drive the terminal.
    static func printable(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
                out += String(format: "\\u{%X}", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
