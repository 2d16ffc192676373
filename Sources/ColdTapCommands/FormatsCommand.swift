import Foundation
import LoggerFormats

/// `coldtap formats`: the built-in logger formats, and the language of logger descriptors
/// (`--logger FILE.json`), so that a user without the source finds both.
public enum FormatsCommand: Command {
    static let jsonOption = OptionSpec.flag("--json", help: "print the built-in formats as JSON (each descriptor as --logger FILE.json takes it)")

    public static let name = "formats"
    public static let forms = [
        CommandForm(
            summary: "list the built-in logger formats and explain the logger descriptor language (--logger FILE.json)",
            options: [jsonOption])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let json = arguments.isSet(jsonOption)
        _ = try arguments.positionals(max: 0)
        try arguments.finish()
        if json {
            var entries: [JSONValue] = [
                .object([
                    ("name", .string("cupltag")), ("aliases", .array([.string("cupltag-rh")])),
                    ("description", .string(cuplTagDescription)), ("descriptor", .null),
                ]),
                .object([
                    ("name", .string("nhs31xx")), ("aliases", .array([])),
                    ("description", .string(nhsDescription)), ("descriptor", .null),
                ]),
                .object([
                    ("name", .string("smartag1")), ("aliases", .array([])),
                    ("description", .string(smarTag1Description)), ("descriptor", .null),
                ]),
                .object([
                    ("name", .string("smartag2")), ("aliases", .array([])),
                    ("description", .string(smarTag2Description)), ("descriptor", .null),
                ]),
            ]
            for format in berlingerFormats {
                entries.append(
                    .object([
                        ("name", .string(format.name)), ("aliases", .array([])),
                        ("description", .string(berlingerDescription(format))), ("descriptor", .null),
                    ]))
            }
            for name in LoggerDecoder.builtInNames where !codedFormats.contains(name) {
                let descriptor = try builtIn(name)
                let encoded = try JSONEncoder().encode(descriptor)
                entries.append(
                    .object([
                        ("name", .string(name)), ("aliases", .array([])),
                        ("description", .string(descriptor.description ?? "")),
                        ("descriptor", try JSONValue(json: encoded)),
                    ]))
            }
            console.print(JSONValue.array(entries).serialized())
            return
        }
        var lines = ["Built-in logger formats (auto-detection tries them in this order; --logger NAME forces one):", ""]
        lines.append("  cupltag         cuplTag (temperature; cupltag-rh: temperature and humidity): " + cuplTagDescription)
        lines.append("  nhs31xx         NXP NHS3100/NHS3152 (tlogger firmware): " + nhsDescription)
        lines.append("  smartag1        ST STEVAL-SMARTAG1: " + smarTag1Description)
        lines.append("  smartag2        ST STEVAL-SMARTAG2: " + smarTag2Description)
        for name in LoggerDecoder.builtInNames where !codedFormats.contains(name) {
            let descriptor = try builtIn(name)
            let padded = name + String(repeating: " ", count: max(1, 16 - name.count))
            lines.append(
                "  \(padded)" + [descriptor.vendor, descriptor.model].compactMap { $0 }.joined(separator: " ")
                    + (descriptor.description.map { ": " + $0 } ?? ""))
        }
        lines.append("")
        lines.append("Text reports (a file, recognised by its first line; never tried on a tag's message):")
        lines.append("")
        for format in berlingerFormats {
            lines.append("  " + format.name + String(repeating: " ", count: max(1, 16 - format.name.count)) + berlingerDescription(format))
        }
        lines.append("")
        lines.append(descriptorLanguage)
        console.print(lines.joined(separator: "\n"))
    }

    static let berlingerFormats: [TemperatureLog.Format] = [.fridgeTag2, .fridgeTag2L, .fridgeTagUltraLow, .qTagCLmDoc]

    static func berlingerDescription(_ format: TemperatureLog.Format) -> String {
        BerlingerDecoder.summary(of: format)
            + "; its times carry no zone, so --logger-tz ZONE is required; the device signature is checked (docs/berlinger.md)"
    }

    /// The built-in formats decoded by code rather than by a descriptor.
    static let codedFormats: Set<String> = ["cupltag", "nhs31xx", "smartag1", "smartag2"]

    static let smarTag1Description =
        "an ST25DV64K whose external record 'st.com:smartag' has protocol 1; wall-clock dates taken as UTC unless --logger-tz says their zone (docs/smartag.md)"

    static let smarTag2Description =
        "an ST25DV64K whose external record 'st.com:smartag' has protocol 2; the ring read from the tag memory in time order, not bounded by the NDEF lengths (docs/smartag.md)"

