import Archive
import CLibPQ
import CSQLite
import ColdChain
import Digest
import Foundation
import LoggerFormats
import TempChart

#if canImport(Glibc)
    import Glibc
#endif

// coldtap-bench archive: per engine (SQLite, PostgreSQL),
// - ingest: 1,000 overlapping reads of 4,000 samples (each read's first half already kept)
//   through `Archive.add` (stitching, SHA-256, hash chain, one transaction per read),
//   against a bare C-API loop that packs the same new samples into the same block rows and
//   inserts them into the same table (`sample_blocks`) with one prepared statement and one
//   transaction per read, in the same run: the engine's own limit;
// - history: one logger's year at 10-minute samples (52,560) in an archive of 100 such
//   loggers → stitched history → full-year assessment and report model (content + chart model).
// PostgreSQL runs on a private cluster this bench starts (initdb, Unix socket only) unless
// COLDTAP_BENCH_POSTGRESQL gives a URI. `--reads N` (default 1000) and `--postgresql-reads N`
// (default a quarter of that) change the number of ingested reads; `--engine sqlite|postgresql`
// runs one engine only, `--ingest-only` leaves out the history part and `--rounds N` sets the
// rounds (for profiling).

private let benchStart = Date(timeIntervalSince1970: 1_767_225_600)
private let benchInterval = 600.0

private func benchValue(_ n: Int) -> Double { ((5 + 2 * sin(Double(n) / 40)) * 10).rounded() / 10 }

/// A read of samples `first ..< first + count` of one logger, as decoded.
private func benchRead(first: Int, count: Int, logger: String) -> NewRead {
    var raw = Data(capacity: count * 2)
    var samples: [TemperatureLog.Sample] = []
    samples.reserveCapacity(count)
    for n in first..<(first + count) {
        let value = benchValue(n)
        let tenths = Int16(value * 10)
        raw.append(UInt8(truncatingIfNeeded: tenths))
        raw.append(UInt8(truncatingIfNeeded: tenths >> 8))
        samples.append(TemperatureLog.Sample(time: benchStart.addingTimeInterval(Double(n) * benchInterval), temperature: value))
    }
    raw.append(contentsOf: withUnsafeBytes(of: Int64(first).littleEndian) { Array($0) })
    let log = TemperatureLog(
        format: "bench", samples: samples, interval: benchInterval, timeBase: .loggerHeader,
        integrity: .init(status: .unverified, detail: "generated"),
        readTime: benchStart.addingTimeInterval(Double(first + count) * benchInterval),
        readTimeSource: .other("generated"))
    return NewRead(
        raw: raw, inputKind: "bench", origin: "coldtap-bench", decodeOptions: "{}", log: log, loggerID: logger,
        profile: nil, timeZone: .gmt)
}

private func wallSeconds() -> Double { Date().timeIntervalSinceReferenceDate }

struct ArchiveEngineFigures {
    var engine: String
    var reads: Int
    var newSamples: Int
    var ingestSeconds: Double
    var bareSeconds: Double
    var ingestCPUSeconds: Double
    var bareCPUSeconds: Double
    /// SQLite only: every row an add writes, written bare (`allRowsSQLite`).
    var allRowsSeconds: Double?
    var historySamples: Int
    var historyMilliseconds: Double
    var reportMilliseconds: Double
}

