import ColdTapBase
import Foundation

/// GS1 identifiers of places and assets as an EPCIS document should carry them (docs/epcis.md,
/// "Naming a site and its loggers"). The CBV 2.0 event hash rewrites every EPC URN and every
/// GS1 Digital Link to the canonical Digital Link on `id.gs1.org` before hashing; ColdTap
/// keeps and writes that canonical form, so that the text of an event is the text its hash
/// was made from.
public enum EPCISIdentifier {
    /// Why a URI is not taken as a site's or logger's identifier.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The canonical form of `uri`: an SGLN (`urn:epc:id:sgln:CP.LOC.EXT`) becomes
    /// `https://id.gs1.org/414/GLN[/254/EXT]`, a GIAI (`urn:epc:id:giai:CP.ASSET`)
    /// `https://id.gs1.org/8004/CPASSET`; a Digital Link must already be canonical (on
    /// `https://id.gs1.org/`, numeric keys, no query); any other absolute URI stays as given.
    /// - Throws: `Refusal` naming the form to write instead.
    public static func canonical(_ uri: String) throws(Refusal) -> String {
        let lower = uri.lowercased()
        if lower.hasPrefix("urn:epc:id:sgln:") { return try sgln(String(uri.dropFirst("urn:epc:id:sgln:".count)), uri) }
        if lower.hasPrefix("urn:epc:id:giai:") { return try giai(String(uri.dropFirst("urn:epc:id:giai:".count)), uri) }
        if lower.hasPrefix("urn:epc:") {
            throw Refusal(description: "'\(uri.prefix(80))': of the EPC URNs ColdTap takes an SGLN or a GIAI; write others as their GS1 Digital Link.")
        }
        if let key = digitalLinkKey(in: uri) {
            guard uri.hasPrefix("https://id.gs1.org/\(key)/"), !uri.contains("?"), !uri.contains("#"), Int(key) != nil else {
                throw Refusal(
                    description:
                        "'\(uri.prefix(80))' is a GS1 Digital Link not in its canonical form; write it as https://id.gs1.org/ followed by the numeric key (414/GLN, 8004/GIAI), without a query."
                )
            }
        }
        return uri
    }

    /// Keys a Digital Link names by number or short name (what the event hash rewrites).
    static let digitalLinkKeys: Set<String> = [
        "01", "gtin", "8006", "itip", "8010", "cpid", "414", "gln", "417", "party", "8017", "gsrnp", "8018", "gsrn", "255", "gcn", "00", "sscc",
        "253", "gdti", "401", "ginc", "402", "gsin", "8003", "grai", "8004", "giai",
    ]

    /// The first path segment of an http(s) URI that names a GS1 key followed by a value
    /// starting with four digits, as a Digital Link does; `nil` for any other URI.
    static func digitalLinkKey(in uri: String) -> String? {
        let lower = uri.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return nil }
        let path = uri.split(separator: "?", maxSplits: 1)[0].split(separator: "#", maxSplits: 1)[0]
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for index in segments.indices.dropFirst(3).dropLast() where digitalLinkKeys.contains(segments[index]) {
            if segments[index + 1].prefix(4).allSatisfy(\.isASCIIDigit), segments[index + 1].count >= 4 { return segments[index] }
        }
        return nil
    }

    /// Characters an EPC URN's free-text part may hold (GS1 Tag Data Standard's character set
    /// 82 as EPC URNs write it: percent escapes aside).
    private static func isEPCText(_ text: Substring, maxLength: Int) -> Bool {
        let allowed = Set("!'()*+,-.0123456789:;=ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz%")
        return (1...maxLength).contains(text.count) && text.allSatisfy(allowed.contains)
    }

    /// What a Digital Link percent-encodes of an EPC URN's text (the standard's table of
    /// characters that must be escaped in a web URI, those an EPC URN may hold).
    private static func webEncoded(_ text: Substring) -> String {
        var out = ""
        for character in text {
            switch character {
            case "!": out += "%21"
            case "(": out += "%28"
            case ")": out += "%29"
            case "*": out += "%2A"
            case "+": out += "%2B"
            case ",": out += "%2C"
            case ":": out += "%3A"
            default: out.append(character)
            }
        }
        return out
    }

    private static func companyPrefix(_ part: Substring) -> Bool { (6...12).contains(part.count) && part.allSatisfy(\.isASCIIDigit) }

    private static func sgln(_ body: String, _ uri: String) throws(Refusal) -> String {
        let parts = body.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, companyPrefix(parts[0]), parts[1].allSatisfy(\.isASCIIDigit), parts[0].count + parts[1].count == 12,
            isEPCText(parts[2], maxLength: 20)
        else {
            throw Refusal(
                description: "'\(uri.prefix(80))' is not an SGLN: urn:epc:id:sgln:PREFIX.LOCATION.EXTENSION, prefix and location 12 digits together.")
        }
        let gln = String(parts[0] + parts[1])
        guard let check = GS1CheckDigit.of(gln[...]) else {
            throw Refusal(description: "'\(uri.prefix(80))' is not an SGLN: its prefix and location must be digits.")
        }
        let base = "https://id.gs1.org/414/\(gln)\(check)"
        return parts[2] == "0" ? base : base + "/254/" + webEncoded(parts[2])
    }

    private static func giai(_ body: String, _ uri: String) throws(Refusal) -> String {
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, companyPrefix(parts[0]), isEPCText(parts[1], maxLength: 30 - parts[0].count) else {
            throw Refusal(description: "'\(uri.prefix(80))' is not a GIAI: urn:epc:id:giai:PREFIX.ASSET, at most 30 characters after the scheme.")
        }
        return "https://id.gs1.org/8004/" + parts[0] + webEncoded(parts[1])
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
