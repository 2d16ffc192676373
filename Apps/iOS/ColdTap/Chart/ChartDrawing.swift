import ColdChain
import CoreGraphics
import Foundation
import LoggerFormats
import TempChart

/// Everything the chart depends on. Two equal inputs give the same picture, which is what
/// lets the view keep its rendered image until the data, the size or the appearance change.
struct ChartInput: Equatable, Sendable {
    var series: ChartSeries
    var lowerLimit: Double?
    var upperLimit: Double?
    var excursions: [ChartExcursion]
    var timeZoneIdentifier: String
    var language: ReportLanguage

    init(log: TemperatureLog, assessment: Assessment, language: ReportLanguage) {
        series = ChartSeries(log: log)
        lowerLimit = assessment.band.low?.limit
        upperLimit = assessment.band.high?.limit
        excursions = assessment.excursions.map { ChartExcursion($0) }
        timeZoneIdentifier = assessment.timeZone.identifier
        self.language = language
    }

    static func == (a: ChartInput, b: ChartInput) -> Bool {
        a.series.times == b.series.times && a.series.interval == b.series.interval
            // NaN marks gaps; compare bit patterns so equal data stay equal.
            && a.series.values.elementsEqual(b.series.values) { $0.bitPattern == $1.bitPattern }
            && a.lowerLimit == b.lowerLimit && a.upperLimit == b.upperLimit
            && a.excursions == b.excursions && a.timeZoneIdentifier == b.timeZoneIdentifier && a.language == b.language
    }

    /// The chart laid out in `frame` with `theme`.
    func model(frame: ChartRect, theme: ChartTheme, pixelDensity: Double, title: String? = nil) -> ChartModel {
        ChartModel(
            ChartSpec(
                series: series, lowerLimit: lowerLimit, upperLimit: upperLimit, excursions: excursions,
                timeZone: TimeZone(identifier: timeZoneIdentifier) ?? .current, language: language,
                theme: theme, frame: frame, pixelDensity: pixelDensity, title: title))
    }

    /// Draws the chart into a new bitmap of `size` points at `scale` pixels per point.
    func image(size: CGSize, scale: Double, dark: Bool) -> CGImage? {
        let theme: ChartTheme = dark ? .dark : .light
        let frame = ChartRect(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
        let model = model(frame: frame, theme: theme, pixelDensity: scale)
        return CoreGraphicsCanvas.image(width: frame.width, height: frame.height, scale: scale) { canvas in
            canvas.fill(.rect(frame), color: theme.background)
            ChartRenderer.draw(model, on: canvas)
        }
    }
}

extension ReportLanguage {
    /// The report language matching the app's current localization.
    static var appLanguage: ReportLanguage {
        let preferred = Bundle.main.preferredLocalizations.first ?? "en"
        if preferred.hasPrefix("zh") { return .simplifiedChinese }
        if preferred.hasPrefix("ja") { return .japanese }
        return .english
    }
}
