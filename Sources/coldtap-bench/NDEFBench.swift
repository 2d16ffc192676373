import ColdTapCommands
import Foundation
import NDEF

// coldtap-bench ndef: strict NDEF decoding (record layer and record-type checks) of
// (small) 10,000 messages of three small records — Text, URI, MIME — and (large) one
// message with a 1 MiB MIME payload; the same work by Python ndeflib in the same run.

/// Keeps a value alive so the optimizer cannot drop the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// The small messages, each its own buffer (as messages read from separate tags would be).
func ndefBenchSmallMessages() -> [Data] {
    (0..<BenchScale.pick(10_000, smoke: 50)).map { index in
        NDEFMessage(records: [
            TextRecord(text: "Logger \(index % 977): 4.\(index % 10) °C", language: "en").record,
            URIRecord(uri: "https://example.com/l/\(index)").record,
            MIMERecord(mimeType: "application/json", data: Data(#"{"t":\#(index % 50),"ok":true}"#.utf8)).record,
        ]).serialized()
    }
}

/// One message with a 1 MiB MIME payload.
func ndefBenchLargeMessage() -> Data {
    let payload = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    return NDEFMessage(records: [MIMERecord(mimeType: "application/octet-stream", data: payload).record]).serialized()
}

/// CPU time of the calling thread, in seconds. The benchmarks time CPU rather than wall
/// clock because the machine is shared: waiting for a core is not work, and both sides
/// (ColdTap and the reference, which times itself with `time.thread_time()`) are measured
/// the same way.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Runs `body` (one repetition) until at least `minimumSeconds` of CPU time have passed and
/// at least `minimumRuns` repetitions were made; returns the median CPU seconds per repetition.
func medianSeconds(minimumSeconds: Double = BenchScale.pick(2, smoke: 0), minimumRuns: Int = BenchScale.pick(7, smoke: 1), _ body: () throws -> Int) rethrows
    -> Double
{
    var samples: [Double] = []
    var checksum = 0
    let start = threadCPUSeconds()
    while samples.count < minimumRuns || threadCPUSeconds() - start < minimumSeconds {
        let before = threadCPUSeconds()
        checksum &+= try body()
        samples.append(threadCPUSeconds() - before)
    }
    blackHole(checksum)
    samples.sort()
    return samples[samples.count / 2]
}

/// A number of what the parse produced, so that none of it is dead code.
@inline(__always)
func consume(_ message: NDEFMessage) -> Int {
    let records = message.records
    var sum = records.count
    // Indices rather than `for record in`, which would copy (retain and release) each record.
    for index in records.indices {
        sum &+= records[index].payload.count &+ records[index].type.count &+ Int(records[index].tnf.rawValue)
    }
    return sum
}

let ndeflibScript = #"""
    import json, statistics, sys, time
    import ndef

    def read_messages(path):
        data = open(path, "rb").read()
        messages, offset = [], 0
        while offset < len(data):
            length = int.from_bytes(data[offset:offset + 4], "big")
            messages.append(data[offset + 4:offset + 4 + length])
            offset += 4 + length
        return messages

    def median_seconds(body, minimum_seconds=2.0, minimum_runs=7):
        # CPU time of this thread, as the Swift side measures.
        samples, start = [], time.thread_time()
        while len(samples) < minimum_runs or time.thread_time() - start < minimum_seconds:
            before = time.thread_time()
            body()
            samples.append(time.thread_time() - before)
        return statistics.median(samples)

    small = read_messages(sys.argv[1])
    large = read_messages(sys.argv[2])[0]

    def decode_small():
        total = 0
        for message in small:
            for record in ndef.message_decoder(message):
                total += 1
        assert total == 3 * len(small)

    def decode_large():
        records = list(ndef.message_decoder(large))
        assert len(records) == 1 and len(records[0].data) == 1 << 20

    small_seconds = median_seconds(decode_small)
    large_seconds = median_seconds(decode_large, minimum_runs=20)
    print(json.dumps({"messagesPerSecond": len(small) / small_seconds,
                      "gigabytesPerSecond": len(large) / large_seconds / 1e9}))
    """#

/// Runs the ndeflib script on the same messages; returns (messages/s, GB/s).
func runNDEFLib(small: [Data], large: Data) throws -> (messagesPerSecond: Double, gigabytesPerSecond: Double) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    func framed(_ messages: [Data]) -> Data {
        var out = Data()
        for message in messages {
            let length = UInt32(message.count)
            out.append(contentsOf: [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)])
            out.append(message)
        }
        return out
    }
    let script = directory.appendingPathComponent("ndeflib_bench.py")
    let smallFile = directory.appendingPathComponent("small.bin")
    let largeFile = directory.appendingPathComponent("large.bin")
    try Data(ndeflibScript.utf8).write(to: script)
    try framed(small).write(to: smallFile)
    try framed([large]).write(to: largeFile)

    let object = try runPythonReference(tool: "ndeflib", script: script, arguments: [smallFile.path, largeFile.path])
    guard let messages = object["messagesPerSecond"], let gigabytes = object["gigabytesPerSecond"] else {
        throw BenchError.reference("ndeflib did not print messagesPerSecond and gigabytesPerSecond: \(object)")
    }
    return (messages, gigabytes)
}

func runNDEFBench(json: Bool) async throws {
    let small = ndefBenchSmallMessages()
    let large = ndefBenchLargeMessage()

    // Sanity: the workloads are valid and decode to what the bench claims.
    for message in small.prefix(100) {
        let records = try NDEFParser.message(from: message).records
        guard records.count == 3, records[0].textRecord != nil, records[1].uriRecord != nil else {
            throw BenchError.reference("the small workload does not decode as three records")
        }
    }
    let largeRecord = try NDEFParser.message(from: large).records[0]
    let payloadOffset = largeRecord.payload.startIndex - large.startIndex
    let sharesStorage = large.withUnsafeBytes { input in
        largeRecord.payload.withUnsafeBytes { payload in
            payload.baseAddress == input.baseAddress.map { $0 + payloadOffset }
        }
    }
    guard sharesStorage else { throw BenchError.reference("the large payload was copied while parsing") }

    let smallSeconds = try medianSeconds {
        var sum = 0
        for index in small.indices { sum &+= consume(try NDEFParser.message(from: small[index])) }
        return sum
    }
    let largeIterations = BenchScale.pick(1000, smoke: 2)
    let largeSeconds =
        try medianSeconds {
            var sum = 0
            for _ in 0..<largeIterations { sum &+= consume(try NDEFParser.message(from: large)) }
            return sum
        } / Double(largeIterations)
    let messagesPerSecond = Double(small.count) / smallSeconds
    let gigabytesPerSecond = Double(large.count) / largeSeconds / 1e9

    let reference = try runNDEFLib(small: small, large: large)
    let smallRatio = messagesPerSecond / reference.messagesPerSecond
    let largeRatio = gigabytesPerSecond / reference.gigabytesPerSecond

    if json {
        let value = JSONValue.object([
            (
                "small",
                .object([
                    ("messagesPerSecond", .number(messagesPerSecond)),
                    ("ndeflibMessagesPerSecond", .number(reference.messagesPerSecond)),
                    ("ratio", .number(smallRatio)),
                ])
            ),
            (
                "large",
                .object([
                    ("gigabytesPerSecond", .number(gigabytesPerSecond)),
                    ("ndeflibGigabytesPerSecond", .number(reference.gigabytesPerSecond)),
                    ("ratio", .number(largeRatio)),
                ])
            ),
        ])
        print(value.serialized())
    } else {
        func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
        print("NDEF decode, strict (median CPU time of repeated runs, both sides)")
        print("  small: \(small.count) messages of 3 records (Text, URI, MIME), \(small.reduce(0) { $0 + $1.count }) bytes")
        print("    coldtap  \(format(messagesPerSecond, 0)) messages/s")
        print("    ndeflib  \(format(reference.messagesPerSecond, 0)) messages/s")
        print("    ratio    \(format(smallRatio, 1))x  (target >= 100x)")
        print("  large: one message with a 1 MiB MIME payload (\(large.count) bytes)")
        print("    coldtap  \(format(gigabytesPerSecond, 1)) GB/s (payload not copied)")
        print("    ndeflib  \(format(reference.gigabytesPerSecond, 2)) GB/s")
        print("    ratio    \(format(largeRatio, 1))x  (target >= 1 GB/s)")
    }
}