    static let nhsDescription =
        "a logger that answers commands written as NDEF messages; 'coldtap read' runs the readout, decode takes its exchange transcript (--save-dump)"

    static let cuplTagDescription =
        "a URI record (or a bare URL) with the parameters t, s, v, x, q; MD5 or HMAC-MD5 checked with --secret; times from the read time"

    static func builtIn(_ name: String) throws -> LoggerDescriptor {
        do {
            return try LoggerDecoder.builtInDescriptor(named: name)
        } catch let error as LoggerFormatError {
            throw CommandError(.failure, HintWording.describe(error) + ".")
        }
    }

    /// The descriptor language, field by field (README.md has the same text).
    static let descriptorLanguage = """
        Logger descriptors (--logger FILE.json) describe a vendor's layout of its log in one NDEF record,
        so ColdTap decodes it without recompiling. 'coldtap formats --json' prints the built-in ones as
        examples. Offsets are bytes from the start of the record payload. Unknown keys, a sample area past
        the payload, a start time narrower than 4 bytes, and a log of no samples are errors (exit 65).

          name                  format name shown in the output (letters, digits, - _ .), required
          vendor, model, description
                                optional text for the log's identity
          record.match[]        the first record matching any entry carries the log, required:
                                  tnf (well-known | media | absolute-uri | external | unknown),
                                  typeContains (any case) or typeEquals
          header[]              fields: name, offset, width (1, 2, 3, 4, 8 bytes), signed (default false),
                                  endian (little | big; required above 1 byte), meaning, unit, units
            meaning             interval (unit: milliseconds | seconds (default) | minutes | hours; 0 = unknown)
                                interval-unit (units: raw value → seconds, e.g. {"0": 1, "1": 60})
                                start-time, newest-time (UNIX seconds; 4 or 8 bytes)
                                sample-count, newest-index (needs ringBuffer), ignore (kept in metadata)
          samples               required: offset, width (1–4), signed, endian, scale (°C per step, default 1),
                                  valueOffset (°C added, default 0), missing (raw values meaning "not taken")
          sensorRange           min, max in °C: values outside are flagged out-of-range and kept in place
          ringBuffer.capacity   slots of a ring buffer: once sample-count equals it, the oldest sample is
                                  the one after newest-index
          deviceInformation     a Text record of KEY=VALUE lines: intervalKeys, startKeys, newestKeys,
                                  serialKeys (key fragments, matched lower-cased without _ - . and spaces)
          timeBase              sources tried in order, required: header, text-record (ISO 8601 with offset,
                                  or start=<time>), device-information, read-time (last: the newest sample
                                  is taken as logged at the read time, and the times are estimates unless
                                  --read-time is given)
          detection             extra checks for auto-detection: plausibleStartTime, requireDeviceInformation
          integrityNote         what integrity.detail says (descriptor formats are unverified)

        Without a sample-count field every whole sample in the record is decoded. When the interval is 0
        or absent and the device information gives none, --interval SECONDS supplies it.

        Example (a 2-byte interval in seconds, then signed 16-bit samples in hundredths of a degree):
          { "name": "my-logger",
            "record": { "match": [ { "tnf": "media", "typeContains": "temp" } ] },
            "header": [ { "name": "interval", "offset": 0, "width": 2, "endian": "little", "meaning": "interval" } ],
            "samples": { "offset": 2, "width": 2, "signed": true, "endian": "little", "scale": 0.01 },
            "sensorRange": { "min": -40, "max": 85 },
            "timeBase": ["read-time"] }
        """
}

/// Any JSON document, read with JSONDecoder so that true/false stay booleans.
private struct AnyJSON: Decodable {
    let value: JSONValue

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            value = .object(
                try object.allKeys.map(\.stringValue).sorted().map { name in
                    (name, try object.decode(AnyJSON.self, forKey: Key(stringValue: name)).value)
                })
        } else if var list = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !list.isAtEnd { items.append(try list.decode(AnyJSON.self).value) }
            value = .array(items)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                value = .null
            } else if let bool = try? single.decode(Bool.self) {
                value = .bool(bool)
            } else if let int = try? single.decode(Int.self) {
                value = .int(int)
            } else if let double = try? single.decode(Double.self) {
                value = .number(double)
            } else {
                value = .string(try single.decode(String.self))
            }
        }
    }
}

extension JSONValue {
    /// The JSON text as a value, objects with their keys sorted.
    init(json data: Data) throws {
        self = try JSONDecoder().decode(AnyJSON.self, from: data).value
    }
}
