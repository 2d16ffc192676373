import Foundation

/// One stitched sample as the archive keeps it: time in ms since 1970, values, flags as
/// `;`-separated text (the archive's flag spelling), and the read that first saw it.
public struct StoredSample: Sendable, Equatable {
    public var time: Int64
    public var temperature: Double?
    public var humidity: Double?
    public var flags: String
    public var readID: Int64

    public init(time: Int64, temperature: Double?, humidity: Double?, flags: String, readID: Int64) {
        self.time = time
        self.temperature = temperature
        self.humidity = humidity
        self.flags = flags
        self.readID = readID
    }
}

/// The samples one read added to one generation, packed into one value of the
/// `sample_blocks` table (docs/archive-engines.md, "Sample blocks"). A row per sample made
/// every upload thousands of statements (PostgreSQL: thousands of round trips); a block is
/// one statement, and a logger's year is a few hundred rows.
///
/// Layout, little-endian: version byte (1), column byte (bit 0: a humidity column follows;
/// bit 1: dictionary indices are UInt16, else UInt8), sample count (UInt32), flag-text
/// dictionary (count UInt16, then per entry UInt16 length and UTF-8), times (Int64 ms
/// each), temperatures (Float64 bits each; `missingValue` for none), humidities when
/// present, and a dictionary index per sample when the dictionary holds more than one
/// entry. Times ascend strictly.
public enum SampleBlock {
    /// Why stored bytes are not a block; `offset` is where they stop making sense.
    public struct DamagedBlock: Error, Sendable, CustomStringConvertible {
        public var offset: Int
        public var reason: String
        public var description: String { "byte \(offset): \(reason)" }
    }

    static let version: UInt8 = 1
    /// The bit pattern kept for "no value" (a quiet NaN no decoder produces).
    static let missingValue: UInt64 = 0x7FF8_0000_C01D_7A90

    /// Packs `samples` (times ascending).
    public static func encode(_ samples: [StoredSample]) -> Data { encode(SampleColumns(samples)) }