func runArchiveBench(_ json: Bool) async throws {
    let arguments = CommandLine.arguments
    var reads = BenchScale.pick(1000, smoke: 4)
    if let index = arguments.firstIndex(of: "--reads"), index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 {
        reads = value
    }
    let only = arguments.firstIndex(of: "--engine").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    let ingestOnly = arguments.contains("--ingest-only")
    var figures: [ArchiveEngineFigures] = []
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coldtap-bench-archive-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }

    if only == nil || only == "sqlite" {
        figures.append(try benchEngine("sqlite", reads: reads, history: !ingestOnly) { name in folder.appendingPathComponent("\(name).sqlite").path })
    }
    guard only == nil || only == "postgresql" else { return report(figures, json: json) }
    // Each PostgreSQL insert is a round trip to the server: a quarter of the reads keeps the
    // suite to minutes; the figures are rates, and the JSON says how many reads were made.
    var postgresReads = max(1, reads / 4)
    if let index = arguments.firstIndex(of: "--postgresql-reads"), index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 {
        postgresReads = value
    }

    let cluster: BenchCluster?
    if let given = ProcessInfo.processInfo.environment["COLDTAP_BENCH_POSTGRESQL"] {
        cluster = nil
        figures.append(
            try benchEngine("postgresql", reads: postgresReads, history: !ingestOnly) { name in
                let admin = try PostgreSQLEngine(uri: given)
                try admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
                try admin.execute("CREATE DATABASE \(name)")
                admin.close()
                return given.replacingOccurrences(of: "/postgres?", with: "/\(name)?")
            })
    } else {
        cluster = try BenchCluster.start()
    }
    if let cluster {
        defer { cluster.stop() }
        figures.append(
            try benchEngine("postgresql", reads: postgresReads, history: !ingestOnly) { name in
                let admin = try PostgreSQLEngine(uri: cluster.uri("postgres"))
                try admin.execute("CREATE DATABASE \(name)")
                admin.close()
                return cluster.uri(name)
            })
    }
    report(figures, json: json)
}

private func report(_ figures: [ArchiveEngineFigures], json: Bool) {
    func engineJSON(_ item: ArchiveEngineFigures) -> String {
        let ingest = Double(item.newSamples) / item.ingestSeconds
        let bare = Double(item.newSamples) / item.bareSeconds
        return """
            {"ingest": {"reads": \(item.reads), "samplesPerRead": 4000, "newSamples": \(item.newSamples), "samplesPerSecond": \(Int(ingest)), "bareInsertSamplesPerSecond": \(Int(bare)), "ratio": \(String(format: "%.3f", item.ingestSeconds / item.bareSeconds)), "cpuMsPerRead": \(String(format: "%.3f", item.ingestCPUSeconds * 1000 / Double(item.reads))), "bareCPUMsPerRead": \(String(format: "%.3f", item.bareCPUSeconds * 1000 / Double(item.reads))), "msPerRead": \(String(format: "%.3f", item.ingestSeconds * 1000 / Double(item.reads))), "bareMsPerRead": \(String(format: "%.3f", item.bareSeconds * 1000 / Double(item.reads)))\(item.allRowsSeconds.map { ", \"allRowsBareMsPerRead\": \(String(format: "%.3f", $0 * 1000 / Double(item.reads))), \"ratioToAllRows\": \(String(format: "%.3f", item.ingestSeconds / $0))" } ?? "")}, "history": {"samples": \(item.historySamples), "loggers": 100, "ms": \(String(format: "%.1f", item.historyMilliseconds + item.reportMilliseconds)), "historyMs": \(String(format: "%.1f", item.historyMilliseconds)), "reportModelMs": \(String(format: "%.1f", item.reportMilliseconds))}}
            """
    }
    guard let first = figures.first else { return }
    if json {
        // The first engine's figures at the top (the issue's shape), every engine's under "byEngine".
        let top = engineJSON(first).dropFirst().dropLast()
        let byEngine = figures.map { "\"\($0.engine)\": \(engineJSON($0))" }.joined(separator: ", ")
        print("{\(top), \"engines\": [\(figures.map { "\"\($0.engine)\"" }.joined(separator: ", "))], \"byEngine\": {\(byEngine)}}")
        return
    }
    print("archive: ingest of overlapping reads (4,000 samples, half already kept) and a year's history among 100 loggers")
    for item in figures {
        let ingest = Double(item.newSamples) / item.ingestSeconds
        let bare = Double(item.newSamples) / item.bareSeconds
        print(
            String(
                format: "  %@  ingest %d reads: %.0f samples/s (Archive.add)  vs  %.0f samples/s (bare prepared INSERT loop)  ratio %.2f (target ≤ 1.5)",
                item.engine, item.reads, ingest, bare, item.ingestSeconds / item.bareSeconds))
        print(
            String(
                format:
                    "  %@  per read: Archive.add %.3f ms (%.3f ms of it on the CPU)  vs  bare loop %.3f ms (%.3f ms on the CPU); the rest is waiting for the disk",
                item.engine, item.ingestSeconds * 1000 / Double(item.reads), item.ingestCPUSeconds * 1000 / Double(item.reads),
                item.bareSeconds * 1000 / Double(item.reads), item.bareCPUSeconds * 1000 / Double(item.reads)))
        if let allRows = item.allRowsSeconds {
            print(
                String(
                    format: "  %@  every row an add writes, written bare: %.3f ms per read (the schema's floor; Archive.add is %.2f× of it)",
                    item.engine, allRows * 1000 / Double(item.reads), item.ingestSeconds / allRows))
        }
        print(
            String(
                format: "  %@  history of %d samples %.1f ms + full-year assessment and report model %.1f ms = %.1f ms (target < 100 ms)",
                item.engine, item.historySamples, item.historyMilliseconds, item.reportMilliseconds,
                item.historyMilliseconds + item.reportMilliseconds))
    }
}

