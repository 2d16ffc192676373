import Foundation

/// The one writer of a JSON string literal (RFC 8259 §7): what the station's and the
/// commands' JSON (`JSONValue`) and a product file written back (`Product.jsonText`) share.
public enum JSONStringLiteral {
    /// Appends `value` to `out` as a quoted JSON string: `"`, `\` and control characters
    /// escaped, everything else as it is.
    public static func write(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// `value` as a quoted JSON string.
    public static func quoted(_ value: String) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }
}
