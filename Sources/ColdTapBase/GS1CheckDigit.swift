/// The GS1 standard check digit (GTIN, GLN, SSCC, …): the digits weighted 3 and 1 alternately
/// from the right, summed, and the distance from that sum up to a multiple of ten.
public enum GS1CheckDigit {
    /// The check digit of `digits` (ASCII digits only, without their check digit); `nil` for
    /// anything else.
    public static func of(_ digits: Substring) -> Int? {
        var sum = 0
        for (offset, scalar) in digits.unicodeScalars.reversed().enumerated() {
            guard (0x30...0x39).contains(scalar.value) else { return nil }
            sum += Int(scalar.value - 0x30) * (offset % 2 == 0 ? 3 : 1)
        }
        return (10 - sum % 10) % 10
    }
}
