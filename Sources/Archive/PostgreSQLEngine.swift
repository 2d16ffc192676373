import CLibPQ
import Foundation

/// The shared engine: a PostgreSQL server through libpq, for fleets whose stations and
/// desktops keep one record. Parameters go as text (raw bytes as binary), results come back
/// as text; the server's float output is the shortest text that reads back as the same double.
public final class PostgreSQLEngine: ArchiveEngine {
    public let engineName = "postgresql"
    public let location: String
    public let bytesType = "BYTEA"
    /// The URI as given (with its password): a second connection names a damaged relation.
    private let uri: String
    private var connection: OpaquePointer?
    /// The error that aborted the open transaction: statements after it fail with 25P02
    /// ("current transaction is aborted"), which says nothing; they report this one instead.
    private var abortedBy: ArchiveError?
    private var preparedCount = 0
    /// Writes waiting to be sent with the next ones (`executeDeferred`).
    private var deferred: [(sql: String, values: [SQLValue])] = []
    /// Statements this connection has prepared, by SQL text: the server parses and plans
    /// each once instead of at every add (a dozen statements an upload).
    private var preparedBySQL: [String: String] = [:]
    /// True once the schema exists, so that write transactions can lock the chain head.
    var chainHeadExists = false

    /// True for a libpq connection URI (`postgresql://…`, `postgres://…`).
    public static func isURI(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://")
    }