/// Ingest and history on one engine; `location(name)` makes a fresh empty archive.
private func benchEngine(
    _ engine: String, reads: Int, history measureHistory: Bool = true,
    location: (String) throws -> String
) throws -> ArchiveEngineFigures {
    // Rounds alternate which loop goes first, on fresh archives (a fresh PostgreSQL cluster
    // creates WAL segments at first, later reuses them); the best of each counts, as the
    // machine may be shared.
    let arguments = CommandLine.arguments
    let rounds =
        arguments.firstIndex(of: "--rounds").flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil }.map { max(1, $0) }
        ?? BenchScale.pick(engine == "sqlite" ? 3 : 2, smoke: 1)
    var ingestSeconds = Double.infinity
    var bareSeconds = Double.infinity
    var ingestCPUSeconds = Double.infinity
    var bareCPUSeconds = Double.infinity
    var allRowsSeconds: Double?
    var newSamples = 0
    for round in 0..<rounds {
        FileHandle.standardError.write(Data("archive bench: \(engine) ingest, round \(round + 1) of \(rounds) …\n".utf8))
        func ingest() throws {
            let archive = try Archive.open(try location("coldtap_bench_ingest_\(round)"))
            defer { archive.close() }
            newSamples = 0
            // The reads as decoded, made before the clock starts: the archive's work is measured.
            let made = (0..<reads).map { benchRead(first: $0 * 2000, count: 4000, logger: "bench:1") }
            let start = wallSeconds(), startCPU = threadCPUSeconds()
            for read in made {
                let result = try archive.add(read)
                newSamples += result.newSamples
            }
            ingestSeconds = min(ingestSeconds, wallSeconds() - start)
            ingestCPUSeconds = min(ingestCPUSeconds, threadCPUSeconds() - startCPU)
        }
        // The bare loop: the same new rows, the same table, one prepared statement.
        func bare() throws {
            let bareLocation = try location("coldtap_bench_bare_\(round)")
            try Archive.open(bareLocation).close()
            let (wall, cpu) = try engine == "sqlite" ? bareSQLite(bareLocation, reads: reads) : barePostgreSQL(bareLocation, reads: reads)
            bareSeconds = min(bareSeconds, wall)
            bareCPUSeconds = min(bareCPUSeconds, cpu)
            if engine == "sqlite" {
                let allRowsLocation = try location("coldtap_bench_all_rows_\(round)")
                try Archive.open(allRowsLocation).close()
                allRowsSeconds = min(allRowsSeconds ?? .infinity, try allRowsSQLite(allRowsLocation, reads: reads))
            }
        }
        if round % 2 == 0 {
            try ingest()
            try bare()
        } else {
            try bare()
            try ingest()
        }
    }

    guard measureHistory else {
        return ArchiveEngineFigures(
            engine: engine, reads: reads, newSamples: newSamples, ingestSeconds: ingestSeconds,
            bareSeconds: bareSeconds, ingestCPUSeconds: ingestCPUSeconds, bareCPUSeconds: bareCPUSeconds, allRowsSeconds: allRowsSeconds, historySamples: 0,
            historyMilliseconds: 0, reportMilliseconds: 0)
    }
    FileHandle.standardError.write(Data("archive bench: \(engine) history …\n".utf8))
    let historyLocation = try location("coldtap_bench_history")
    let history = try Archive.open(historyLocation)
    defer { history.close() }
    let yearSamples = 52_560
    // 99 other loggers' years, a block each written straight into the table; the measured one through Archive.add.
    let base = Int64(benchStart.timeIntervalSince1970 * 1000)
    let year = SampleBlock.encode(
        (0..<yearSamples).map {
            StoredSample(time: base + Int64($0) * 600_000, temperature: 5 + Double($0 % 30) / 10, humidity: nil, flags: "", readID: 0)
        })
    for other in 2...100 {
        try history.engine.execute(
            "INSERT INTO sample_blocks (logger_id, generation, first_ms, last_ms, read_id, sample_count, samples) VALUES ($1, 1, $2, $3, 0, $4, $5)",
            [.text("bench:\(other)"), .int(base), .int(base + Int64(yearSamples - 1) * 600_000), .int(Int64(yearSamples)), .blob(year)])
    }
    if engine == "postgresql" { try history.engine.execute("ANALYZE sample_blocks") }
    _ = try history.add(benchRead(first: 0, count: yearSamples, logger: "bench:1"))
    let profile = Profile.vaccineFridge
    let zone = TimeZone(identifier: "Europe/Berlin") ?? .gmt
    var historyRuns: [Double] = []
    var reportRuns: [Double] = []
    var count = 0
    for _ in 0..<BenchScale.pick(7, smoke: 1) {
        let start = wallSeconds()
        let record = try history.history(loggerID: "bench:1")
        let loaded = wallSeconds()
        let log = record.temperatureLog()
        let assessment = Assessor.assess(log, profile: profile, timeZone: zone)
        let content = ReportContent(log: log, assessment: assessment, language: .english)
        let model = ChartModel(
            content.chartSpec(
                frame: ChartRect(x: 0, y: 0, width: 1200, height: 600), timeZone: zone,
                language: .english, theme: .light, title: nil))
        let done = wallSeconds()
        count = record.samples.count + (model.drawnPointCount > 0 ? 0 : 1)
        historyRuns.append(loaded - start)
        reportRuns.append(done - loaded)
    }
    historyRuns.sort()
    reportRuns.sort()
    return ArchiveEngineFigures(
        engine: engine, reads: reads, newSamples: newSamples, ingestSeconds: ingestSeconds,
        bareSeconds: bareSeconds, ingestCPUSeconds: ingestCPUSeconds, bareCPUSeconds: bareCPUSeconds, allRowsSeconds: allRowsSeconds, historySamples: count,
        historyMilliseconds: historyRuns[historyRuns.count / 2] * 1000,
        reportMilliseconds: reportRuns[reportRuns.count / 2] * 1000)
}

