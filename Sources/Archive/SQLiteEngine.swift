import CSQLite
import Foundation

/// The embedded engine: one SQLite file in WAL mode (readers never wait for the writer),
/// with a busy timeout so that two processes adding at once take turns instead of failing.
public final class SQLiteEngine: ArchiveEngine {
    public let engineName = "sqlite"
    public let location: String
    public let bytesType = "BLOB"
    private var database: OpaquePointer?
    /// How long a writer waits for another one, in milliseconds.
    public static let busyTimeoutMilliseconds: Int32 = 15_000

    /// Opens (creating when `create`) the archive file at `path`.
    /// - Throws: `ArchiveError` — `.readOnly` when the file or its folder cannot be written
    ///   and `create` needs it, `.corrupt` when it is not a database, `.engine` otherwise.
    public init(path: String, create: Bool = true) throws {
        location = path
        if create {
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                } catch {
                    throw ArchiveError(.readOnly, "cannot create the archive folder '\(folder)' (\(error.localizedDescription)).", hint: .useAnotherArchive)
                }
            }
        } else if !FileManager.default.fileExists(atPath: path) {
            throw ArchiveError(.notFound, "there is no archive at '\(path)'.", hint: .keepAReadFirst)
        } else if !SQLiteEngine.startsAsSQLite(path) {
            // Looked at before SQLite opens it: switching an empty file to WAL would write
            // a database header into it.
            throw ArchiveError(
                .corrupt,
                "'\(path)' is not a ColdTap archive or is damaged (it does not start as an SQLite database); nothing was changed; restore it from a backup.",
                hint: .useAnotherArchive)
        }
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let detail = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            throw SQLiteEngine.error(code: status, detail: detail, path: path, what: "open")
        }
        database = handle
        sqlite3_busy_timeout(handle, SQLiteEngine.busyTimeoutMilliseconds)
        sqlite3_extended_result_codes(handle, 1)
        do {
            // Another program's database is refused before anything is written into it (the
            // switch to WAL below writes its header): nothing in it may change.
            try refuseAnotherProgramsDatabase()
            // A damaged or foreign file shows here, at the first read of its header.
            try switchToWAL()
            try execute("PRAGMA synchronous=FULL")
            try execute("PRAGMA cache_size=-65536")
            try execute("PRAGMA foreign_keys=ON")
        } catch {
            close()
            throw error
        }
    }

    /// An SQLite database that holds tables but not ColdTap's schema record belongs to
    /// another program: refused, naming a few of its tables.
    private func refuseAnotherProgramsDatabase() throws {
        var names: [String] = []
        try query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name", []) { names.append($0.text(0)) }
        guard !names.isEmpty, !names.contains("schema_migrations") else { return }
        throw ArchiveError(
            .corrupt,
            "'\(location)' is another program's SQLite database (its tables: \(names.prefix(5).joined(separator: ", "))\(names.count > 5 ? ", …" : "")), not a ColdTap archive; nothing was changed.",
            hint: .useAnotherArchive)
    }

    /// Whether the file starts with SQLite's header ("SQLite format 3" and a zero byte).
    static func startsAsSQLite(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 16)) ?? Data()
        return head == Data("SQLite format 3\u{0}".utf8)
    }

    /// Two processes opening a new archive at once race for the switch to WAL, which needs
    /// the exclusive lock while the pragma holds a shared one: SQLite answers that with
    /// SQLITE_BUSY at once, without waiting in the busy handler, so the wait is here.
    private func switchToWAL() throws {
        let deadline = Date().addingTimeInterval(Double(SQLiteEngine.busyTimeoutMilliseconds) / 1000)
        while true {
            do {
                try query("PRAGMA journal_mode=WAL", []) { _ in }
                return
            } catch let error as ArchiveError where error.kind == .busy && Date() < deadline {
                usleep(20_000)
            }
        }
    }

    deinit { close() }

    public func close() {
        for statement in cache.values { sqlite3_finalize(statement) }
        cache.removeAll()
        if let database {
            sqlite3_close_v2(database)
            self.database = nil
        }
    }

    public func execute(_ sql: String, _ values: [SQLValue]) throws {
        let statement = try cached(sql)
        defer { release(sql, statement) }
        try bind(values, to: statement)
        var status = sqlite3_step(statement)
        while status == SQLITE_ROW { status = sqlite3_step(statement) }
        guard status == SQLITE_DONE else { throw failure(status, what: "write") }
    }

    public func query(_ sql: String, _ values: [SQLValue], _ row: (any ArchiveRow) throws -> Void) throws {
        let statement = try cached(sql)
        defer { release(sql, statement) }
        try bind(values, to: statement)
        let current = SQLiteRow(statement: statement)
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw failure(status, what: "read") }
            try row(current)
        }
    }

    public func prepare(_ sql: String) throws -> any ArchiveStatement {
        SQLitePrepared(engine: self, statement: try compile(sql))
    }

    public func executeScript(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(database, SQLiteEngine.placeholders(sql), nil, nil, &message)
        let detail = message.map { String(cString: $0) }
        sqlite3_free(message)
        guard status == SQLITE_OK else {
            throw SQLiteEngine.error(code: status, detail: detail ?? errorMessage, path: location, what: "migrate")
        }
    }

    public func beginWrite() throws { try execute("BEGIN IMMEDIATE") }
    public func beginRead() throws { try execute("BEGIN DEFERRED") }
    public func commit() throws { try execute("COMMIT") }

    public func tableExists(_ name: String) throws -> Bool {
        try scalarInt("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = $1", [.text(name)]) ?? 0 > 0
    }

    /// `BEGIN IMMEDIATE` already holds the only write lock.
    public func lockForMigration() throws {}

    public func rollback() {
        guard let database, sqlite3_get_autocommit(database) == 0 else { return }
        sqlite3_exec(database, "ROLLBACK", nil, nil, nil)
    }

    // MARK: Statements

    /// SQLite reads `?NNN` as parameter NNN; the portable SQL writes `$NNN`.
    static func placeholders(_ sql: String) -> String {
        guard sql.contains("$") else { return sql }
        var out = ""
        var previous: Character = " "
        for character in sql {
            if previous == "$", !character.isNumber { out.append("$") }
            if character == "$" { previous = character; continue }
            if previous == "$" { out.append("?") }
            out.append(character)
            previous = character
        }
        if previous == "$" { out.append("$") }
        return out.replacingOccurrences(of: " BYTES", with: " BLOB")
    }

    /// Statements compiled once per connection (an archive runs the same few again and again).
    private var cache: [String: OpaquePointer] = [:]

    /// The cached statement for `sql`, taken out of the cache while in use (a statement run
    /// inside another's row callback gets its own).
    private func cached(_ sql: String) throws -> OpaquePointer {
        if let statement = cache.removeValue(forKey: sql) { return statement }
        return try compile(sql)
    }

    private func release(_ sql: String, _ statement: OpaquePointer) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        if database != nil, cache[sql] == nil, cache.count < 64 {
            cache[sql] = statement
        } else {
            sqlite3_finalize(statement)
        }
    }

    fileprivate func compile(_ sql: String) throws -> OpaquePointer {
        guard let database else { throw ArchiveError(.engine, "the archive '\(location)' is closed.") }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(database, SQLiteEngine.placeholders(sql), -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw failure(status, what: "read") }
        return statement
    }

    /// Binds `values` to positions 1…; a value the same as in `previous` (what the statement
    /// still holds: bindings outlive `sqlite3_reset`) is not bound again.
    fileprivate func bind(_ values: [SQLValue], to statement: OpaquePointer, previous: [SQLValue] = []) throws {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (index, value) in values.enumerated() {
            if index < previous.count, SQLiteEngine.sameBinding(previous[index], value) { continue }
            let position = Int32(index + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, position)
            case .int(let number): status = sqlite3_bind_int64(statement, position, number)
            case .double(let number): status = sqlite3_bind_double(statement, position, number)
            case .text(let text): status = sqlite3_bind_text(statement, position, text, -1, transient)
            case .blob(let data):
                status = data.withUnsafeBytes { buffer in
                    // A zero-length blob still needs a non-null pointer to be a blob, not NULL.
                    sqlite3_bind_blob(
                        statement, position, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                        Int32(buffer.count), transient)
                }
            }
            guard status == SQLITE_OK else { throw failure(status, what: "write") }
        }
    }

    /// The same value bound the same way (doubles bit for bit: −0 is bound again after 0).
    static func sameBinding(_ a: SQLValue, _ b: SQLValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.int(x), .int(y)): return x == y
        case let (.double(x), .double(y)): return x.bitPattern == y.bitPattern
        case let (.text(x), .text(y)): return x == y
        default: return false
        }
    }

    private var errorMessage: String {
        database.map { String(cString: sqlite3_errmsg($0)) } ?? "closed"
    }

    fileprivate func failure(_ status: Int32, what: String) -> ArchiveError {
        SQLiteEngine.error(code: status, detail: errorMessage, path: location, what: what)
    }

    /// One sentence per kind of failure, saying what it means for the data and what to do.
    static func error(code: Int32, detail: String, path: String, what: String) -> ArchiveError {
        switch code & 0xFF {
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            return ArchiveError(
                .corrupt, "'\(path)' is not a ColdTap archive or is damaged (SQLite: \(detail)); nothing was changed; restore it from a backup.",
                hint: .useAnotherArchive)
        case SQLITE_READONLY:
            return ArchiveError(
                .readOnly, "the archive '\(path)' is read-only (SQLite: \(detail)); nothing was added; make the file and its folder writable.",
                hint: .useAnotherArchive)
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH:
            return ArchiveError(
                .readOnly, "the archive '\(path)' cannot be opened for writing (SQLite: \(detail)); check the permissions of the file and its folder.")
        case SQLITE_FULL:
            return ArchiveError(
                .full,
                "the disk holding the archive '\(path)' is full (SQLite: \(detail)); this read was not kept and nothing kept before was lost; free some space and add it again."
            )
        case SQLITE_IOERR:
            return ArchiveError(
                .full,
                "the archive '\(path)' could not be written (SQLite I/O error: \(detail)); this read was not kept and nothing kept before was lost; check the disk."
            )
        case SQLITE_BUSY, SQLITE_LOCKED:
            return ArchiveError(
                .busy,
                "the archive '\(path)' stayed locked by another writer for \(busyTimeoutMilliseconds / 1000) s (SQLite: \(detail)); nothing was added; try again."
            )
        default:
            return ArchiveError(.engine, "the archive '\(path)' failed to \(what) (SQLite \(code): \(detail)).")
        }
    }
}