    /// Packs samples already laid out as the block's columns (times ascending).
    public static func encode(_ columns: SampleColumns) -> Data {
        let dictionary = columns.flagTexts
        let hasHumidity = columns.hasHumidity
        let wideIndices = dictionary.count > 256
        let texts = dictionary.map { Array($0.utf8.prefix(Int(UInt16.max))) }
        let count = columns.count
        let indexBytes = dictionary.count > 1 ? count * (wideIndices ? 2 : 1) : 0
        let size = 8 + texts.reduce(0) { $0 + 2 + $1.count } + count * 8 * (hasHumidity ? 3 : 2) + indexBytes
        var data = Data(count: size)
        data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
            var offset = 0
            func put<T: FixedWidthInteger>(_ value: T) {
                buffer.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
                offset += MemoryLayout<T>.size
            }
            func put(_ words: [UInt64]) {
                words.withUnsafeBytes { bytes in
                    // The block is little-endian, as every platform ColdTap runs on.
                    UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<(offset + bytes.count)]).copyMemory(from: bytes)
                }
                offset += 8 * words.count
            }
            put(version)
            put(UInt8((hasHumidity ? 1 : 0) | (wideIndices ? 2 : 0)))
            put(UInt32(count))
            put(UInt16(dictionary.count))
            for text in texts {
                put(UInt16(text.count))
                for byte in text { put(byte) }
            }
            columns.times.withUnsafeBytes { bytes in
                UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<(offset + bytes.count)]).copyMemory(from: bytes)
            }
            offset += 8 * count
            put(columns.temperatureBits)
            if hasHumidity { put(columns.humidityBits) }
            if dictionary.count > 1 {
                for index in columns.flagIndices {
                    if wideIndices { put(index) } else { put(UInt8(truncatingIfNeeded: index)) }
                }
            }
        }
        return data
    }

    /// Unpacks a block, every sample attributed to `readID`.
    /// - Throws: `DamagedBlock` naming the offset where the bytes stop being a block.
    public static func decode(_ data: Data, readID: Int64) throws -> [StoredSample] {
        try decode(data, readID: readID, from: .min, to: .max)
    }

    /// The samples of a block from `low` to `high` (ms, both inclusive). The whole block is
    /// checked as `decode` checks it, but only the samples asked for are made: stitching
    /// asks for the part of the newest blocks a read overlaps.
    /// - Throws: `DamagedBlock` naming the offset where the bytes stop being a block.
    public static func decode(_ data: Data, readID: Int64, from low: Int64, to high: Int64) throws -> [StoredSample] {
        var samples: [StoredSample] = []
        try decode(data, readID: readID, from: low, to: high, appendingTo: &samples)
        return samples
    }

    /// `decode(_:readID:from:to:)` appending to `samples` (several blocks make one array
    /// without a copy of each).
    public static func decode(
        _ data: Data, readID: Int64, from low: Int64, to high: Int64,
        appendingTo samples: inout [StoredSample]
    ) throws {
        try withBlock(data, from: low, to: high) { block, wanted in
            // Room for the part at once, growing at least twofold: an exact reserve per block
            // would copy a long history again for every block.
            let needed = samples.count + wanted.count
            if samples.capacity < needed { samples.reserveCapacity(max(needed, 2 * samples.capacity)) }
            for index in wanted {
                samples.append(
                    StoredSample(
                        time: block.time(index), temperature: SampleColumns.value(block.temperatureBits(index)),
                        humidity: block.hasHumidity ? SampleColumns.value(block.humidityBits(index)) : nil,
                        flags: block.flags(index), readID: readID))
            }
        }
    }

    /// The samples of a block from `low` to `high` appended to `kept` as columns (stitching
    /// compares a read with them; no sample value is made).
    /// - Throws: `DamagedBlock` naming the offset where the bytes stop being a block.
    static func decode(_ data: Data, readID: Int64, from low: Int64, to high: Int64, appendingTo kept: inout KeptSamples) throws {
        try withBlock(data, from: low, to: high) { block, wanted in
            kept.append(block, wanted, readID: readID)
        }
    }

    /// A checked block: where its columns start, its flag texts.
    struct BlockView {
        let buffer: UnsafeRawBufferPointer
        let count: Int
        let hasHumidity: Bool
        let indexWidth: Int
        let dictionary: [String]
        let times: Int
        let temperatures: Int
        let humidities: Int
        let flagIndices: Int

        func word<T: FixedWidthInteger>(_ type: T.Type, at position: Int) -> T {
            T(littleEndian: buffer.loadUnaligned(fromByteOffset: position, as: T.self))
        }
        func time(_ index: Int) -> Int64 { Int64(bitPattern: word(UInt64.self, at: times + 8 * index)) }
        func temperatureBits(_ index: Int) -> UInt64 { word(UInt64.self, at: temperatures + 8 * index) }
        func humidityBits(_ index: Int) -> UInt64 { hasHumidity ? word(UInt64.self, at: humidities + 8 * index) : SampleBlock.missingValue }
        func entry(_ index: Int) -> Int {
            let position = flagIndices + indexWidth * index
            return indexWidth == 2 ? Int(word(UInt16.self, at: position)) : Int(buffer[position])
        }
        func flags(_ index: Int) -> String { dictionary.count > 1 ? dictionary[entry(index)] : dictionary[0] }
        /// Appends `count` little-endian words from `position` to `column`, copied at once
        /// (the block's columns are not aligned to their word size).
        func copyWords<T: FixedWidthInteger>(at position: Int, count: Int, appendingTo column: inout [T]) {
            let start = column.count
            column.append(contentsOf: repeatElement(0, count: count))
            column.withUnsafeMutableBufferPointer { words in
                let target = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(words)[(start * MemoryLayout<T>.size)...])
                target.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[position..<(position + count * MemoryLayout<T>.size)]))
                if T(1).littleEndian != T(1) {
                    for index in start..<words.count { words[index] = T(littleEndian: words[index]) }
                }
            }
        }
    }

    /// Checks the whole block (every length, times ascending, flag entries) and hands `body`
    /// the indices of its samples from `low` to `high`, found by a binary search of the times.
    private static func withBlock(
        _ data: Data, from low: Int64, to high: Int64,
        _ body: (BlockView, Range<Int>) throws -> Void
    ) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            func need(_ count: Int, _ what: String) throws {
                guard count >= 0, buffer.count - offset >= count else {
                    throw DamagedBlock(offset: offset, reason: "\(what) needs \(count) byte(s), \(buffer.count - offset) left")
                }
            }
            func word<T: FixedWidthInteger>(_ type: T.Type, at position: Int) -> T {
                T(littleEndian: buffer.loadUnaligned(fromByteOffset: position, as: T.self))
            }
            try need(8, "the header")
            guard buffer[0] == version else { throw DamagedBlock(offset: 0, reason: "unknown block version \(buffer[0])") }
            let hasHumidity = buffer[1] & 1 != 0
            let indexWidth = buffer[1] & 2 != 0 ? 2 : 1
            guard buffer[1] & ~3 == 0 else { throw DamagedBlock(offset: 1, reason: "unknown columns \(buffer[1])") }
            let count = Int(word(UInt32.self, at: 2))
            let entries = Int(word(UInt16.self, at: 6))
            offset = 8
            var dictionary: [String] = []
            for _ in 0..<entries {
                try need(2, "a flag text length")
                let length = Int(word(UInt16.self, at: offset))
                offset += 2
                try need(length, "a flag text")
                dictionary.append(String(decoding: UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + length)]), as: UTF8.self))
                offset += length
            }
            let columns = hasHumidity ? 3 : 2
            let (columnBytes, overflow) = count.multipliedReportingOverflow(by: 8 * columns)
            guard !overflow else { throw DamagedBlock(offset: 2, reason: "sample count \(count) is impossible") }
            let indexBytes = entries > 1 ? count * indexWidth : 0
            try need(columnBytes + indexBytes, "\(count) samples")
            guard count == 0 || entries > 0 else { throw DamagedBlock(offset: 6, reason: "\(count) samples but no flag text") }
            let temperatures = offset + 8 * count
            let block = BlockView(
                buffer: buffer, count: count, hasHumidity: hasHumidity, indexWidth: indexWidth, dictionary: dictionary,
                times: offset, temperatures: temperatures, humidities: temperatures + 8 * count,
                flagIndices: temperatures + 8 * count * (columns - 1))
            let end = block.flagIndices + indexBytes
            guard end == buffer.count else {
                throw DamagedBlock(offset: end, reason: "\(buffer.count - end) byte(s) after the last sample")
            }
            // Checked whole (a few loads per sample), so that the search below may trust the order.
            for index in 1..<max(count, 1) where block.time(index) <= block.time(index - 1) {
                throw DamagedBlock(offset: block.times + 8 * index, reason: "sample \(index)'s time does not follow the one before")
            }
            if entries > 1 {
                for index in 0..<count where block.entry(index) >= entries {
                    throw DamagedBlock(offset: block.flagIndices + indexWidth * index, reason: "flag entry \(block.entry(index)) of \(entries)")
                }
            }
            func firstIndex(notBefore limit: Int64) -> Int {
                var lower = 0, upper = count
                while lower < upper {
                    let middle = (lower + upper) / 2
                    if block.time(middle) < limit { lower = middle + 1 } else { upper = middle }
                }
                return lower
            }
            guard low <= high else { return }
            let wanted = firstIndex(notBefore: low)..<(high == .max ? count : firstIndex(notBefore: high + 1))
            if !wanted.isEmpty { try body(block, wanted) }
        }
    }
}

