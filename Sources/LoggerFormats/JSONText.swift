import Foundation

/// JSON files users write (logger descriptors here, alarm profiles in ColdChain).
public enum JSONText {
    /// Where JSON text goes wrong, as Foundation's parser says it ("Invalid value around
    /// character 12", "Unexpected end of file during JSON parse"), without a closing full
    /// stop so that it fits inside a sentence; `nil` when the text parses (a decoder that
    /// refused it then refused a value, e.g. a number too large for an integer field).
    /// `JSONDecoder` on Linux says only "The given data was not valid JSON".
    public static func syntaxProblem(in json: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
            return nil
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            return detail.hasSuffix(".") ? String(detail.dropLast()) : detail
        }
    }
}
