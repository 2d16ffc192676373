import Foundation

/// A value bound to, or read from, an archive statement.
public enum SQLValue: Sendable, Equatable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)
    case blob(Data)

    /// `nil` becomes NULL.
    public static func optional(_ value: Double?) -> SQLValue { value.map { .double($0) } ?? .null }
    public static func optional(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
    public static func optional(_ value: Int64?) -> SQLValue { value.map { .int($0) } ?? .null }
}

/// One result row, read column by column (0-based) while the query runs.
public protocol ArchiveRow {
    func isNull(_ column: Int) -> Bool
    func int(_ column: Int) -> Int64
    func double(_ column: Int) -> Double
    func text(_ column: Int) -> String
    func blob(_ column: Int) -> Data
}

extension ArchiveRow {
    public func optionalDouble(_ column: Int) -> Double? { isNull(column) ? nil : double(column) }
    public func optionalText(_ column: Int) -> String? { isNull(column) ? nil : text(column) }
    public func optionalInt(_ column: Int) -> Int64? { isNull(column) ? nil : int(column) }
}

/// The columns of a row after the first `offset`: a joined table's part of a row, read by
/// the same column enum as the table alone.
struct ShiftedRow: ArchiveRow {
    let row: any ArchiveRow
    let offset: Int
    func isNull(_ column: Int) -> Bool { row.isNull(column + offset) }
    func int(_ column: Int) -> Int64 { row.int(column + offset) }
    func double(_ column: Int) -> Double { row.double(column + offset) }
    func text(_ column: Int) -> String { row.text(column + offset) }
    func blob(_ column: Int) -> Data { row.blob(column + offset) }
}

/// The columns a query selects, each named once next to its case: the cases' order is the
/// `SELECT` list (`selectList`) and their raw values are the positions, so a row is read by
/// name (`row.text(ReadColumn.origin)`) at the cost of a positional read, and the list and
/// the reads can never drift apart.
protocol ArchiveColumns: CaseIterable, RawRepresentable where RawValue == Int {
    /// The column as the SQL names it.
    var sqlName: String { get }
}

extension ArchiveColumns {
    /// `a, b, c`, in declaration order.
    static var selectList: String { allCases.map(\.sqlName).joined(separator: ", ") }

    /// `t.a, t.b, t.c`: the list of a table joined as `t` (for columns named bare).
    static func selectList(qualifiedBy alias: String) -> String { allCases.map { "\(alias).\($0.sqlName)" }.joined(separator: ", ") }
}

extension ArchiveRow {
    func isNull<C: ArchiveColumns>(_ column: C) -> Bool { isNull(column.rawValue) }
    func int<C: ArchiveColumns>(_ column: C) -> Int64 { int(column.rawValue) }
    func double<C: ArchiveColumns>(_ column: C) -> Double { double(column.rawValue) }
    func text<C: ArchiveColumns>(_ column: C) -> String { text(column.rawValue) }
    func blob<C: ArchiveColumns>(_ column: C) -> Data { blob(column.rawValue) }
    func optionalInt<C: ArchiveColumns>(_ column: C) -> Int64? { optionalInt(column.rawValue) }
    func optionalText<C: ArchiveColumns>(_ column: C) -> String? { optionalText(column.rawValue) }
    func optionalDouble<C: ArchiveColumns>(_ column: C) -> Double? { optionalDouble(column.rawValue) }
}

/// A statement prepared once and run many times (sample inserts).
public protocol ArchiveStatement: AnyObject {
    func run(_ values: [SQLValue]) throws
}

/// The store protocol: one SQL connection to an archive, implemented by SQLite and by
/// PostgreSQL. Both engines run the same schema and the same statements; SQL is written
/// with `$1, $2, …` placeholders, portable types (`BIGINT`, `DOUBLE PRECISION`, `TEXT`)
/// and `BYTES` for raw bytes, which each engine maps to its own type.
///
/// Every method throws `ArchiveError` with a sentence that says what happened and what to do.
public protocol ArchiveEngine: AnyObject {
    /// `sqlite` or `postgresql`.
    var engineName: String { get }
    /// Where the archive is, for messages (a path, or a URI without its password).
    var location: String { get }
    /// The engine's type for raw bytes (`BLOB`, `BYTEA`).
    var bytesType: String { get }
    func execute(_ sql: String, _ values: [SQLValue]) throws
    /// A write whose outcome is not needed at once. An engine may send it with the next ones
    /// (PostgreSQL pipelines them: one round trip for several); every deferred write has run
    /// when the next statement, `flushWrites()` or `commit()` returns, which throw its failure.
    /// SQLite runs it at once.
    func executeDeferred(_ sql: String, _ values: [SQLValue]) throws
    /// Runs the deferred writes now, throwing the first failure among them.
    func flushWrites() throws
    /// Forgets the deferred writes queued after the last one whose text is `sql` (all of them
    /// when there is none): a work that failed before its writes were sent.
    func dropDeferredWrites(after sql: String)
    func query(_ sql: String, _ values: [SQLValue], _ row: (any ArchiveRow) throws -> Void) throws
    func prepare(_ sql: String) throws -> any ArchiveStatement
    /// Runs several `;`-separated statements without parameters (migrations).
    func executeScript(_ sql: String) throws
    /// Starts a transaction that writes: writers are serialized (SQLite `BEGIN IMMEDIATE`
    /// waiting up to the busy timeout; PostgreSQL a row lock on the chain head once it exists).
    func beginWrite() throws
    /// Starts a transaction that only reads a consistent snapshot.
    func beginRead() throws
    func commit() throws
    /// True when the table exists (the schema is looked up before it is read).
    func tableExists(_ name: String) throws -> Bool
    /// Inside a write transaction: one migration at a time across processes.
    func lockForMigration() throws
    /// Rolls back the open transaction, if any; never throws (the connection may be gone).
    func rollback()
    func close()
}

