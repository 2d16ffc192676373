import ColdTapBase
import Foundation

/// Builds the 8 KB memory of an ST25DV64K as a SmarTag's microcontroller leaves it, by
/// playing the writer's rules of docs/smartag.md (not the decoder's): configuration, the
/// extremes it keeps, which readings the mode stores, the ring and its pointer, and how the
/// NDEF lengths grow. For tests and the virtual SmarTags.
public enum SmarTagEncoder {
    /// The ST25DV64K's memory size, and its 8-byte capability container (§2).
    public static let memorySize = 8192
    static let capabilityContainer: [UInt8] = [0xE2, 0x40, 0x00, 0x01, 0x00, 0x00, 0x03, 0xFF]
    static let recordType = Array("st.com:smartag".utf8)

    static func put(_ memory: inout [UInt8], _ address: Int, _ word: UInt32, width: Int = 4) {
        for index in 0..<width { memory[address + index] = UInt8(truncatingIfNeeded: word >> (8 * UInt32(index))) }
    }

    static func putBigEndian16(_ memory: inout [UInt8], _ address: Int, _ value: Int) {
        memory[address] = UInt8(value >> 8 & 0xFF)
        memory[address + 1] = UInt8(value & 0xFF)
    }
}

// MARK: SmarTag1

extension SmarTagEncoder {
    /// A SmarTag1 (docs/smartag.md §3), whose writer side is inferred (§3.7, §6).
    public struct SmarTag1: Sendable {
        /// What the logger measured (all of it: the mode decides what is stored) or sensed.
        public enum Input: Sendable, Equatable {
            /// A wake-up's measurements; `nil` for a sensor that gave nothing (invalid marker).
            case reading(time: Date, temperature: Double?, humidity: Double? = nil, pressure: Double? = nil, accelerationMilliG: Int? = nil)
            /// An asynchronous record: 6D position (0…6), event mask (§3.4), acceleration.
            case event(time: Date, orientation: Int, mask: Int, accelerationMilliG: Int? = nil)
        }

        public var firmware: (major: UInt8, minor: UInt8, patch: UInt8) = (1, 0, 2)
        public var interval: Int
        /// 0 inactive, 1 sampling, 2 one-shot, 3 sampling with threshold, 4 save next sample.
        public var mode: UInt8 = 1
        /// Enabled sensors: 0x01 temperature, 0x02 humidity, 0x04 pressure, 0x08 acc, 0x10 6D, 0x20 wake-up.
        public var sensors: UInt8 = 0x01
        /// The configuration time (wall clock, in `zone`).
        public var start: Date
        public var zone = TimeZone.utc
        /// Whole °C; the apps' defaults mean "every reading is outside".
        public var temperatureMaximum = -40, temperatureMinimum = 85
        public var humidityMaximum = 0, humidityMinimum = 100
        public var pressureMinimum = 810.0, pressureMaximum = 1210.0
        public var accelerationThreshold = 0
        public var status: UInt32 = 0xFF00_0000

        public init(interval: Int, start: Date) {
            self.interval = interval
            self.start = start
        }

        /// The packed wall-clock date of §3.3 (0 for years outside 2018…2049).
        public func packedDate(_ date: Date) -> UInt32 {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let year = parts.year! - 2018
            guard (0...31).contains(year) else { return 0 }
            return UInt32(year) << 26 | UInt32(parts.day!) << 21 | UInt32(parts.month!) << 17
                | UInt32(parts.hour!) << 12 | UInt32(parts.minute!) << 6 | UInt32(parts.second!)
        }

        /// Whole °C + 40, the 7-bit field; 0x7F (invalid) for `nil`.
        static func temperatureField(_ celsius: Double?) -> UInt32 {
            guard let celsius, celsius.isFinite else { return 0x7F }
            return UInt32(min(126, max(0, celsius.rounded() + 40)))
        }

        static func pressureField(_ hPa: Double?) -> UInt32 {
            guard let hPa, hPa.isFinite else { return 0xFFF }
            return UInt32(min(4094, max(0, ((hPa - 810) * 10).rounded())))
        }

