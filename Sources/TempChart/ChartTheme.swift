import Foundation

/// Colours of the chart and the report. `light` is for paper and bright screens; `dark`
/// is what a phone shows in dark mode.
public struct ChartTheme: Sendable, Equatable {
    public var name: String
    public var background: ChartColor
    public var plotBackground: ChartColor
    public var text: ChartColor
    public var secondaryText: ChartColor
    public var grid: ChartColor
    public var axis: ChartColor
    /// The allowed band's shading.
    public var band: ChartColor
    /// Limit lines and their labels.
    public var limit: ChartColor
    /// The curve within limits.
    public var curve: ChartColor
    /// The curve beyond a limit and the excursion marks.
    public var beyond: ChartColor
    /// Shading of time without data.
    public var gap: ChartColor
    /// Faint shading of excursion time spans.
    public var excursionShade: ChartColor
    /// The lot journey's largest consumers: a fill and its edges and label, Okabe–Ito orange
    /// and vermilion, apart in hue and lightness from the band's green, the unknown time's
    /// hatched grey and the curve's blue, also for colour-blind readers.
    public var consumer: ChartColor = ChartColor(hex: 0xE69F00, alpha: 0.38)
    public var consumerMark: ChartColor = ChartColor(hex: 0xB34F00)
    public var pass: ChartColor
    public var fail: ChartColor
    public var inconclusive: ChartColor
    /// Text drawn on a verdict banner.
    public var onBanner: ChartColor
    /// Alternate table rows in the report.
    public var tableStripe: ChartColor

    /// Light theme: white background, blue curve, red beyond limits.
    public static let light = ChartTheme(
        name: "light",
        background: ChartColor(hex: 0xFFFFFF), plotBackground: ChartColor(hex: 0xFFFFFF),
        text: ChartColor(hex: 0x1F2328), secondaryText: ChartColor(hex: 0x59636E),
        grid: ChartColor(hex: 0xE4E7EB), axis: ChartColor(hex: 0x8C959F),
        band: ChartColor(hex: 0x2DA44E, alpha: 0.13), limit: ChartColor(hex: 0xBC4C00),
        curve: ChartColor(hex: 0x0969DA), beyond: ChartColor(hex: 0xD1242F),
        gap: ChartColor(hex: 0x8C959F, alpha: 0.18), excursionShade: ChartColor(hex: 0xD1242F, alpha: 0.07),
        pass: ChartColor(hex: 0x1A7F37), fail: ChartColor(hex: 0xCF222E), inconclusive: ChartColor(hex: 0x9A6700),
        onBanner: ChartColor(hex: 0xFFFFFF), tableStripe: ChartColor(hex: 0xF3F5F7))

    /// Dark theme: near-black background, light text, brighter curve colours.
    public static let dark = ChartTheme(
        name: "dark",
        background: ChartColor(hex: 0x0D1117), plotBackground: ChartColor(hex: 0x0D1117),
        text: ChartColor(hex: 0xE6EDF3), secondaryText: ChartColor(hex: 0x9198A1),
        grid: ChartColor(hex: 0x262C36), axis: ChartColor(hex: 0x656C76),
        band: ChartColor(hex: 0x3FB950, alpha: 0.16), limit: ChartColor(hex: 0xF0883E),
        curve: ChartColor(hex: 0x58A6FF), beyond: ChartColor(hex: 0xFF6B6B),
        gap: ChartColor(hex: 0x9198A1, alpha: 0.20), excursionShade: ChartColor(hex: 0xFF6B6B, alpha: 0.10),
        consumer: ChartColor(hex: 0xE69F00, alpha: 0.34), consumerMark: ChartColor(hex: 0xF5B74A),
        pass: ChartColor(hex: 0x238636), fail: ChartColor(hex: 0xDA3633), inconclusive: ChartColor(hex: 0x9E6A03),
        onBanner: ChartColor(hex: 0xFFFFFF), tableStripe: ChartColor(hex: 0x161B22))

    /// `light` or `dark` by name; nil for anything else.
    public static func named(_ name: String) -> ChartTheme? {
        switch name.lowercased() {
        case "light": return .light
        case "dark": return .dark
        default: return nil
        }
    }
}
