import ColdChain
import Foundation

/// A time span beyond a limit, to mark on the time axis. Excursions are found by ColdChain
/// (`Assessment.excursions`, or `Assessor.excursions(in:band:)` without a profile); the
/// chart only draws them.
public struct ChartExcursion: Sendable, Equatable {
    public var start: Date
    public var end: Date
    public var direction: Direction

    public init(start: Date, end: Date, direction: Direction) {
        self.start = start
        self.end = end
        self.direction = direction
    }

    /// The span of one of ColdChain's excursions.
    public init(_ excursion: Excursion) {
        self.init(start: excursion.start, end: excursion.end, direction: excursion.direction)
    }
}

/// What to chart and how.
public struct ChartSpec: Sendable {
    public var series: ChartSeries
    /// Lower limit in °C (values below it are beyond), nil when there is none.
    public var lowerLimit: Double?
    /// Upper limit in °C (values above it are beyond), nil when there is none.
    public var upperLimit: Double?
    /// Excursions to mark on the time axis.
    public var excursions: [ChartExcursion]
    public var timeZone: TimeZone
    public var language: ReportLanguage
    public var theme: ChartTheme
    /// Where the chart goes on the canvas, in canvas units.
    public var frame: ChartRect
    /// Device pixels per canvas unit. M4 keeps four points per device pixel column; PDF
    /// output uses a finer grid (e.g. 4) so the vector curve stays exact when zoomed.
    public var pixelDensity: Double
    /// False draws every sample (for the pixel-identity check against M4).
    public var downsample: Bool
    /// An optional title drawn above the plot.
    public var title: String?
    /// Days a logger summarised itself (no readings): each drawn as its min–max band and mean.
    public var dailyRanges: [DailyRange] = []
    /// Multiplies every text size (the app's Dynamic Type setting, `ChartTextScale` in
    /// AppViewModels); 1 draws the sizes the frame's width gives.
    public var textScale: Double = 1

    public init(
        series: ChartSeries, lowerLimit: Double?, upperLimit: Double?, excursions: [ChartExcursion] = [],
        timeZone: TimeZone, language: ReportLanguage = .english, theme: ChartTheme = .light,
        frame: ChartRect, pixelDensity: Double = 1, downsample: Bool = true, title: String? = nil
    ) {
        self.series = series
        self.lowerLimit = lowerLimit
        self.upperLimit = upperLimit
        self.excursions = excursions
        self.timeZone = timeZone
        self.language = language
        self.theme = theme
        self.frame = frame
        self.pixelDensity = pixelDensity
        self.downsample = downsample
        self.title = title
    }
}

/// One day's range as a logger summarised it: the part of the day it covers, its minimum,
/// maximum and mean (°C).
public struct DailyRange: Sendable, Equatable {
    public var start: Date
    public var end: Date
    public var min: Double
    public var max: Double
    public var mean: Double

    public init(start: Date, end: Date, min: Double, max: Double, mean: Double) {
        self.start = start
        self.end = end
        self.min = min
        self.max = max
        self.mean = mean
    }
}

/// A summarised day on the plot: its span, the band from its minimum (`bottom`) to its
/// maximum (`top`) and its mean, in canvas coordinates.
public struct DayRangeMark: Sendable, Equatable {
    public var range: DailyRange
    public var x0: Double
    public var x1: Double
    public var top: Double
    public var bottom: Double
    public var mean: Double
    /// True when the band reaches beyond a limit.
    public var beyond: Bool
}

/// A horizontal line at a limit.
public struct RuleMark: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case upper, lower }
    public var kind: Kind
    /// °C.
    public var value: Double
    /// Canvas y.
    public var y: Double
    public var label: String
}

/// The allowed band, shaded across the plot.
public struct BandMark: Sendable, Equatable {
    /// Canvas y of the band's top and bottom edges (clipped to the plot).
    public var top: Double
    public var bottom: Double
}

/// A continuous part of the curve in canvas coordinates.
public struct LineMark: Sendable, Equatable {
    public var style: CurveStyle
    /// The drawn points (after M4 when downsampling). A single point is drawn as a dot.
    public var points: [ChartPoint]
}

/// A span of time without data.
public struct GapMark: Sendable, Equatable {
    public var start: Date
    public var end: Date
    /// Canvas x of the start and end (clipped to the plot).
    public var x0: Double
    public var x1: Double
    /// "no data", when the gap is wide enough to hold it.
    public var label: String?
}

/// The minimum or maximum, marked and labelled with value and time.
public struct ExtremeAnnotation: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case minimum, maximum }
    public var kind: Kind
    public var time: Date
    /// °C.
    public var value: Double
    /// The marked point on the curve.
    public var point: ChartPoint
    /// Label lines, e.g. ["max 9.4 °C", "5 Mar 14:20"].
    public var label: [String]
    /// Baseline of the first label line and its horizontal anchor.
    public var labelOrigin: ChartPoint
    public var labelAnchor: TextAnchor
}

/// An excursion marked along the time axis.
public struct ExcursionMark: Sendable, Equatable {
    public var excursion: ChartExcursion
    /// Canvas x of start and end (clipped to the plot; at least 2 units wide).
    public var x0: Double
    public var x1: Double
}

/// A chart as data: scales, ticks, rules and marks, in canvas coordinates. `ChartRenderer`
/// draws it on any `Canvas`; tests read it directly.
public struct ChartModel: Sendable {
    public var frame: ChartRect
    /// The plotting area inside the axes.
    public var plot: ChartRect
    public var theme: ChartTheme
    public var fontSize: Double
    public var title: String?
    /// Time (seconds since 1970) → canvas x.
    public var xScale: LinearScale
    /// °C → canvas y.
    public var yScale: LinearScale
    public var xTicks: [AxisTick]
    public var yTicks: [AxisTick]
    /// "Time — Asia/Shanghai (UTC+08:00)".
    public var xAxisTitle: String
    public var yAxisTitle: String
    public var band: BandMark?
    public var rules: [RuleMark]
    public var lines: [LineMark]
    public var gaps: [GapMark]
    public var annotations: [ExtremeAnnotation]
    public var excursions: [ExcursionMark]
    /// Shown instead of a curve when there is nothing to draw.
    public var message: String?
    /// Device pixel column width in canvas units (1 / pixel density).
    public var columnWidth: Double
    /// Width of the curve's stroke in canvas units.
    public var curveWidth: Double
    /// Summarised days (a log of daily summaries only), oldest first.
    public var dayRanges: [DayRangeMark] = []

    /// Number of points in all line marks (what the canvas has to draw).
    public var drawnPointCount: Int { lines.reduce(0) { $0 + $1.points.count } }
}