        /// The memory after the logger handled `inputs` in order.
        public func memory(after inputs: [Input]) -> [UInt8] {
            var memory = [UInt8](repeating: 0, count: memorySize)
            memory.replaceSubrange(0..<8, with: capabilityContainer)
            let payload = 0x20
            put(&memory, payload, 1 | UInt32(firmware.major) << 8 | UInt32(firmware.minor) << 16 | UInt32(firmware.patch) << 24)
            put(&memory, payload + 4, UInt32(interval & 0xFFFF) | UInt32(mode) << 16 | UInt32(sensors) << 24)
            put(&memory, payload + 8, packedDate(start))
            put(
                &memory, payload + 12,
                Self.temperatureField(Double(temperatureMaximum)) | Self.temperatureField(Double(temperatureMinimum)) << 8
                    | UInt32(humidityMaximum & 0x7F) << 16 | UInt32(humidityMinimum & 0x7F) << 24)
            put(
                &memory, payload + 16,
                Self.pressureField(pressureMaximum) | Self.pressureField(pressureMinimum) << 12
                    | UInt32(accelerationThreshold / 256 & 0x3F) << 24)
            put(&memory, payload + 20, status)

            // Extremes as configuration resets them (§3.2), then kept from every valid reading.
            var maxT: UInt32 = 0, minT: UInt32 = 125, maxRH: UInt32 = 0, minRH: UInt32 = 100
            var maxP: UInt32 = 0, minP: UInt32 = 4000
            var dates = [UInt32](repeating: 0, count: 7)  // Tmax, Tmin, RHmax, RHmin, Pmax, Pmin, acc
            let firstSlot = 0x60, capacity = 1011, ringEnd = 8184
            var pointer = firstSlot, counter = 0
            for input in inputs {
                let dateWord: UInt32, valueWord: UInt32
                switch input {
                case .reading(let time, let temperature, let humidity, let pressure, let acceleration):
                    let t = sensors & 0x01 != 0 ? Self.temperatureField(temperature) : 0x7F
                    let rh = sensors & 0x02 != 0 ? humidity.map { UInt32(min(126, max(0, $0.rounded()))) } ?? 0x7F : 0x7F
                    let p = sensors & 0x04 != 0 ? Self.pressureField(pressure) : 0xFFF
                    let acc = sensors & 0x08 != 0 ? acceleration.map { UInt32(min(62, max(0, $0 / 256))) } ?? 0x3F : 0x3F
                    let stamp = packedDate(time)
                    if t != 0x7F {
                        if t > maxT { (maxT, dates[0]) = (t, stamp) }
                        if t < minT { (minT, dates[1]) = (t, stamp) }
                    }
                    if rh != 0x7F {
                        if rh > maxRH { (maxRH, dates[2]) = (rh, stamp) }
                        if rh < minRH { (minRH, dates[3]) = (rh, stamp) }
                    }
                    if p != 0xFFF {
                        if p > maxP { (maxP, dates[4]) = (p, stamp) }
                        if p < minP { (minP, dates[5]) = (p, stamp) }
                    }
                    // Threshold mode stores a reading only beyond the band (the assumed rule, §3.5).
                    if mode == 3 {
                        let celsius = Int(t) - 40
                        guard t != 0x7F, celsius > temperatureMaximum || celsius < temperatureMinimum else { continue }
                    }
                    dateWord = stamp
                    valueWord = p << 20 | t << 13 | rh << 6 | acc
                case .event(let time, let orientation, let mask, let acceleration):
                    dateWord = packedDate(time) | 0x8000_0000
                    valueWord =
                        UInt32(orientation & 0x07) | UInt32(mask & 0x3F) << 3
                        | (acceleration.map { UInt32(min(62, max(0, $0 / 256))) } ?? 0x3F) << 9
                }
                put(&memory, pointer, dateWord)
                put(&memory, pointer + 4, valueWord)
                pointer += 8
                if pointer >= ringEnd { pointer = firstSlot }
                counter = min(counter + 1, capacity)
            }
            put(&memory, payload + 24, dates[0])
            put(&memory, payload + 28, dates[1])
            put(&memory, payload + 32, dates[2])
            put(&memory, payload + 36, dates[3])
            put(&memory, payload + 40, maxT | minT << 8 | maxRH << 16 | minRH << 24)
            put(&memory, payload + 44, dates[4])
            put(&memory, payload + 48, dates[5])
            put(&memory, payload + 52, dates[6])
            put(&memory, payload + 56, maxP | minP << 12)
            put(&memory, payload + 60, UInt32(counter) | UInt32(pointer) << 16)

            // NDEF: 235-byte payload until the records need more, then 64 + 8n (§3.7).
            let payloadLength = max(0xEB, 64 + 8 * counter)
            let tlvLength = payloadLength + 20
            memory[8] = 0x03
            memory[9] = 0xFF
            putBigEndian16(&memory, 10, tlvLength)
            memory.replaceSubrange(12..<18, with: [0xC4, 0x0E, 0, 0, UInt8(payloadLength >> 8), UInt8(payloadLength & 0xFF)])
            memory.replaceSubrange(18..<32, with: recordType)
            if 12 + tlvLength < memorySize { memory[12 + tlvLength] = 0xFE }
            return memory
        }
    }
}

