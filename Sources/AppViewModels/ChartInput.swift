import ColdChain
import Foundation
import LoggerFormats
import TempChart

/// Everything the result screen's chart depends on. Two equal inputs give the same picture,
/// which is what lets the chart view keep its rendered image until the data, the size or
/// the appearance change (the app draws it through Core Graphics).
public struct ChartInput: Equatable, Sendable {
    public var series: ChartSeries
    public var lowerLimit: Double?
    public var upperLimit: Double?
    public var excursions: [ChartExcursion]
    public var timeZoneIdentifier: String
    public var language: ReportLanguage

    public init(log: TemperatureLog, assessment: Assessment, language: ReportLanguage) {
        series = ChartSeries(log: log)
        lowerLimit = assessment.band.low?.limit
        upperLimit = assessment.band.high?.limit
        excursions = assessment.excursions.map { ChartExcursion($0) }
        timeZoneIdentifier = assessment.timeZone.identifier
        self.language = language
    }

    public static func == (a: ChartInput, b: ChartInput) -> Bool {
        a.series.interval == b.series.interval
            // The same log's samples (or arrays) at once, without making their arrays.
            && (a.series.sharesPoints(with: b.series)
                // NaN marks gaps; compare bit patterns so equal data stay equal.
                || (a.series.times == b.series.times && a.series.values.elementsEqual(b.series.values) { $0.bitPattern == $1.bitPattern }))
            && a.lowerLimit == b.lowerLimit && a.upperLimit == b.upperLimit
            && a.excursions == b.excursions && a.timeZoneIdentifier == b.timeZoneIdentifier && a.language == b.language
    }

    /// The chart laid out in `frame` with `theme`, its text sizes times `textScale`.
    public func model(frame: ChartRect, theme: ChartTheme, pixelDensity: Double, textScale: Double = 1, title: String? = nil) -> ChartModel {
        var spec = ChartSpec(
            series: series, lowerLimit: lowerLimit, upperLimit: upperLimit, excursions: excursions,
            timeZone: TimeZone(identifier: timeZoneIdentifier) ?? .current, language: language,
            theme: theme, frame: frame, pixelDensity: pixelDensity, title: title)
        spec.textScale = textScale
        return ChartModel(spec)
    }
}
