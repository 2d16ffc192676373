import Foundation

extension TemperatureLog {
    /// One day as a logger summarised it itself (a Berlinger Fridge-tag's `Hist:` day,
    /// docs/berlinger.md §4): the extremes with their times, the mean, and per alarm the time
    /// spent beyond its limit. Temperatures in °C as printed, times UTC.
    public struct DailySummary: Sendable, Equatable, Codable {
        /// The logger's calendar day, `YYYY-MM-DD`, in its own clock's zone.
        public var date: String
        /// The start and end of that day (UTC): the day may be shorter or longer than 24 h
        /// across a daylight-saving change, and the first and last days cover only part of it
        /// (`coveredFrom`, `coveredTo`).
        public var dayStart: Date
        public var dayEnd: Date
        /// What part of the day the logger was logging: from its activation on the first
        /// day, to the report on the last.
        public var coveredFrom: Date
        public var coveredTo: Date
        public var min: Double
        public var minTime: Date?
        public var max: Double
        public var maxTime: Date?
        public var mean: Double
        public var alarms: [AlarmDay]
        /// The logger's event count or bits for the day (undocumented: kept as printed).
        public var events: Int?

        public init(
            date: String, dayStart: Date, dayEnd: Date, coveredFrom: Date, coveredTo: Date, min: Double, minTime: Date?,
            max: Double, maxTime: Date?, mean: Double, alarms: [AlarmDay], events: Int?
        ) {
            self.date = date
            self.dayStart = dayStart
            self.dayEnd = dayEnd
            self.coveredFrom = coveredFrom
            self.coveredTo = coveredTo
            self.min = min
            self.minTime = minTime
            self.max = max
            self.maxTime = maxTime
            self.mean = mean
            self.alarms = alarms
            self.events = events
        }

        /// One configured alarm's day.
        public struct AlarmDay: Sendable, Equatable, Codable {
            /// Which alarm: `low` or `high`.
            public var alarm: ConfiguredAlarm.Direction
            /// Its limit in °C.
            public var limit: Double
            /// How long beyond the limit, unbroken, fires it (seconds).
            public var allowedSeconds: Double
            /// Time beyond the limit that day, in seconds (whole minutes, as the logger counts).
            public var seconds: Double
            /// When the alarm fired that day (the limit exceeded for `allowedSeconds` unbroken),
            /// or, for an alarm still on from the day before, the day's first minute; `nil` when
            /// it did not fire or carry on that day.
            public var triggered: Date?
            /// When the excursion that fired it began (`triggered` − `allowedSeconds`); `nil` when
            /// the alarm did not fire that day or only carried on from the day before.
            public var start: Date?

            public init(
                alarm: ConfiguredAlarm.Direction, limit: Double, allowedSeconds: Double, seconds: Double,
                triggered: Date?, start: Date?
            ) {
                self.alarm = alarm
                self.limit = limit
                self.allowedSeconds = allowedSeconds
                self.seconds = seconds
                self.triggered = triggered
                self.start = start
            }
        }
    }

    /// An alarm a logger was configured with: beyond `limit` (strictly) for `minutes`,
    /// unbroken (`singleEvent`) or in total over the run (`cumulative`).
    public struct ConfiguredAlarm: Sendable, Equatable, Codable {
        public enum Direction: String, Sendable, Equatable, Codable {
            case low, high
        }

        public enum Kind: String, Sendable, Equatable, Codable {
            case singleEvent = "single-event"
            case cumulative
        }

        /// The logger's own name for it (`0`, `1` on a Fridge-tag; `1`…`5` on a Q-tag).
        public var name: String
        public var direction: Direction
        public var kind: Kind
        /// °C.
        public var limit: Double
        /// Minutes beyond the limit that fire it.
        public var minutes: Double

        public init(name: String, direction: Direction, kind: Kind, limit: Double, minutes: Double) {
            self.name = name
            self.direction = direction
            self.kind = kind
            self.limit = limit
            self.minutes = minutes
        }

        /// E.g. `high > 8.0 °C for 600 min (single-event)`.
        public var text: String {
            "\(direction.rawValue) \(direction == .high ? ">" : "<") \(String(format: "%.1f", limit)) °C for \(Int(minutes)) min (\(kind.rawValue))"
        }
    }
}
