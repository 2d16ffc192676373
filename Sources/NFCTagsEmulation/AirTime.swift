import Foundation
import NFCTags

/// Modeled air time of tag exchanges, from the frame timings of ISO/IEC 14443-A (106 kbit/s)
/// and ISO/IEC 15693 (high data rate, 1-out-of-4 coding). All figures are microseconds.
///
/// The model reproduces NXP's datasheet figures (READ command 368 µs, READ answer 1548 µs)
/// and the ISO 15693 worked figures in the tag notes (a non-addressed READ_SINGLE_BLOCK of
/// 4 bytes ≈ 4.67 ms, READ_MULTIPLE_BLOCKS of 32 blocks ≈ 42.4 ms).
public enum AirTime {
    /// Carrier frequency in MHz.
    public static let carrierMHz = 13.56

    // MARK: ISO 14443-A

    /// One elementary time unit at 106 kbit/s: 128 carrier cycles ≈ 9.44 µs.
    public static let etu = 128.0 / carrierMHz
    /// Frame delay tag → reader after a reader frame: (9 × 128 + 84) / fc ≈ 91.2 µs.
    public static let iso14443TagResponseDelay = 1236.0 / carrierMHz
    /// Shortest delay before the reader's next frame: 1172 / fc ≈ 86.4 µs.
    public static let iso14443ReaderDelay = 1172.0 / carrierMHz
    /// NTAG21x EEPROM programming time for one WRITE, before the ACK (datasheet ≈ 4.1 ms).
    public static let type2WriteTime = 4100.0

    /// How long a reader waits for a NAK after SECTOR_SELECT packet 2 before taking the
    /// tag's silence as the passive ACK (≈ 1 ms).
    public static let type2PassiveACKWait = 1000.0

    /// Both packets of a Type 2 SECTOR_SELECT: `C2 FF` with its 4-bit ACK, then the 4-byte
    /// sector number followed by the passive-ACK wait.
    public static var type2SectorSelect: Double {
        iso14443Exchange(commandBytes: 2, answerBytes: nil) + iso14443ReaderFrame(bytes: 4 + 2) + type2PassiveACKWait
    }

    /// A reader frame of `bytes` bytes including the 2 CRC bytes: (9n + 3) etu.
    public static func iso14443ReaderFrame(bytes: Int) -> Double { Double(9 * bytes + 3) * etu }
    /// A tag frame of `bytes` bytes including the 2 CRC bytes: (9n + 2) etu.
    public static func iso14443TagFrame(bytes: Int) -> Double { Double(9 * bytes + 2) * etu }
    /// A 4-bit ACK/NAK frame: start bit, 4 data bits, end of communication.
    public static let iso14443ShortFrame = 6 * etu

    /// One complete ISO 14443-A exchange: the reader frame, the tag's frame delay, the
    /// answer and the reader's delay before its next frame.
    /// - Parameters:
    ///   - commandBytes: command length without CRC.
    ///   - answerBytes: answer length without CRC; `nil` for a 4-bit ACK/NAK.
    ///   - processing: extra time the tag needs before answering (WRITE programming).
    public static func iso14443Exchange(commandBytes: Int, answerBytes: Int?, processing: Double = 0) -> Double {
        let answer = answerBytes.map { iso14443TagFrame(bytes: $0 + 2) } ?? iso14443ShortFrame
        return iso14443ReaderFrame(bytes: commandBytes + 2) + iso14443TagResponseDelay + processing + answer
            + iso14443ReaderDelay
    }

    // MARK: ISO 15693 (high data rate)

    /// Reader → tag, 1-out-of-4 coding: 75.52 µs per 2 bits = 302.08 µs per byte.
    public static let iso15693ReaderByte = 302.08
    /// Reader SOF + EOF ≈ 113 µs (75.52 + 37.76).
    public static let iso15693ReaderSOFEOF = 113.28
    /// Tag → reader, high data rate, one subcarrier: 37.76 µs per bit = 302.08 µs per byte.
    public static let iso15693TagByte = 302.08
    /// Tag SOF + EOF ≈ 302 µs.
    public static let iso15693TagSOFEOF = 302.08
    /// Tag response delay t1 = 4352 / fc ≈ 320.9 µs.
    public static let iso15693T1 = 4352.0 / carrierMHz
    /// Shortest wait before the next request t2 = 4192 / fc ≈ 309.1 µs.
    public static let iso15693T2 = 4192.0 / carrierMHz
    /// Block programming time of a WRITE_SINGLE_BLOCK before the answer (typical EEPROM
    /// figure; ST25DV ≈ 5 ms per block).
    public static let type5WriteTime = 5000.0

    /// A request frame of `bytes` bytes including the 2 CRC bytes.
    public static func iso15693RequestFrame(bytes: Int) -> Double {
        Double(bytes) * iso15693ReaderByte + iso15693ReaderSOFEOF
    }
    /// A response frame of `bytes` bytes including the flags and the 2 CRC bytes.
    public static func iso15693ResponseFrame(bytes: Int) -> Double {
        Double(bytes) * iso15693TagByte + iso15693TagSOFEOF
    }

    /// One complete ISO 15693 exchange: request, t1, response, t2.
    /// - Parameters:
    ///   - commandBytes: request length without CRC (flags, code, [UID], parameters).
    ///   - answerBytes: response length without CRC (flags and data).
    ///   - processing: extra time before the answer (block programming).
    public static func iso15693Exchange(commandBytes: Int, answerBytes: Int, processing: Double = 0) -> Double {
        iso15693RequestFrame(bytes: commandBytes + 2) + iso15693T1 + processing
            + iso15693ResponseFrame(bytes: answerBytes + 2) + iso15693T2
    }

    /// Time spent on a request that gets no answer: the request, then the reader's wait.
    public static func unanswered(technology: TagTechnology, commandBytes: Int, wait: Double) -> Double {
        switch technology {
        case .iso14443A: return iso14443ReaderFrame(bytes: commandBytes + 2) + wait
        case .iso15693: return iso15693RequestFrame(bytes: commandBytes + 2) + wait
        }
    }
}

extension Duration {
    /// The duration in microseconds as a `Double`.
    var microseconds: Double {
        let parts = components
        return Double(parts.seconds) * 1_000_000 + Double(parts.attoseconds) / 1_000_000_000_000
    }
}

extension EmulatorCore {
    /// Modeled air time of one exchange in microseconds (`wait` for a silent tag).
    static func airTime(command: [UInt8], answer: EmulatedAnswer, technology: TagTechnology, wait: Double) -> Double {
        let write = isWrite(command, technology: technology)
        switch (technology, answer) {
        case (_, .silent):
            return AirTime.unanswered(technology: technology, commandBytes: command.count, wait: wait)
        case (.iso14443A, .ack), (.iso14443A, .nak):
            return AirTime.iso14443Exchange(
                commandBytes: command.count, answerBytes: nil,
                processing: write ? AirTime.type2WriteTime : 0)
        case (.iso14443A, .data(let bytes)):
            return AirTime.iso14443Exchange(commandBytes: command.count, answerBytes: bytes.count)
        case (.iso15693, _):
            let count = answer.bytes?.count ?? 1
            return AirTime.iso15693Exchange(
                commandBytes: command.count, answerBytes: count,
                processing: write ? AirTime.type5WriteTime : 0)
        }
    }
}