extension ArchiveEngine {
    public func executeDeferred(_ sql: String, _ values: [SQLValue]) throws { try execute(sql, values) }
    public func flushWrites() throws {}
    public func dropDeferredWrites(after sql: String) {}

    public func execute(_ sql: String) throws { try execute(sql, []) }

    /// The first column of the first row as an integer, or `nil` when there is no row or it is NULL.
    public func scalarInt(_ sql: String, _ values: [SQLValue] = []) throws -> Int64? {
        var result: Int64?
        try query(sql, values) { row in
            if result == nil, !row.isNull(0) { result = row.int(0) }
        }
        return result
    }

    public func scalarText(_ sql: String, _ values: [SQLValue] = []) throws -> String? {
        var result: String?
        try query(sql, values) { row in
            if result == nil, !row.isNull(0) { result = row.text(0) }
        }
        return result
    }

    /// Runs `body` in a write transaction: committed when it returns, rolled back when it throws.
    /// `body` gets the transaction, which every function that must run inside one takes.
    public func writeTransaction<T>(_ body: (WriteTransaction) throws -> T) throws -> T {
        try beginWrite()
        do {
            let value = try body(WriteTransaction(engine: self))
            try commit()
            return value
        } catch {
            rollback()
            throw error
        }
    }

    private static var savepoint: String { "SAVEPOINT keep_one" }

    /// Runs each of `works` in one write transaction, each under its own savepoint: a work
    /// that throws is rolled back alone and gets its error, the others are committed together
    /// (one commit: one flush to disk, one turn of the writers' lock). When the transaction
    /// itself fails (begin, a savepoint, the commit), every work gets that error: none is kept.
    public func writeEach<T>(_ works: [(WriteTransaction) throws -> T]) -> [Result<T, any Error>] {
        do {
            try beginWrite()
        } catch {
            return works.map { _ in .failure(error) }
        }
        var results: [Result<T, any Error>] = []
        do {
            for work in works {
                // Sent with the work's first statement, and the release with the next work's.
                try executeDeferred(Self.savepoint, [])
                let outcome: Result<T, any Error>
                do {
                    let value = try work(WriteTransaction(engine: self))
                    try flushWrites()
                    outcome = .success(value)
                } catch {
                    // A lost connection fails the rollback too, and with it the whole transaction.
                    dropDeferredWrites(after: Self.savepoint)
                    try execute("ROLLBACK TO SAVEPOINT keep_one")
                    outcome = .failure(error)
                }
                try executeDeferred("RELEASE SAVEPOINT keep_one", [])
                results.append(outcome)
            }
            try commit()
            return results
        } catch {
            rollback()
            return works.map { _ in .failure(error) }
        }
    }

    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try beginRead()
        do {
            let value = try body()
            try commit()
            return value
        } catch {
            rollback()
            throw error
        }
    }
}

/// An open write transaction: what a function that must run inside one takes as its
/// parameter, so that the compiler, not a name, keeps the rule. Only `writeTransaction` and
/// `writeEach` make one (for the time their body runs); its statements go to `engine`.
public struct WriteTransaction {
    /// The connection the transaction is open on.
    let engine: any ArchiveEngine

    fileprivate init(engine: any ArchiveEngine) { self.engine = engine }
}

/// Why the archive cannot do what was asked. `message` is one sentence for stderr.
public struct ArchiveError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// The file is not an archive or is damaged.
        case corrupt
        /// The archive cannot be written (file mode, read-only database).
        case readOnly
        /// The disk (or the database's size limit) is full.
        case full
        /// Another writer held the archive for longer than the busy timeout.
        case busy
        /// Written by a newer ColdTap: refused, never changed.
        case newerVersion
        /// The PostgreSQL server cannot be reached.
        case unavailable
        /// The PostgreSQL connection broke mid-transaction.
        case connectionLost
        /// The read cannot be kept as given (no logger identity, no samples).
        case invalidRead
        /// The logger, read or excursion asked for is not in the archive.
        case notFound
        /// What is asked contradicts what is kept: a lot that exists already, a move of a
        /// lot that was closed.
        case conflict
        /// `archive verify` found a row that does not hold.
        case verificationFailed
        /// Anything else the engine reports.
        case engine
    }

    public var kind: Kind
    /// The problem in whole sentences, naming the archive, logger or row; no front end's
    /// wording (no option, command or header).
    public var message: String
    /// What the user could do about it, as a value each front end words (the command line
    /// names its commands and options, the station its headers).
    public var hint: ArchiveHint?

    public init(_ kind: Kind, _ message: String, hint: ArchiveHint? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
    }

    public var description: String { message }
}

/// What the user could do about an archive error.
public enum ArchiveHint: Sendable, Equatable {
    /// See the sites the archive keeps.
    case listSites
    /// See the loggers the archive keeps (`count` of them, when known).
    case listLoggers(count: Int?)
    /// Find every damaged row (an archive verification).
    case verify
    /// Name the logger a read belongs to (the read names none, or several names fit).
    case nameTheLogger
    /// Use another archive location (this one cannot be used as it is).
    case useAnotherArchive
    /// There is no archive yet: keep a read first, or use another location.
    case keepAReadFirst
    /// See the products the archive knows.
    case listProducts
    /// See the lots the archive keeps (for the site).
    case listLots
}