/// Kept samples as columns, oldest first, each with the read that first saw it: what a read
/// is stitched against. A block's time and value columns are copied whole; its flag texts
/// become entries of one list (`flags(at:)`), so no text is copied per sample.
struct KeptSamples {
    private(set) var times: [Int64] = []
    private(set) var temperatureBits: [UInt64] = []
    private(set) var humidityBits: [UInt64] = []
    private(set) var flagEntries: [Int32] = []
    private(set) var flagTexts: [String] = []
    private(set) var readIDs: [Int64] = []
    private var flagEntryOfText: [String: Int32] = [:]

    var count: Int { times.count }
    var isEmpty: Bool { times.isEmpty }
    func temperature(at index: Int) -> Double? { SampleColumns.value(temperatureBits[index]) }
    func humidity(at index: Int) -> Double? { SampleColumns.value(humidityBits[index]) }
    func flags(at index: Int) -> String { flagTexts[Int(flagEntries[index])] }

    mutating func append(_ block: SampleBlock.BlockView, _ wanted: Range<Int>, readID: Int64) {
        let needed = count + wanted.count
        if times.capacity < needed {
            // At least twofold, so that many blocks do not copy the columns again each.
            let capacity = max(needed, 2 * times.capacity)
            times.reserveCapacity(capacity)
            temperatureBits.reserveCapacity(capacity)
            humidityBits.reserveCapacity(capacity)
            flagEntries.reserveCapacity(capacity)
            readIDs.reserveCapacity(capacity)
        }
        block.copyWords(at: block.times + 8 * wanted.lowerBound, count: wanted.count, appendingTo: &times)
        block.copyWords(at: block.temperatures + 8 * wanted.lowerBound, count: wanted.count, appendingTo: &temperatureBits)
        if block.hasHumidity {
            block.copyWords(at: block.humidities + 8 * wanted.lowerBound, count: wanted.count, appendingTo: &humidityBits)
        } else {
            humidityBits.append(contentsOf: repeatElement(SampleBlock.missingValue, count: wanted.count))
        }
        let entries = block.dictionary.map { text in
            if let entry = flagEntryOfText[text] { return entry }
            let entry = Int32(flagTexts.count)
            flagTexts.append(text)
            flagEntryOfText[text] = entry
            return entry
        }
        if entries.count == 1 {
            flagEntries.append(contentsOf: repeatElement(entries[0], count: wanted.count))
        } else {
            for index in wanted { flagEntries.append(entries[block.entry(index)]) }
        }
        readIDs.append(contentsOf: repeatElement(readID, count: wanted.count))
    }

