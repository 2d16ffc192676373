import Foundation
import NDEF

/// The SmarTag formats as auto-detection sees an NDEF message: an external record
/// `st.com:smartag` whose payload byte 0 is the protocol (1 or 2, docs/smartag.md §2).
/// A message holds only what its lengths declare; a whole tag image is decoded through
/// `LoggerDecoder.decode(smarTag:options:)` instead.
struct SmarTagFormat: LoggerFormatDecoder {
    let generation: Int
    var name: String { generation == 1 ? SmarTag1Log.formatName : SmarTag2Log.formatName }
    /// The record type and protocol byte are the logger's own structure.
    var detectionIsConclusive: Bool { true }

    func detect(_ message: NDEFMessage, options: DecodeOptions) -> Detection {
        let records = message.records.filter {
            $0.tnf == .external && String(decoding: $0.type, as: UTF8.self).lowercased() == SmarTagImage.recordType
        }
        guard let record = records.first else { return .refused("no external record '\(SmarTagImage.recordType)'") }
        guard let protocolByte = record.payload.first else { return .refused("its '\(SmarTagImage.recordType)' record is empty") }
        guard Int(protocolByte) == generation else {
            return .refused("its '\(SmarTagImage.recordType)' record has protocol \(protocolByte), not \(generation)")
        }
        return .accepted("an external record '\(SmarTagImage.recordType)' with protocol byte \(generation)")
    }

    func decode(_ message: NDEFMessage, options: DecodeOptions) throws -> TemperatureLog {
        let record = message.records.first {
            $0.tnf == .external && String(decoding: $0.type, as: UTF8.self).lowercased() == SmarTagImage.recordType
        }
        guard let record, let image = SmarTagImage(record: record), image.generation == generation else {
            throw LoggerFormatError(
                .recordNotFound, format: name,
                "the message holds no '\(SmarTagImage.recordType)' record with protocol \(generation)")
        }
        return try SmarTagFormat.decode(image, options: options)
    }

    static func decode(_ image: SmarTagImage, options: DecodeOptions) throws -> TemperatureLog {
        image.generation == 1 ? try SmarTag1Log.decode(image, options: options) : try SmarTag2Log.decode(image, options: options)
    }
}

extension LoggerDecoder {
    /// Decodes a SmarTag from its bytes (a tag memory image, or a bare NDEF message whose
    /// SmarTag2 record a strict parser refuses), bounded by the memory layout rather than by
    /// the NDEF lengths (docs/smartag.md §4.5).
    /// - Throws: `.unknownLogger`-free `LoggerFormatError`s: `.inconsistent` when the caller
    ///   forced another format onto a SmarTag, or a field contradicts the layout (naming its
    ///   tag-memory address), `.truncated` when a field lies outside the bytes.
    public static func decode(smarTag image: SmarTagImage, options: DecodeOptions) throws -> TemperatureLog {
        let name = image.formatName
        var log: TemperatureLog
        switch options.logger {
        case .named(let forced)?:
            guard forced.lowercased() == name else {
                throw LoggerFormatError(
                    .inconsistent, format: forced,
                    "the tag holds an ST SmarTag record of protocol \(image.generation) (\(name)), not a \(forced) log")
            }
            log = try SmarTagFormat.decode(image, options: options)
            log.detection = .forced(format: name)
        case .descriptor(let descriptor)?:
            throw LoggerFormatError(
                .inconsistent, format: descriptor.name,
                "the tag holds an ST SmarTag record (\(name)); a logger descriptor cannot decode it")
        case nil:
            log = try SmarTagFormat.decode(image, options: options)
            let mb = image.messageBegin ? "" : " (message-begin bit cleared, as its firmware writes it)"
            log.detection = .detected(
                format: name,
                reason: "the \(image.source.rawValue) holds an external record '\(SmarTagImage.recordType)'\(mb) with protocol byte \(image.generation)")
        }
        checkTimes(&log, options: options)
        return log
    }
}
