import ColdTapBase
import Foundation
import NFCTags
import PCSC

/// A tag on a PC/SC reader, connected and ready for tag commands.
struct ConnectedTag {
    let card: PCSCCard
    let transport: ReaderTransport

    /// Ends the transparent session and leaves the tag for the next application.
    func close() async {
        await transport.close()
        card.disconnect()
    }
}

/// How the reader commands reach a tag: pcscd, a reader by part of its name, a tag on it,
/// and PC/SC's errors with DESIGN.md's exit statuses.
enum ReaderConnection {
    /// Connects to pcscd.
    /// - Throws: `CommandError(.unavailable)` saying how to start pcscd.
    static func context() throws -> PCSCContext {
        do {
            return try PCSCContext()
        } catch let error as PCSCError {
            throw commandError(error)
        }
    }

    /// Waits for a tag on the reader matching `reader` and opens a transport to it.
    /// - Throws: `CommandError(.unavailable)` for no reader / no tag / pcscd not running,
    ///   `CommandError(.ioError)` when the tag left while the link was set up.
    static func waitForTag(context: PCSCContext, reader: String?, timeout: Duration?, console: Console) async throws
        -> ConnectedTag
    {
        let names: [String]
        do {
            names = try matchReaders(reader, in: try context.readers())
        } catch let error as PCSCError {
            throw commandError(error)
        }
        if console.errorIsTerminal || names.count > 1 {
            console.error("Hold a tag on \(names.count == 1 ? names[0] : "one of \(names.count) readers") …")
        }
        let status: ReaderStatus
        do {
            // Only NFC memory tags: a contact card in a combined reader's other slot is waited past.
            status = try await context.waitForCard(reader: reader, timeout: timeout) { ContactlessATR($0.atr) != nil }
        } catch PCSCError.timeout {
            let seconds = timeout.map { " within \(Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18) s" } ?? ""
            var message = "no tag was presented to \(names.joined(separator: " or "))\(seconds); hold the tag flat on the reader and try again"
            let others = (try? context.status(of: names))?.filter { $0.cardPresent } ?? []
            if let other = others.first {
                message += "; the card on \(other.name) is not an NFC Forum Type 2 or Type 5 tag (ATR \(other.atr.hexString()))"
            }
            let blind = names.map(ReaderProfile.init(readerName:)).filter { !$0.readsISO15693 }
            if let profile = blind.first {
                message += " (\(profile.family.rawValue) cannot see ISO 15693 / Type 5 loggers; for those use \(ReaderProfile.iso15693Readers))"
            }
            throw CommandError(.unavailable, message + ".")
        } catch let error as PCSCError {
            throw commandError(error)
        }
        do {
            let card = try context.connect(reader: status.name)
            let atr = card.atr.isEmpty ? status.atr : card.atr
            let transport = try await ReaderTransport.open(channel: PCSCChannel(card: card), readerName: status.name, atr: atr)
            return ConnectedTag(card: card, transport: transport)
        } catch let error as PCSCError {
            throw commandError(error)
        } catch TransportError.tagRemoved {
            throw CommandError(.ioError, "the tag left the reader before it could be read; hold it still on the reader and try again.")
        } catch let TransportError.unsupported(detail) {
            throw CommandError(.unavailable, detail + ".")
        } catch let error as TransportError {
            throw CommandError(.ioError, "the reader could not talk to the tag (\(error)); hold it still on the reader and try again.")
        }
    }

    static func commandError(_ error: PCSCError) -> CommandError {
        switch error {
        case .serviceNotRunning:
            return CommandError(
                .unavailable,
                "pcscd is not running; start it with 'sudo systemctl start pcscd' (or run '/usr/sbin/pcscd') and try again.")
        case .noReaders:
            return CommandError(.unavailable, "no PC/SC reader is connected; plug in a contactless reader (e.g. ACR1552U) and try again.")
        case .unknownReader(let name, let available):
            return CommandError(.unavailable, "no reader matches '\(name)'; connected readers: \(available.joined(separator: ", ")).")
        case .timeout, .noCard:
            return CommandError(.unavailable, "there is no tag on the reader; hold the tag flat on the reader and try again.")
        case .cardRemoved:
            return CommandError(.ioError, "the tag left the reader; hold it still on the reader and try again.")
        case .unavailable(let detail):
            return CommandError(.unavailable, "PC/SC is not available (\(detail)).")
        case .failure:
            return CommandError(.failure, error.description + ".")
        }
    }
}