/// The current row of a running SQLite statement.
struct SQLiteRow: ArchiveRow {
    let statement: OpaquePointer

    func isNull(_ column: Int) -> Bool { sqlite3_column_type(statement, Int32(column)) == SQLITE_NULL }
    func int(_ column: Int) -> Int64 { sqlite3_column_int64(statement, Int32(column)) }
    func double(_ column: Int) -> Double { sqlite3_column_double(statement, Int32(column)) }
    func text(_ column: Int) -> String {
        guard let pointer = sqlite3_column_text(statement, Int32(column)) else { return "" }
        return String(cString: pointer)
    }
    func blob(_ column: Int) -> Data {
        let count = Int(sqlite3_column_bytes(statement, Int32(column)))
        guard count > 0, let pointer = sqlite3_column_blob(statement, Int32(column)) else { return Data() }
        return Data(bytes: pointer, count: count)
    }
}

final class SQLitePrepared: ArchiveStatement {
    private let engine: SQLiteEngine
    private let statement: OpaquePointer

    init(engine: SQLiteEngine, statement: OpaquePointer) {
        self.engine = engine
        self.statement = statement
    }

    deinit { sqlite3_finalize(statement) }

    /// What the statement holds bound from the previous run.
    private var bound: [SQLValue] = []

    func run(_ values: [SQLValue]) throws {
        sqlite3_reset(statement)
        let previous = bound
        bound = []
        try engine.bind(values, to: statement, previous: previous)
        bound = values
        let status = sqlite3_step(statement)
        guard status == SQLITE_DONE || status == SQLITE_ROW else {
            sqlite3_reset(statement)
            throw engine.failure(status, what: "write")
        }
        sqlite3_reset(statement)
    }
}