    /// Puts the samples in time order (blocks whose spans interleave).
    mutating func sortByTime() {
        let order = times.indices.sorted { times[$0] < times[$1] }
        times = order.map { times[$0] }
        temperatureBits = order.map { temperatureBits[$0] }
        humidityBits = order.map { humidityBits[$0] }
        flagEntries = order.map { flagEntries[$0] }
        readIDs = order.map { readIDs[$0] }
    }
}

/// Samples laid out as a block keeps them: a column per field, values as their bit
/// patterns (`SampleBlock.missingValue` for none), flag texts as a dictionary with an index
/// per sample once there are two of them. Stitching writes a read's new samples straight
/// into these, so a block is a few copies of memory and the digest reads the same columns.
public struct SampleColumns: Sendable {
    public private(set) var times: [Int64] = []
    public private(set) var temperatureBits: [UInt64] = []
    public private(set) var humidityBits: [UInt64] = []
    public private(set) var hasHumidity = false
    /// The first sample's flag text first.
    public private(set) var flagTexts: [String] = []
    /// Empty while every sample has the first text.
    public private(set) var flagIndices: [UInt16] = []
    private var indexOfText: [String: UInt16] = [:]

    public init(capacity: Int = 0) {
        times.reserveCapacity(capacity)
        temperatureBits.reserveCapacity(capacity)
        humidityBits.reserveCapacity(capacity)
    }

    public init(_ samples: [StoredSample]) {
        self.init(capacity: samples.count)
        for sample in samples {
            append(time: sample.time, temperature: sample.temperature, humidity: sample.humidity, flags: sample.flags)
        }
    }

    public var count: Int { times.count }

    public mutating func append(time: Int64, temperature: Double?, humidity: Double?, flags: String) {
        times.append(time)
        temperatureBits.append(temperature?.bitPattern ?? SampleBlock.missingValue)
        humidityBits.append(humidity?.bitPattern ?? SampleBlock.missingValue)
        if humidity != nil { hasHumidity = true }
        if flagTexts.isEmpty {
            flagTexts = [flags]
        } else if flagTexts.count == 1, flags.isEmpty == flagTexts[0].isEmpty, flags.isEmpty || flags == flagTexts[0] {
            // The common case: the same text as every sample before (most often none at all).
        } else {
            if flagIndices.isEmpty {
                indexOfText[flagTexts[0]] = 0
                flagIndices = Array(repeating: 0, count: times.count - 1)
            }
            if let index = indexOfText[flags] {
                flagIndices.append(index)
            } else {
                // Flag texts are sets of a few known flags, far fewer than 65,536 kinds.
                let index = UInt16(truncatingIfNeeded: flagTexts.count)
                flagTexts.append(flags)
                indexOfText[flags] = index
                flagIndices.append(index)
            }
        }
    }

    public func temperature(at index: Int) -> Double? { SampleColumns.value(temperatureBits[index]) }
    public func humidity(at index: Int) -> Double? { SampleColumns.value(humidityBits[index]) }
    public func flags(at index: Int) -> String { flagIndices.isEmpty ? flagTexts[0] : flagTexts[Int(flagIndices[index])] }

    public func sample(at index: Int, readID: Int64) -> StoredSample {
        StoredSample(
            time: times[index], temperature: temperature(at: index), humidity: humidity(at: index),
            flags: flags(at: index), readID: readID)
    }

    static func value(_ bits: UInt64) -> Double? { bits == SampleBlock.missingValue ? nil : Double(bitPattern: bits) }
}