    /// Connects to the server named by the libpq connection URI.
    /// - Throws: `ArchiveError(.unavailable)` when the server cannot be reached or refuses us.
    public init(uri: String) throws {
        location = PostgreSQLEngine.redacted(uri)
        self.uri = uri
        let handle = PQconnectdb(uri)
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            let detail = handle.map { PostgreSQLEngine.clean(String(cString: PQerrorMessage($0))) } ?? "out of memory"
            PQfinish(handle)
            throw ArchiveError(
                .unavailable,
                "cannot reach the PostgreSQL archive \(PostgreSQLEngine.redacted(uri)) (\(detail)); check that the server runs and the URI is right.")
        }
        connection = handle
        try execute("SET client_min_messages TO warning")
        try execute("SET TIME ZONE 'UTC'")
    }

    deinit { close() }

    public func close() {
        deferred = []
        if let connection {
            PQfinish(connection)
            self.connection = nil
        }
    }

    /// The URI without a password, for messages.
    static func redacted(_ uri: String) -> String {
        guard var components = URLComponents(string: uri), components.password != nil else { return uri }
        components.password = "***"
        return components.string ?? uri
    }

    static func clean(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "\n", with: "; ")
    }

    // MARK: Statements

    public func execute(_ sql: String, _ values: [SQLValue]) throws {
        let result = try run(sql, values)
        PQclear(result)
    }

    public func executeDeferred(_ sql: String, _ values: [SQLValue]) throws {
        guard connection != nil else { throw closedError }
        deferred.append((sql, values))
    }

    public func dropDeferredWrites(after sql: String) {
        if let last = deferred.lastIndex(where: { $0.sql == sql }) {
            deferred.removeSubrange((last + 1)...)
        } else {
            deferred = []
        }
    }

    /// Sends the deferred writes now.
    public func flushWrites() throws {
        guard !deferred.isEmpty else { return }
        let writes = deferred
        deferred = []
        if let last = try pipeline(writes, keepingLastResult: false) { PQclear(last) }
    }

    /// Sends `statements` in one pipeline (libpq's pipeline mode: all sent, one sync, then
    /// every result read), so that they cost one round trip instead of one each; deferred
    /// writes go out this way with the statement after them. Returns the last statement's
    /// result when asked (the caller clears it); throws the first failure.
    private func pipeline(_ statements: [(sql: String, values: [SQLValue])], keepingLastResult: Bool) throws -> OpaquePointer? {
        guard let connection else { throw closedError }
        // Prepared before the pipeline starts: preparing waits for its answer.
        let names = try statements.map { try preparedName($0.sql) }
        guard statements.count > 1 else {
            let result = try send(statements[0], name: names[0], on: connection)
            if !keepingLastResult { PQclear(result) }
            return keepingLastResult ? result : nil
        }
        guard PQenterPipelineMode(connection) == 1 else { try check(nil, sql: statements[0].sql); return nil }
        var sent = 0
        for (statement, name) in zip(statements, names) {
            let accepted = try withParameters(statement.values) { count, pointers, lengths, formats in
                if let name { return PQsendQueryPrepared(connection, name, count, pointers, lengths, formats, 0) }
                return PQsendQueryParams(connection, PostgreSQLEngine.types(statement.sql), count, nil, pointers, lengths, formats, 0)
            }
            guard accepted == 1 else { break }
            sent += 1
        }
        let synced = PQpipelineSync(connection) == 1
        // Each statement's results end with a NULL; after the first failure the others come
        // back PGRES_PIPELINE_ABORTED (not run). The first failure is the one reported.
        var failure: (result: OpaquePointer?, sql: String)?
        var last: OpaquePointer?
        for index in 0..<sent {
            while let result = PQgetResult(connection) {
                let status = PQresultStatus(result)
                if failure == nil, status != PGRES_COMMAND_OK, status != PGRES_TUPLES_OK, status != PGRES_PIPELINE_ABORTED {
                    failure = (result, statements[index].sql)
                } else if keepingLastResult && index == statements.count - 1 && failure == nil && last == nil {
                    last = result
                } else {
                    PQclear(result)
                }
            }
        }
        if synced, let sync = PQgetResult(connection) { PQclear(sync) }
        let exited = PQexitPipelineMode(connection) == 1
        if let failure {
            if let last { PQclear(last) }
            try check(failure.result, sql: failure.sql)
            return nil
        }
        guard sent == statements.count, synced, exited else {
            if let last { PQclear(last) }
            try check(nil, sql: statements[min(sent, statements.count - 1)].sql)
            return nil
        }
        // Also clears the aborted state once a statement has gone through.
        if keepingLastResult { try check(last, sql: statements[statements.count - 1].sql) }
        return last
    }

    /// One statement, waiting for its result.
    private func send(_ statement: (sql: String, values: [SQLValue]), name: String?, on connection: OpaquePointer) throws -> OpaquePointer {
        let result = try withParameters(statement.values) { count, pointers, lengths, formats in
            if let name { return PQexecPrepared(connection, name, count, pointers, lengths, formats, 0) }
            return PQexecParams(connection, PostgreSQLEngine.types(statement.sql), count, nil, pointers, lengths, formats, 0)
        }
        try check(result, sql: statement.sql)
        guard let result else { throw closedError }
        return result
    }

    public func query(_ sql: String, _ values: [SQLValue], _ row: (any ArchiveRow) throws -> Void) throws {
        let result = try run(sql, values)
        defer { PQclear(result) }
        let rows = PQntuples(result)
        var current = PostgreSQLRow(result: result, row: 0)
        for index in 0..<rows {
            current.row = index
            try row(current)
        }
    }

    /// The prepared statement for `sql` (prepared now if new), or `nil` for statements run
    /// as they are: transaction control and other utility commands, and past 256 texts.
    private func preparedName(_ sql: String) throws -> String? {
        if let name = preparedBySQL[sql] { return name }
        let verb = sql.prefix(7).uppercased()
        guard ["SELECT ", "INSERT ", "UPDATE ", "DELETE "].contains(where: { verb.hasPrefix($0) }), preparedBySQL.count < 256,
            let connection
        else { return nil }
        preparedCount += 1
        let name = "coldtap_\(preparedCount)"
        let result = PQprepare(connection, name, PostgreSQLEngine.types(sql), 0, nil)
        try check(result, sql: sql)
        PQclear(result)
        preparedBySQL[sql] = name
        return name
    }

    public func prepare(_ sql: String) throws -> any ArchiveStatement {
        try flushWrites()
        guard let connection else { throw closedError }
        preparedCount += 1
        let name = "coldtap_\(preparedCount)"
        let result = PQprepare(connection, name, PostgreSQLEngine.types(sql), 0, nil)
        try check(result, sql: sql)
        PQclear(result)
        return PostgreSQLPrepared(engine: self, name: name)
    }

    public func executeScript(_ sql: String) throws {
        try flushWrites()
        guard let connection else { throw closedError }
        let result = PQexec(connection, PostgreSQLEngine.types(sql))
        try check(result, sql: sql)
        PQclear(result)
    }

    public func beginWrite() throws {
        try execute("BEGIN")
        // Writers append to one hash chain: they take turns on its head row.
        if chainHeadExists {
            do {
                try execute("SELECT seq FROM chain_head WHERE id = 1 FOR UPDATE")
            } catch {
                rollback()
                throw error
            }
        }
    }

    public func beginRead() throws { try execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") }
    public func commit() throws { try execute("COMMIT") }

    /// The tables of the current schema, by name.
    public func tableNames() throws -> [String] {
        var names: [String] = []
        try query(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name", []
        ) { names.append($0.text(0)) }
        return names
    }

    public func tableExists(_ name: String) throws -> Bool {
        let exists =
            try scalarInt(
                "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1",
                [.text(name)]) ?? 0 > 0
        if name == "chain_head" || name == "schema_migrations" { chainHeadExists = chainHeadExists || exists }
        return exists
    }

    /// A transaction-scoped advisory lock: concurrent first opens migrate one after the other.
    public func lockForMigration() throws {
        try execute("SELECT pg_advisory_xact_lock(1129270356)")
    }

    public func rollback() {
        deferred = []
        abortedBy = nil
        guard let connection, PQstatus(connection) == CONNECTION_OK,
            PQtransactionStatus(connection) != PQTRANS_IDLE
        else { return }
        PQclear(PQexec(connection, "ROLLBACK"))
    }

    private var closedError: ArchiveError {
        ArchiveError(.connectionLost, "the connection to the PostgreSQL archive \(location) is closed.")
    }

    static func types(_ sql: String) -> String {
        sql.replacingOccurrences(of: " BYTES", with: " BYTEA")
    }

    fileprivate func run(_ sql: String, _ values: [SQLValue]) throws -> OpaquePointer {
        guard connection != nil else { throw closedError }
        // Deferred writes go out with this statement, in one round trip.
        let statements = deferred + [(sql, values)]
        deferred = []
        guard let result = try pipeline(statements, keepingLastResult: true) else { throw closedError }
        return result
    }

    fileprivate func runPrepared(_ name: String, _ values: [SQLValue]) throws {
        try flushWrites()
        guard let connection else { throw closedError }
        let result = try withParameters(values) { count, pointers, lengths, formats in
            PQexecPrepared(connection, name, count, pointers, lengths, formats, 0)
        }
        try check(result, sql: name)
        PQclear(result)
    }

    /// Parameters as libpq wants them: text for numbers and strings, binary for bytes.
    private func withParameters<T>(
        _ values: [SQLValue],
        _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> T
    ) throws -> T {
        var storage: [Data?] = []
        var formats: [Int32] = []
        storage.reserveCapacity(values.count)
        for value in values {
            switch value {
            case .null: storage.append(nil); formats.append(0)
            case .int(let number): storage.append(Data((String(number) + "\0").utf8)); formats.append(0)
            case .double(let number):
                let text = number.isNaN ? "NaN" : number.isInfinite ? (number > 0 ? "Infinity" : "-Infinity") : "\(number)"
                storage.append(Data((text + "\0").utf8)); formats.append(0)
            case .text(let text): storage.append(Data((text + "\0").utf8)); formats.append(0)
            case .blob(let data): storage.append(data); formats.append(1)
            }
        }
        let lengths = storage.map { Int32($0?.count ?? 0) }
        // Keep every buffer alive while libpq reads it.
        let buffers = storage.map { data -> UnsafeMutableRawBufferPointer? in
            guard let data else { return nil }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Swift.max(data.count, 1), alignment: 1)
            _ = data.copyBytes(to: buffer.bindMemory(to: UInt8.self))
            return buffer
        }
        defer { buffers.forEach { $0?.deallocate() } }
        let pointers: [UnsafePointer<CChar>?] = buffers.map { $0.map { UnsafePointer($0.baseAddress!.assumingMemoryBound(to: CChar.self)) } }
        return pointers.withUnsafeBufferPointer { pointerBuffer in
            lengths.withUnsafeBufferPointer { lengthBuffer in
                formats.withUnsafeBufferPointer { formatBuffer in
                    body(Int32(values.count), pointerBuffer.baseAddress, lengthBuffer.baseAddress, formatBuffer.baseAddress)
                }
            }
        }
    }

    private func check(_ result: OpaquePointer?, sql: String) throws {
        let status = result.map { PQresultStatus($0) } ?? PGRES_FATAL_ERROR
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK {
            // A statement went through (a new transaction, or ROLLBACK TO SAVEPOINT): nothing is aborted.
            if abortedBy != nil, let connection, PQtransactionStatus(connection) != PQTRANS_INERROR { abortedBy = nil }
            return
        }
        do {
            try fail(result)
        } catch let error as ArchiveError {
            if let connection, PQtransactionStatus(connection) == PQTRANS_INERROR {
                if error.kind == .engine, let abortedBy { throw abortedBy }
                abortedBy = abortedBy ?? error
            } else {
                abortedBy = nil
            }
            throw error
        }
    }

    private func fail(_ result: OpaquePointer?) throws {
        let detail = result.flatMap { PQresultErrorMessage($0) }.map { PostgreSQLEngine.clean(String(cString: $0)) } ?? ""
        let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) } ?? ""
        PQclear(result)
        let connectionDetail = connection.map { PostgreSQLEngine.clean(String(cString: PQerrorMessage($0))) } ?? ""
        if connection.map({ PQstatus($0) != CONNECTION_OK }) ?? true || state.hasPrefix("57P") || state.hasPrefix("08") {
            throw ArchiveError(
                .connectionLost,
                "the PostgreSQL archive \(location) went away mid-transaction (\(detail.isEmpty ? connectionDetail : detail)); the server rolled back what was not committed, so this read was not kept and nothing kept before was lost; run the command again when the server is back."
            )
        }
        switch state {
        case "25006":
            throw ArchiveError(
                .readOnly, "the PostgreSQL archive \(location) is read-only (\(detail)); nothing was added; connect as a user or to a server that may write.")
        case "53100":
            // disk_full: ENOSPC while extending a table or index file ("could not extend file").
            throw ArchiveError(
                .full,
                "the disk of the PostgreSQL archive \(location) is full (\(detail)); this read was not kept and nothing kept before was lost; free some space on the server and add it again."
            )
        case "XX001", "XX002":
            // data_corrupted / index_corrupted: a page read from disk that does not hold
            // ("invalid page in block N of relation base/…"). The statement read nothing from it.
            let relation = damagedRelation(detail).map { " in \($0)" } ?? ""
            throw ArchiveError(
                .corrupt,
                "the PostgreSQL archive \(location) holds damaged data\(relation) (\(detail)); nothing was changed; restore the database from a backup.",
                hint: .verify)
        case "40001", "40P01", "55P03":
            throw ArchiveError(.busy, "the PostgreSQL archive \(location) was busy with another writer (\(detail)); nothing was added; try again.")
        case "42501":
            throw ArchiveError(.readOnly, "the PostgreSQL archive \(location) refuses this user (\(detail)); nothing was added.")
        default:
            throw ArchiveError(.engine, "the PostgreSQL archive \(location) failed (\(state): \(detail.isEmpty ? connectionDetail : detail)).")
        }
    }

    /// The table (or index) a damage report's file path belongs to, e.g. `table sample_blocks
    /// (its TOAST table pg_toast_16390, which keeps its long values)`, looked up on a second
    /// connection (this one's transaction is aborted); `nil` when that fails.
    private func damagedRelation(_ detail: String) -> String? {
        // base/DB/FILENODE, global/FILENODE or pg_tblspc/TABLESPACE/VERSION/DB/FILENODE, maybe with a _fork.
        guard let range = detail.range(of: "relation ") else { return nil }
        let path = detail[range.upperBound...].prefix { !$0.isWhitespace && $0 != "\"" && $0 != ";" && $0 != ")" }
        let parts = path.split(separator: "/")
        guard parts.count >= 2, let node = UInt32(parts[parts.count - 1].prefix { $0.isNumber }) else { return nil }
        let tablespace: UInt32
        switch parts[0] {
        case "base": tablespace = 0
        case "global": tablespace = 1664
        case "pg_tblspc": guard let oid = UInt32(parts[1]) else { return nil }; tablespace = oid
        default: return nil
        }
        guard let lookup = PQconnectdb(uri) else { return nil }
        defer { PQfinish(lookup) }
        guard PQstatus(lookup) == CONNECTION_OK else { return nil }
        let sql = """
            SELECT c.relname, c.relkind, COALESCE(indexed.relname, ''), COALESCE(owner.relname, '')
            FROM pg_class c
            LEFT JOIN pg_index i ON i.indexrelid = c.oid
            LEFT JOIN pg_class indexed ON indexed.oid = i.indrelid
            LEFT JOIN pg_class owner ON owner.reltoastrelid = COALESCE(indexed.oid, c.oid)
            WHERE c.oid = pg_filenode_relation(\(tablespace), \(node))
            """
        guard let result = PQexec(lookup, sql) else { return nil }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK, PQntuples(result) == 1 else { return nil }
        let field = { (column: Int32) in String(cString: PQgetvalue(result, 0, column)) }
        let (name, kind, indexed, owner) = (field(0), field(1), field(2), field(3))
        switch (kind, owner.isEmpty) {
        case ("t", false): return "table \(owner) (its TOAST table \(name), which keeps its long values)"
        case ("i", false): return "table \(owner) (the index \(name) of its TOAST table)"
        case ("i", true): return "the index \(name) of table \(indexed)"
        default: return "table \(name)"
        }
    }
}