/// The new rows of read `index` (its first half was kept by the read before).
private func newRange(_ index: Int) -> Range<Int> {
    index == 0 ? 0..<4000 : (index * 2000 + 2000)..<(index * 2000 + 4000)
}

/// The new samples of every read, made before the clock starts, as the reads handed to
/// `Archive.add` are.
private func bareSamples(reads: Int) -> [[StoredSample]] {
    let base = Int64(benchStart.timeIntervalSince1970 * 1000)
    return (0..<reads).map { index in
        newRange(index).map { StoredSample(time: base + Int64($0) * 600_000, temperature: benchValue($0), humidity: nil, flags: "", readID: Int64(index + 1)) }
    }
}

private let bareInsert =
    "INSERT INTO sample_blocks (logger_id, generation, first_ms, last_ms, read_id, sample_count, samples) VALUES ($1, $2, $3, $4, $5, $6, $7)"

/// The archive file opened as `SQLiteEngine` opens it (read-write, no connection mutex, WAL,
/// synchronous=FULL), for the bare loops.
private func openBareSQLite(_ path: String) throws -> OpaquePointer {
    var database: OpaquePointer?
    guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let database else {
        throw ArchiveBenchError("cannot open \(path)")
    }
    sqlite3_exec(database, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;", nil, nil, nil)
    return database
}

/// The engine's own limit: one transaction per read, one prepared INSERT of the read's block.
private func bareSQLite(_ path: String, reads: Int) throws -> (wall: Double, cpu: Double) {
    let database = try openBareSQLite(path)
    defer { sqlite3_close(database) }
    var statement: OpaquePointer?
    sqlite3_prepare_v2(database, bareInsert.replacingOccurrences(of: "$", with: "?"), -1, &statement, nil)
    guard let statement else { throw ArchiveBenchError("cannot prepare the bare insert") }
    defer { sqlite3_finalize(statement) }
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    let samples = bareSamples(reads: reads)
    let columns = samples.map(SampleColumns.init)
    let start = wallSeconds(), startCPU = threadCPUSeconds()
    for index in 0..<reads {
        let block = SampleBlock.encode(columns[index])
        sqlite3_exec(database, "BEGIN IMMEDIATE", nil, nil, nil)
        sqlite3_bind_text(statement, 1, "bench:1", -1, transient)
        sqlite3_bind_int64(statement, 2, 1)
        sqlite3_bind_int64(statement, 3, samples[index].first?.time ?? 0)
        sqlite3_bind_int64(statement, 4, samples[index].last?.time ?? 0)
        sqlite3_bind_int64(statement, 5, Int64(index + 1))
        sqlite3_bind_int64(statement, 6, Int64(samples[index].count))
        block.withUnsafeBytes { _ = sqlite3_bind_blob(statement, 7, $0.baseAddress, Int32($0.count), transient) }
        guard sqlite3_step(statement) == SQLITE_DONE else { throw ArchiveBenchError(String(cString: sqlite3_errmsg(database))) }
        sqlite3_reset(statement)
        sqlite3_exec(database, "COMMIT", nil, nil, nil)
    }
    return (wallSeconds() - start, threadCPUSeconds() - startCPU)
}

/// The floor of this schema: every row an add writes (the read with its raw bytes and both
/// of its indexes, its generation row, the chain head, the block), by prepared statements in
/// one transaction per read, with no stitching, hashing or checking. Only the ingest's
/// distance from this loop is ColdTap's own cost.
private func allRowsSQLite(_ path: String, reads: Int) throws -> Double {
    let database = try openBareSQLite(path)
    defer { sqlite3_close(database) }
    // As `benchRead` describes its reads: input kind, read-time source, origin, version, decoder, options, integrity, time base.
    let readTexts: [(Int32, String)] = [
        (4, "bench"), (6, "not given"), (7, "coldtap-bench"), (8, "1.0"), (9, "bench"), (10, "{}"),
        (11, "unverified"), (12, "generated"), (13, "loggerHeader"),
    ]
    let sql = [
        "INSERT INTO reads (logger_id, read_id, chain_seq, raw_sha256, input_kind, read_time_ms, read_time_source, origin, coldtap_version, decoder, decode_options, integrity_status, integrity_detail, time_base, interval_s, sample_count, first_sample_ms, last_sample_ms, time_offset_ms, generation, new_samples, duplicates, conflicts, gap_from_ms, gap_to_ms, added_ms, samples_sha256, prev_hash, hash, raw) VALUES (?1, ?2, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, 600, 4000, ?5, ?5, 0, 1, 2000, 2000, 0, NULL, NULL, ?5, ?3, ?3, ?3, ?14)",
        "INSERT INTO read_generations (logger_id, generation, read_id, time_offset_ms, new_samples, duplicates, conflicts, samples_sha256) VALUES (?1, 1, ?2, 0, 2000, 2000, 0, ?3)",
        "UPDATE chain_head SET seq = ?2, hash = ?3, next_read_id = ?2 + 1 WHERE id = 1",
        "INSERT INTO sample_blocks (logger_id, generation, first_ms, last_ms, read_id, sample_count, samples) VALUES (?1, 1, ?4, ?5, ?2, ?6, ?7)",
    ]
    var statements: [OpaquePointer] = []
    defer { statements.forEach { sqlite3_finalize($0) } }
    for text in sql {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, text, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw ArchiveBenchError("cannot prepare: \(String(cString: sqlite3_errmsg(database)))")
        }
        statements.append(statement)
    }
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    let samples = bareSamples(reads: reads)
    let columns = samples.map(SampleColumns.init)
    let raws = (0..<reads).map { benchRead(first: $0 * 2000, count: 4000, logger: "bench:1").raw }
    let hashes = raws.map { SHA256Digest.hex($0) }
    let start = wallSeconds()
    for index in 0..<reads {
        let block = SampleBlock.encode(columns[index])
        sqlite3_exec(database, "BEGIN IMMEDIATE", nil, nil, nil)
        let readTime = samples[index].last?.time ?? 0
        for (number, statement) in statements.enumerated() {
            sqlite3_bind_text(statement, 1, "bench:1", -1, transient)
            sqlite3_bind_int64(statement, 2, Int64(index + 1))
            sqlite3_bind_text(statement, 3, hashes[index], -1, transient)
            switch number {
            case 0:
                sqlite3_bind_int64(statement, 5, readTime)
                for (parameter, text) in readTexts { sqlite3_bind_text(statement, parameter, text, -1, transient) }
                raws[index].withUnsafeBytes { _ = sqlite3_bind_blob(statement, 14, $0.baseAddress, Int32($0.count), transient) }
            case 3:
                sqlite3_bind_int64(statement, 4, samples[index].first?.time ?? 0)
                sqlite3_bind_int64(statement, 5, readTime)
                sqlite3_bind_int64(statement, 6, Int64(samples[index].count))
                block.withUnsafeBytes { _ = sqlite3_bind_blob(statement, 7, $0.baseAddress, Int32($0.count), transient) }
            default:
                break
            }
            guard sqlite3_step(statement) == SQLITE_DONE else { throw ArchiveBenchError(String(cString: sqlite3_errmsg(database))) }
            sqlite3_reset(statement)
        }
        sqlite3_exec(database, "COMMIT", nil, nil, nil)
    }
    return wallSeconds() - start
}