// MARK: SmarTag2

extension SmarTagEncoder {
    /// A SmarTag2 (docs/smartag.md §4) as its firmware writes it.
    public struct SmarTag2: Sendable {
        /// One configured virtual sensor: id (§4.1), mode 0 outside, 1 inside, 2 less,
        /// 3 greater, thresholds as codes.
        public struct Sensor: Sendable, Equatable {
            public var id: Int
            public var mode: Int
            public var threshold1: UInt32
            public var threshold2: UInt32

            public init(id: Int, mode: Int, threshold1: UInt32, threshold2: UInt32 = 0) {
                self.id = id
                self.mode = mode
                self.threshold1 = threshold1
                self.threshold2 = threshold2
            }

            /// A temperature sensor with thresholds in °C (coded as the firmware codes readings).
            public static func temperature(mode: Int, _ first: Double, _ second: Double = -10) -> Sensor {
                Sensor(id: 0, mode: mode, threshold1: temperatureCode(first), threshold2: temperatureCode(second))
            }

            var thresholdWidths: (Int, Int) {
                switch id {
                case 0: return (9, 9)
                case 1: return (11, 11)
                case 2: return (25, 0)
                case 4: return (26, 0)
                default: return (8, 8)
                }
            }

            var word: UInt32 {
                let (first, second) = thresholdWidths
                var word = UInt32(id & 0x0F) | UInt32(mode & 0x03) << 4 | (threshold1 & (UInt32(1) << first - 1)) << 6
                if second > 0 && mode <= 1 { word |= (threshold2 & (UInt32(1) << second - 1)) << (6 + UInt32(first)) }
                return word
            }

            /// True when the mode stores `code` (§4.2: unsigned codes, inclusive bounds).
            func stores(_ code: UInt32) -> Bool {
                switch mode {
                case 0: return code <= threshold1 || code >= threshold2
                case 1: return threshold1 <= code && code <= threshold2
                case 2: return code <= threshold1
                default: return code >= threshold1
                }
            }

            var minMaxWords: Int { [0, 1, 2, 4].contains(id) ? 2 : 0 }
        }

        /// A measurement `seconds` after the start: °C (id 0), hPa (1), lux (2), or the code
        /// itself for the asynchronous ids 4–7.
        public struct Reading: Sendable, Equatable {
            public var id: Int
            public var seconds: UInt32
            public var value: Double

            public init(id: Int = 0, seconds: UInt32, value: Double) {
                self.id = id
                self.seconds = seconds
                self.value = value
            }
        }

        public var version: [UInt8] = [2, 1, 1, 4]
        public var singleShotDone: UInt8 = 0
        public var sampleTime: Int
        public var start: UInt32
        public var sensors: [Sensor]
        /// The 8-byte UID, MSB first (E0 02 …), also written into the record's ID field.
        public var uid: [UInt8] = [0xE0, 0x02, 0x26, 0x00, 0x12, 0x34, 0x56, 0x78]

        public init(sampleTime: Int, start: UInt32, sensors: [Sensor]) {
            self.sampleTime = sampleTime
            self.start = start
            self.sensors = sensors
        }

        /// The firmware's temperature code: (uint16)(T·5 + 50) in single precision, each
        /// operation rounded on its own, then clamped to 0…350 (§4.3).
        public static func temperatureCode(_ celsius: Double) -> UInt32 {
            let scaled = Float(celsius) * 5
            let shifted = scaled + 50
            let code: UInt32 = shifted.isNaN ? 0 : (shifted <= 0 ? 0 : (shifted >= 65535 ? 65535 : UInt32(shifted)))
            return min(code, 350)
        }

