import Foundation
import TestSupport

@testable import NDEF

/// One generated record: the record and the typed content a decode must give back.
struct GeneratedRecord {
    var record: NDEFRecord
    var content: NDEFRecordContent
}

enum Generate {
    static let alphabets: [[Character]] = [
        Array("abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789.,!?"),
        Array("äöüßéèçñÅØ€£¥"),
        Array("温度記録冷蔵チェーン"),
        Array("🧊🌡️❄️👍🏽"),
    ]

    static func bytes(_ count: Int, _ rng: inout SeededGenerator) -> Data {
        Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) })
    }

    static func text(_ rng: inout SeededGenerator, maxLength: Int = 40) -> String {
        let alphabet = alphabets.randomElement(using: &rng) ?? alphabets[0]
        let length = Int.random(in: 0...maxLength, using: &rng)
        return String((0..<length).map { _ in alphabet.randomElement(using: &rng) ?? "a" })
    }

    static let languages = ["en", "de", "fr", "pt-BR", "zh-Hans", "ja", "x-klingon", "EN-gb", "i"]

    static func textRecord(_ rng: inout SeededGenerator, language: String? = nil) -> TextRecord {
        let layouts: [TextRecord.UTF16Layout] = [.bigEndianWithBOM, .littleEndianWithBOM, .bigEndianWithoutBOM]
        let utf16 = Bool.random(using: &rng)
        var text = TextRecord(
            text: self.text(&rng), language: language ?? languages.randomElement(using: &rng) ?? "en",
            encoding: utf16 ? .utf16 : .utf8)
        if utf16 { text.utf16Layout = layouts.randomElement(using: &rng) ?? .bigEndianWithBOM }
        return text
    }

    static func uri(_ rng: inout SeededGenerator) -> String {
        let prefix = URIRecord.prefixes.randomElement(using: &rng) ?? ""
        return prefix + "example.com/" + text(&rng, maxLength: 20).replacingOccurrences(of: " ", with: "_")
    }

    static let mimeTypes = [
        "application/json", "text/plain", "image/png", "application/vnd.coldtap.log+json",
        "text/plain; charset=utf-8", "video/mp4",
    ]

    static func smartPoster(_ rng: inout SeededGenerator) -> SmartPosterRecord {
        let languages = Self.languages.shuffled(using: &rng).prefix(Int.random(in: 0...4, using: &rng))
        return SmartPosterRecord(
            uri: uri(&rng), titles: languages.map { textRecord(&rng, language: $0) },
            action: Bool.random(using: &rng) ? SmartPosterRecord.Action.allCases.randomElement(using: &rng) : nil,
            size: Bool.random(using: &rng) ? UInt32.random(in: 0...UInt32.max, using: &rng) : nil,
            targetType: Bool.random(using: &rng) ? "text/html" : nil,
            icons: Bool.random(using: &rng) ? [.init(mimeType: "image/png", data: bytes(Int.random(in: 0...300, using: &rng), &rng))] : [])
    }

    static func record(_ rng: inout SeededGenerator) -> GeneratedRecord {
        let payloadLength =
            Int.random(in: 0...10, using: &rng) == 0
            ? Int.random(in: 256...70_000, using: &rng)
            : Int.random(in: 0...300, using: &rng)
        var generated: GeneratedRecord
        switch Int.random(in: 0..<9, using: &rng) {
        case 0:
            let text = textRecord(&rng)
            generated = GeneratedRecord(record: text.record, content: .text(text))
        case 1:
            let uri = URIRecord(uri: uri(&rng))
            generated = GeneratedRecord(record: uri.record, content: .uri(uri))
        case 2:
            let poster = smartPoster(&rng)
            generated = GeneratedRecord(record: poster.record, content: .smartPoster(poster))
        case 3:
            let mime = MIMERecord(mimeType: mimeTypes.randomElement(using: &rng) ?? "text/plain", data: bytes(payloadLength, &rng))
            generated = GeneratedRecord(record: mime.record, content: .mime(mime))
        case 4:
            let external = ExternalRecord(
                domain: "example.com", name: "temp\(Int.random(in: 0...9, using: &rng))",
                payload: bytes(payloadLength, &rng))
            generated = GeneratedRecord(record: external.record, content: .external(external))
        case 5:
            let absolute = AbsoluteURIRecord(
                uri: "https://example.com/schema/v\(Int.random(in: 1...9, using: &rng))",
                payload: bytes(payloadLength, &rng))
            generated = GeneratedRecord(record: absolute.record, content: .absoluteURI(absolute))
        case 6:
            return GeneratedRecord(record: EmptyRecord().record, content: .empty)
        case 7:
            let unknown = UnknownRecord(payload: bytes(payloadLength, &rng))
            generated = GeneratedRecord(record: unknown.record, content: .unknown(unknown))
        default:
            let record = NDEFRecord(tnf: .wellKnown, type: "Hs", payload: bytes(payloadLength, &rng))
            generated = GeneratedRecord(record: record, content: .otherWellKnown("Hs"))
        }
        if Bool.random(using: &rng) {
            generated.record.id = bytes(Int.random(in: 1...255, using: &rng), &rng)
        }
        return generated
    }

    static func message(_ rng: inout SeededGenerator, maxRecords: Int = 5) -> [GeneratedRecord] {
        (0..<Int.random(in: 1...maxRecords, using: &rng)).map { _ in record(&rng) }
    }
}