/// The same on PostgreSQL: text parameters, the block as a binary one.
private func barePostgreSQL(_ uri: String, reads: Int) throws -> (wall: Double, cpu: Double) {
    guard let connection = PQconnectdb(uri), PQstatus(connection) == CONNECTION_OK else { throw ArchiveBenchError("cannot connect to \(uri)") }
    defer { PQfinish(connection) }
    PQclear(PQprepare(connection, "bare", bareInsert, 0, nil))
    let samples = bareSamples(reads: reads)
    let columns = samples.map(SampleColumns.init)
    let start = wallSeconds(), startCPU = threadCPUSeconds()
    for index in 0..<reads {
        let block = SampleBlock.encode(columns[index])
        PQclear(PQexec(connection, "BEGIN"))
        let texts = [
            "bench:1", "1", String(samples[index].first?.time ?? 0), String(samples[index].last?.time ?? 0), String(index + 1), String(samples[index].count),
        ]
        let cStrings = texts.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        let result: OpaquePointer? = block.withUnsafeBytes { bytes in
            var pointers: [UnsafePointer<CChar>?] = cStrings.map { UnsafePointer($0) }
            pointers.append(bytes.baseAddress?.assumingMemoryBound(to: CChar.self))
            var lengths: [Int32] = Array(repeating: 0, count: 6) + [Int32(bytes.count)]
            var formats: [Int32] = Array(repeating: 0, count: 6) + [1]
            return PQexecPrepared(connection, "bare", 7, &pointers, &lengths, &formats, 0)
        }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            let message = String(cString: PQresultErrorMessage(result))
            PQclear(result)
            throw ArchiveBenchError(message)
        }
        PQclear(result)
        PQclear(PQexec(connection, "COMMIT"))
    }
    return (wallSeconds() - start, threadCPUSeconds() - startCPU)
}

