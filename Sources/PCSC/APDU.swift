import Foundation
import NFCTags

/// Carries command APDUs to a reader (or to something that answers like one) and returns the
/// response APDUs (data followed by SW1 SW2).
public protocol APDUChannel: Sendable {
    /// Sends one command APDU and waits at most `timeout` for the response APDU.
    /// - Throws: `TransportError` (`.tagRemoved` when the tag left, `.timeout`).
    func transmit(_ apdu: Data, timeout: Duration) async throws -> Data
}

/// Status words the pseudo-APDUs use (ISO 7816-4 and PC/SC Part 3).
enum StatusWord {
    static let success: [UInt8] = [0x90, 0x00]
    static let noInformation: [UInt8] = [0x63, 0x00]
    static let noResponseFromTag: [UInt8] = [0x64, 0x01]
    static let wrongLength: [UInt8] = [0x67, 0x00]
    static let notSupported: [UInt8] = [0x6A, 0x81]
    static let notFound: [UInt8] = [0x6A, 0x82]
    static let wrongParameters: [UInt8] = [0x6B, 0x00]
    static let instructionNotSupported: [UInt8] = [0x6D, 0x00]
    static let classNotSupported: [UInt8] = [0x6E, 0x00]
}

/// A response APDU split into data and status word.
struct ResponseAPDU: Sendable, Equatable {
    var data: [UInt8]
    var sw1: UInt8
    var sw2: UInt8

    /// - Throws: `TransportError.linkFailure` when the response is shorter than a status word.
    init(_ bytes: Data) throws {
        guard bytes.count >= 2 else {
            throw TransportError.linkFailure("the reader answered \(bytes.count) byte(s), less than a status word")
        }
        let all = [UInt8](bytes)
        data = Array(all.dropLast(2))
        sw1 = all[all.count - 2]
        sw2 = all[all.count - 1]
    }

    var isSuccess: Bool { sw1 == 0x90 && sw2 == 0x00 }
    var statusText: String { String(format: "%02X %02X", sw1, sw2) }
}

/// BER-TLV as used by the PC/SC Part 3 transparent session (one-byte tags, lengths in the
/// short, 81 and 82 forms).
enum BERTLV {
    static func encode(tag: UInt8, value: [UInt8]) -> [UInt8] {
        var out = [tag]
        if value.count < 0x80 {
            out.append(UInt8(value.count))
        } else if value.count <= 0xFF {
            out += [0x81, UInt8(value.count)]
        } else {
            out += [0x82, UInt8(value.count >> 8), UInt8(value.count & 0xFF)]
        }
        return out + value
    }

    /// Splits a sequence of TLVs. Returns `nil` when a length runs past the end.
    static func decode(_ bytes: [UInt8]) -> [(tag: UInt8, value: [UInt8])]? {
        var items: [(tag: UInt8, value: [UInt8])] = []
        var index = 0
        while index < bytes.count {
            let tag = bytes[index]
            index += 1
            guard index < bytes.count else { return nil }
            var length = Int(bytes[index])
            index += 1
            if length == 0x81 || length == 0x82 {
                let count = length & 0x7F
                guard index + count <= bytes.count else { return nil }
                length = bytes[index..<index + count].reduce(0) { $0 << 8 | Int($1) }
                index += count
            } else if length > 0x82 {
                return nil
            }
            guard index + length <= bytes.count else { return nil }
            items.append((tag, Array(bytes[index..<index + length])))
            index += length
        }
        return items
    }
}