/// One row of a PostgreSQL result, read from its text form.
struct PostgreSQLRow: ArchiveRow {
    let result: OpaquePointer
    var row: Int32

    func isNull(_ column: Int) -> Bool { PQgetisnull(result, row, Int32(column)) == 1 }
    func int(_ column: Int) -> Int64 {
        guard let pointer = PQgetvalue(result, row, Int32(column)) else { return 0 }
        return strtoll(pointer, nil, 10)
    }
    func double(_ column: Int) -> Double {
        guard let pointer = PQgetvalue(result, row, Int32(column)) else { return 0 }
        return strtod(pointer, nil)
    }
    func text(_ column: Int) -> String {
        guard let pointer = PQgetvalue(result, row, Int32(column)) else { return "" }
        return String(cString: pointer)
    }
    /// `bytea` comes as `\x` and hex digits, unescaped by libpq.
    func blob(_ column: Int) -> Data {
        guard let pointer = PQgetvalue(result, row, Int32(column)) else { return Data() }
        var length = 0
        guard let bytes = pointer.withMemoryRebound(to: UInt8.self, capacity: 1, { PQunescapeBytea($0, &length) }) else { return Data() }
        defer { PQfreemem(bytes) }
        return Data(bytes: bytes, count: length)
    }
}

final class PostgreSQLPrepared: ArchiveStatement {
    private let engine: PostgreSQLEngine
    private let name: String

    init(engine: PostgreSQLEngine, name: String) {
        self.engine = engine
        self.name = name
    }

    func run(_ values: [SQLValue]) throws { try engine.runPrepared(name, values) }
}
