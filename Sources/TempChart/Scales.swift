import Foundation

/// A linear map from a data domain to a canvas range (either may be reversed).
public struct LinearScale: Sendable, Equatable {
    public var domain: ClosedRange<Double>
    /// Canvas coordinate of `domain.lowerBound`.
    public var rangeStart: Double
    /// Canvas coordinate of `domain.upperBound`.
    public var rangeEnd: Double

    public init(domain: ClosedRange<Double>, rangeStart: Double, rangeEnd: Double) {
        self.domain = domain
        self.rangeStart = rangeStart
        self.rangeEnd = rangeEnd
    }

    /// The canvas coordinate of a data value (values outside the domain extrapolate).
    @inline(__always)
    public func position(_ value: Double) -> Double {
        let span = domain.upperBound - domain.lowerBound
        guard span > 0 else { return (rangeStart + rangeEnd) / 2 }
        // The same operations, in the same order, as M4's streaming pass (bit-identical results).
        return rangeStart + (value - domain.lowerBound) * ((rangeEnd - rangeStart) / span)
    }

    /// The data value at a canvas coordinate.
    public func value(at position: Double) -> Double {
        let range = rangeEnd - rangeStart
        guard range != 0 else { return domain.lowerBound }
        return domain.lowerBound + (position - rangeStart) / range * (domain.upperBound - domain.lowerBound)
    }
}

/// One tick on an axis.
public struct AxisTick: Sendable, Equatable {
    /// The data value (°C, or seconds since 1970 on the time axis).
    public var value: Double
    /// Canvas coordinate along the axis.
    public var position: Double
    /// The label lines (the time axis adds a date line under the first tick of each day).
    public var label: [String]

    public init(value: Double, position: Double, label: [String]) {
        self.value = value
        self.position = position
        self.label = label
    }
}

/// "Nice" round tick values (1, 2, 2.5, 5 × 10ⁿ) for a numeric axis.
public enum NiceTicks {
    /// The tick step for covering `span` with about `count` intervals.
    public static func step(span: Double, count: Int) -> Double {
        guard span > 0, span.isFinite, count > 0 else { return 1 }
        let raw = span / Double(count)
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let fraction = raw / magnitude
        let nice: Double
        // The nearest nice value (on a log scale), so the count stays close to the request.
        if fraction < 1.41 {
            nice = 1
        } else if fraction < 2.24 {
            nice = 2
        } else if fraction < 3.54 {
            nice = 2.5
        } else if fraction < 7.07 {
            nice = 5
        } else {
            nice = 10
        }
        return nice * magnitude
    }

    /// The multiples of `step` inside `domain`, computed from integers so they come out
    /// exact (0.1 steps give 0.3, not 0.30000000000000004).
    public static func values(in domain: ClosedRange<Double>, step: Double) -> [Double] {
        guard step > 0, domain.upperBound.isFinite, domain.lowerBound.isFinite else { return [] }
        let first = (domain.lowerBound / step - 1e-9).rounded(.up)
        let last = (domain.upperBound / step + 1e-9).rounded(.down)
        guard last >= first, last - first < 1000 else { return [] }
        let decimals = max(0, -Int((log10(step)).rounded(.down)) + 1)
        let scale = pow(10, Double(decimals))
        return stride(from: first, through: last, by: 1).map { (($0 * step) * scale).rounded() / scale }
    }

    /// Digits after the decimal point needed to print every multiple of `step`.
    public static func decimals(for step: Double) -> Int {
        for digits in 0...6 {
            let scaled = step * pow(10, Double(digits))
            if abs(scaled - scaled.rounded()) < 1e-6 { return digits }
        }
        return 6
    }
}

/// Tick placement for a time axis: steps from one minute to a year, aligned to the wall
/// clock of the chosen time zone (6-hour ticks fall on 00:00, 06:00, ... local time).
public enum TimeTicks {
    /// A calendar step.
    public enum Step: Sendable, Equatable {
        case minutes(Int)
        case hours(Int)
        case days(Int)
        case months(Int)
        case years(Int)

        /// Approximate length in seconds (for choosing a step).
        public var approximateSeconds: Double {
            switch self {
            case .minutes(let n): return Double(n) * 60
            case .hours(let n): return Double(n) * 3600
            case .days(let n): return Double(n) * 86_400
            case .months(let n): return Double(n) * 30.44 * 86_400
            case .years(let n): return Double(n) * 365.25 * 86_400
            }
        }
    }