/// A private PostgreSQL cluster for the bench (as the tests make one): initdb in a temporary
/// folder, run as the postgres user, Unix socket only; durability as a server is configured
/// by default (fsync on).
final class BenchCluster {
    let folder: String
    let binaries: String

    private init(folder: String, binaries: String) {
        self.folder = folder
        self.binaries = binaries
    }

    func uri(_ database: String) -> String {
        "postgresql:///\(database)?host=\(folder.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? folder)&user=postgres"
    }

    static func start() throws -> BenchCluster {
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }
        guard geteuid() == 0, let version = versions.first, let account = getpwnam("postgres") else {
            throw ArchiveBenchError("the PostgreSQL part needs root and the Debian package postgresql, or COLDTAP_BENCH_POSTGRESQL=URI of a server")
        }
        // The system temporary folder (TMPDIR, else /tmp); the cluster's Unix socket lives in it.
        var template = Array((URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("coldtap-bench-pg-XXXXXX").path).utf8CString)
        guard let made = mkdtemp(&template) else { throw ArchiveBenchError("cannot make a folder for the cluster") }
        let folder = String(cString: made)
        chown(folder, account.pointee.pw_uid, account.pointee.pw_gid)
        let cluster = BenchCluster(folder: folder, binaries: "/usr/lib/postgresql/\(version)/bin")
        // `wal_init_zero=off`: a fresh cluster has no WAL segments to recycle, so every 16 MB of
        // WAL (about 200 uploads) it would create and zero-fill a new segment and stall every
        // writer for about 45 ms; a server in service recycles its segments instead
        // (docs/station-fleet.md, "Deploying"). The bench measures the server in service.
        let script = """
            set -e
            for fd in /proc/$$/fd/*; do n=${fd##*/}; if [ "$n" -gt 2 ] && [ "$n" -ne 255 ]; then eval "exec $n>&-"; fi; done
            /usr/sbin/runuser -u postgres -- '\(cluster.binaries)/initdb' -D '\(folder)/data' -A trust -U postgres -E UTF8 --no-instructions
            exec /usr/sbin/runuser -u postgres -- '\(cluster.binaries)/pg_ctl' -D '\(folder)/data' -l '\(folder)/server.log' -w -t 60 \\
              -o "-c listen_addresses='' -c unix_socket_directories='\(folder)' -c wal_init_zero=off" start
            """
        FileManager.default.createFile(atPath: "\(folder)/start.sh", contents: Data(script.utf8))
        guard system("/bin/bash '\(folder)/start.sh' </dev/null >'\(folder)/start.out' 2>&1") == 0 else {
            let output = (try? String(contentsOfFile: "\(folder)/start.out", encoding: .utf8)) ?? ""
            cluster.stop()
            throw ArchiveBenchError("the bench's PostgreSQL cluster did not start: \(output)")
        }
        return cluster
    }

    func stop() {
        _ = system("/usr/sbin/runuser -u postgres -- '\(binaries)/pg_ctl' -D '\(folder)/data' -m fast -w stop </dev/null >/dev/null 2>&1")
        try? FileManager.default.removeItem(atPath: folder)
    }
}

struct ArchiveBenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
