import ColdTapBase
import Foundation
import NDEF
import NFCTags
import PCSC

/// `coldtap write`: writes an NDEF message to a tag on a PC/SC reader and verifies it by
/// reading it back.
public enum WriteCommand: Command {
    static let readerOption = OptionSpec.value(
        "--reader", placeholder: "R", help: "the reader to use (a part of its name)", default: "the first reader with a tag")
    static let textOption = OptionSpec.value("--text", placeholder: "T", help: "write one Text record")
    static let langOption = OptionSpec.value("--lang", placeholder: "L", help: "the language code of --text", default: "en")
    static let uriOption = OptionSpec.value("--uri", placeholder: "U", help: "write one URI record")

    public static let name = "write"
    public static let forms = [
        CommandForm(
            positionals: "[NDEF-FILE]",
            positionalHelp: [("NDEF-FILE", "an NDEF message to write; or give --text or --uri")],
            summary: "write an NDEF message to a tag on a PC/SC reader and verify it by reading it back",
            options: [
                readerOption,
                ReadCommand.timeoutOption.spec,
                textOption,
                langOption,
                uriOption,
            ])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let reader = arguments.value(readerOption)
        let timeout = try ReadCommand.timeout(&arguments)
        let text = arguments.value(textOption)
        let language = arguments.value(langOption) ?? "en"
        let uri = arguments.value(uriOption)
        let files = try arguments.positionals(max: 1)
        try arguments.finish()
        let message = try messageBytes(file: files.first, text: text, language: language, uri: uri)

        let context = try ReaderConnection.context()
        let tag = try await ReaderConnection.waitForTag(context: context, reader: reader, timeout: timeout, console: console)
        defer { tag.card.disconnect() }
        let summary = try await writeAndVerify(message, to: tag.transport)
        await tag.close()
        console.print("Wrote \(message.count) bytes of NDEF to the \(summary) on \(tag.card.reader) and read them back: verified.")
    }

    /// The serialized message from exactly one of FILE, `--text`, `--uri`.
    /// - Throws: `CommandError.usage` unless exactly one is given; `.dataError` for a FILE
    ///   that is not a valid NDEF message.
    static func messageBytes(file: String?, text: String?, language: String, uri: String?) throws -> Data {
        let given = [file != nil, text != nil, uri != nil].filter { $0 }.count
        guard given == 1 else { throw CommandError.usage("Give exactly one of FILE, --text or --uri.") }
        if let file {
            let content = try InputBytes.readFile(file)
            do {
                _ = try NDEFParser.message(from: content)
            } catch let error as NDEFError {
                throw CommandError.data("'\(file)' is not a valid NDEF message: \(error).")
            }
            return content
        }
        let record = text.map { TextRecord(text: $0, language: language).record } ?? URIRecord(uri: uri ?? "").record
        do {
            return try NDEFMessage(records: [record]).encoded()
        } catch let error as NDEFEncodingError {
            throw CommandError.usage("the message cannot be encoded: \(error).")
        }
    }

    /// Writes `message`, reads the tag again and compares; returns the chip and UID.
    /// - Throws: `CommandError` (74 when the tag left, 1 when the read-back differs or the tag
    ///   refused, 69 when the reader cannot send what the tag needs).
    static func writeAndVerify(_ message: Data, to transport: any TagTransport) async throws -> String {
        let options = TagReadOptions(commandTimeout: .seconds(1))
        do {
            try await TagReader.write(message, to: transport, options: options)
        } catch let error as TagWriteError {
            switch error {
            case .interrupted:
                throw CommandError(.ioError, "\(error); hold the tag still and write again.")
            default:
                throw CommandError(.failure, "\(error).")
            }
        } catch let error as TagReadError {
            throw CommandError(error)
        }
        let result: TagReadResult
        do {
            result = try await TagReader.read(from: transport, options: options)
        } catch let error as TagReadError {
            throw CommandError(.ioError, "the message was written but could not be read back to verify it: \(error).")
        }
        guard result.ndefMessageBytes == message else {
            throw CommandError(
                .failure,
                "the tag holds \(result.ndefMessageBytes?.count ?? 0) bytes that differ from the \(message.count) bytes written; write again.")
        }
        return result.chip.displayName + (result.uid.map { " (UID \($0.hexString()))" } ?? "")
    }
}