    /// The candidate steps, shortest first.
    public static let steps: [Step] = [
        .minutes(1), .minutes(2), .minutes(5), .minutes(10), .minutes(15), .minutes(30),
        .hours(1), .hours(2), .hours(3), .hours(6), .hours(12),
        .days(1), .days(2), .days(7), .days(14),
        .months(1), .months(2), .months(3), .months(6), .years(1), .years(2), .years(5), .years(10),
    ]

    /// The shortest step giving at most `maxTicks` ticks over `span` seconds.
    public static func step(span: TimeInterval, maxTicks: Int) -> Step {
        let limit = Double(max(1, maxTicks))
        for step in steps where span / step.approximateSeconds <= limit { return step }
        return steps[steps.count - 1]
    }

    /// The tick times in `[start, end]`, aligned to round local times in `calendar`'s zone.
    public static func dates(from start: Date, to end: Date, step: Step, calendar: Calendar) -> [Date] {
        guard end >= start else { return [] }
        var components: DateComponents
        var unit: Calendar.Component
        var amount: Int
        switch step {
        case .minutes(let n):
            components = calendar.dateComponents([.year, .month, .day, .hour], from: start)
            unit = .minute; amount = n
        case .hours(let n):
            return localHourTicks(from: start, to: end, every: n, calendar: calendar)
        case .days(let n):
            components = calendar.dateComponents([.year, .month], from: start)
            unit = .day; amount = n
            if n == 7 || n == 14 {
                // Weeks start on Monday, counted from the Monday on or before the start.
                let day = calendar.startOfDay(for: start)
                let weekday = calendar.component(.weekday, from: day)
                let back = (weekday + 5) % 7
                let monday = calendar.date(byAdding: .day, value: -back, to: day) ?? day
                components = calendar.dateComponents([.year, .month, .day], from: monday)
            }
        case .months(let n):
            components = calendar.dateComponents([.year], from: start)
            unit = .month; amount = n
        case .years(let n):
            var year = calendar.component(.year, from: start)
            year -= ((year % n) + n) % n
            components = DateComponents(year: year)
            unit = .year; amount = n
        }
        guard var anchor = calendar.date(from: components) else { return [] }
        // Day steps restart on the 1st of each month (1, 3, 5, ... for 2-day steps) except weeks.
        var result: [Date] = []
        var index = 0
        var guardCount = 0
        while anchor <= end, guardCount < 5000 {
            guardCount += 1
            var offset = DateComponents()
            offset.setValue(index * amount, for: unit)
            guard let tick = calendar.date(byAdding: offset, to: anchor) else { break }
            if tick > end { break }
            if case .days(let n) = step, n < 7, index > 0,
                calendar.component(.month, from: tick) != calendar.component(.month, from: anchor)
            {
                // Next month: restart the day count at its first day.
                guard let nextMonth = calendar.date(from: calendar.dateComponents([.year, .month], from: tick)) else { break }
                anchor = nextMonth
                index = 0
                if anchor >= start && anchor <= end && result.last != anchor { result.append(anchor) }
                index = 1
                continue
            }
            if tick >= start { result.append(tick) }
            index += 1
        }
        return result
    }

    /// Hour ticks on the local wall clock (00:00, 06:00, ...), also across daylight-saving changes.
    static func localHourTicks(from start: Date, to end: Date, every hours: Int, calendar: Calendar) -> [Date] {
        var result: [Date] = []
        var day = calendar.startOfDay(for: start)
        var guardCount = 0
        while day <= end, guardCount < 2000 {
            guardCount += 1
            for hour in stride(from: 0, to: 24, by: max(1, hours)) {
                guard let tick = calendar.date(bySettingHour: hour, minute: 0, second: 0, of: day) else { continue }
                if tick >= start, tick <= end, result.last.map({ tick > $0 }) ?? true { result.append(tick) }
            }
            guard let next = calendar.date(byAdding: .day, value: 1, to: day) else { break }
            day = next
        }
        return result
    }

    /// "UTC+09:00"-style offset of the zone at `date`.
    public static func offsetText(_ zone: TimeZone, at date: Date) -> String {
        let seconds = zone.secondsFromGMT(for: date)
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = abs(seconds)
        return String(format: "UTC%@%02d:%02d", sign, magnitude / 3600, (magnitude % 3600) / 60)
    }
}