        static func code(_ reading: Reading) -> UInt32 {
            switch reading.id {
            case 0: return temperatureCode(reading.value)
            case 1: return UInt32(max(0, ((reading.value - 260) * 2).rounded(.down)))
            case 2: return UInt32(max(0, (reading.value * 1000).rounded(.down)))
            default: return UInt32(max(0, reading.value))
            }
        }

        /// The memory after the firmware handled `readings` (in order).
        public func memory(after readings: [Reading]) -> [UInt8] {
            var memory = [UInt8](repeating: 0, count: memorySize)
            memory.replaceSubrange(0..<8, with: capabilityContainer)
            // Boot: TLV 00FF, payload 00DF, terminator at 0x10B (§4.5).
            memory.replaceSubrange(8..<12, with: [0x03, 0xFF, 0x00, 0xFF])
            memory.replaceSubrange(12..<19, with: [0x4C, 0x0E, 0x00, 0x00, 0x00, 0xDF, 0x0B])
            memory.replaceSubrange(19..<33, with: recordType)
            memory.replaceSubrange(33..<44, with: [0, 0, 0] + uid.prefix(8))
            memory[0x10B] = 0xFE
            let base = 0x2C
            memory.replaceSubrange(base..<base + 4, with: version.prefix(4))
            put(&memory, base + 4, UInt32(singleShotDone) | UInt32(sensors.count) << 8 | UInt32(sampleTime & 0xFFFF) << 16)
            put(&memory, base + 8, start)
            var cursor = base + 12
            for sensor in sensors {
                put(&memory, cursor, sensor.word)
                cursor += 4
            }
            // Min/max words, in configuration order (§4.3).
            var extremeAddress: [Int: Int] = [:]
            for sensor in sensors where sensor.minMaxWords > 0 {
                extremeAddress[sensor.id] = cursor
                if sensor.id <= 1 { put(&memory, cursor, 0x15E0_0000) }
                cursor += 8
            }
            let counterAddress = cursor
            let first = counterAddress + 8
            let end = 8188
            let maximum = (end - first) >> 3
            var counter = 0
            var pointer = counterAddress
            var payloadLength = first - base
            var minimum: [Int: UInt32] = [0: 350, 1: 0xFFF], maximumCode: [Int: UInt32] = [:]

            for reading in readings {
                guard let sensor = sensors.first(where: { $0.id == reading.id }) else { continue }
                let code = Self.code(reading)
                let delta = reading.seconds
                // Min/max follow every measurement, written only once the delta is not 0.
                if delta != 0, let address = extremeAddress[sensor.id] {
                    let minutes = delta / 60 & 0xFFFFF
                    if sensor.id <= 1 {
                        if code < minimum[sensor.id, default: 0] {
                            minimum[sensor.id] = code
                            put(&memory, address, code << 20 | minutes)
                        }
                        if code > maximumCode[sensor.id, default: 0] {
                            maximumCode[sensor.id] = code
                            put(&memory, address + 4, code << 20 | minutes)
                        }
                    } else if code > maximumCode[sensor.id, default: 0] {
                        maximumCode[sensor.id] = code
                        put(&memory, address, minutes)
                        put(&memory, address + 4, code)
                    }
                }
                guard sensor.stores(code), delta != 0 else { continue }
                if pointer == counterAddress { pointer = first }
                put(&memory, pointer, UInt32(sensor.id) | delta << 4)
                put(&memory, pointer + 4, code)
                pointer += 8
                if counter < maximum {
                    counter += 1
                    payloadLength = min(payloadLength + 8, 8144)
                    // The lengths reach memory only once they no longer fit one byte.
                    if payloadLength > 255 {
                        putBigEndian16(&memory, 16, payloadLength)
                        if base + payloadLength < memorySize { memory[base + payloadLength] = 0xFE }
                    }
                    if payloadLength + 32 > 255 { putBigEndian16(&memory, 10, payloadLength + 32) }
                }
                if pointer >= end { pointer = first }
                put(&memory, counterAddress, UInt32(counter))
                put(&memory, counterAddress + 4, UInt32(pointer))
            }
            put(&memory, counterAddress, UInt32(counter))
            put(&memory, counterAddress + 4, UInt32(pointer))
            return memory
        }
    }
}
