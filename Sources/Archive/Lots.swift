import ColdChain
import Digest
import Foundation
import LoggerFormats

/// A product as registered in the archive: its file's text, kept by its SHA-256.
public struct StoredProduct: Sendable, Equatable {
    enum Column: Int, ArchiveColumns {
        case name, version, json, sha256, added, addedBy
        var sqlName: String { ["name", "version", "product_json", "product_sha256", "added_ms", "added_by"][rawValue] }
    }

    public var name: String
    /// 1, 2, … for registered versions; 0 for a built-in product.
    public var version: Int
    public var json: String
    public var sha256: String
    public var added: Date
    public var addedBy: String

    init(row: any ArchiveRow) {
        name = row.text(Column.name)
        version = Int(row.int(Column.version))
        json = row.text(Column.json)
        sha256 = row.text(Column.sha256)
        added = Date(milliseconds: row.int(Column.added))
        addedBy = row.text(Column.addedBy)
    }

    init(builtIn product: Product) {
        name = product.name
        version = 0
        json = product.jsonText
        sha256 = SHA256Digest.hex(text: json)
        added = Date(timeIntervalSince1970: 0)
        addedBy = "built-in"
    }

    /// The product the text describes (`nil` if it no longer reads as one: `verify` says so).
    public var product: Product? { try? Product.fromJSON(Data(json.utf8)) }
}

/// A lot of product: what it is and who made its record. Its product's file is kept with it,
/// so later versions of the product never change how the lot is judged.
public struct Lot: Sendable, Equatable {
    enum Column: Int, ArchiveColumns {
        case siteID, id, productName, productVersion, productJSON, productSHA256, quantity, note, created, createdBy
        var sqlName: String {
            [
                "site_id", "lot_id", "product_name", "product_version", "product_json", "product_sha256", "quantity", "note", "created_ms",
                "created_by",
            ][rawValue]
        }
    }

    /// The site the lot belongs to; 0 for a lot kept without a station's site.
    public var siteID: Int64
    public var id: String
    public var productName: String
    /// The product's registered version, 0 for a built-in one.
    public var productVersion: Int
    public var productJSON: String
    public var productSHA256: String
    public var quantity: Int64?
    public var note: String
    public var created: Date
    public var createdBy: String

    init(row: any ArchiveRow) {
        siteID = row.int(Column.siteID)
        id = row.text(Column.id)
        productName = row.text(Column.productName)
        productVersion = Int(row.int(Column.productVersion))
        productJSON = row.text(Column.productJSON)
        productSHA256 = row.text(Column.productSHA256)
        quantity = row.optionalInt(Column.quantity)
        note = row.text(Column.note)
        created = Date(milliseconds: row.int(Column.created))
        createdBy = row.text(Column.createdBy)
    }

    init(
        siteID: Int64, id: String, product: StoredProduct, quantity: Int64?, note: String, created: Date, createdBy: String
    ) {
        self.siteID = siteID
        self.id = id
        self.productName = product.name
        self.productVersion = product.version
        self.productJSON = product.json
        self.productSHA256 = product.sha256
        self.quantity = quantity
        self.note = note
        self.created = created
        self.createdBy = createdBy
    }

    /// The stability data the lot is judged by.
    public var product: Product? { try? Product.fromJSON(Data(productJSON.utf8)) }
}

/// A hand-over of a lot, or its close, as recorded: never edited.
public struct LotMoveRecord: Sendable, Equatable {
    enum Column: Int, ArchiveColumns {
        case siteID, lotID, seq, kind, loggerID, at, reason, place, by, recorded, origin
        var sqlName: String {
            ["site_id", "lot_id", "move_seq", "kind", "logger_id", "at_ms", "reason", "place", "moved_by", "recorded_ms", "origin"][rawValue]
        }
    }

    public enum Kind: String, Sendable, Equatable {
        /// From `at` the lot travels with a logger.
        case logger
        /// From `at` nobody logs the lot.
        case none
        /// The lot's journey ends at `at` (used, discarded, returned).
        case close
    }

    public enum CloseReason: String, Sendable, Equatable, CaseIterable {
        case used, discarded, returned
    }

    /// How far after the recorder's clock a move or close may be dated: a day of slack for
    /// clocks and zones, as a read's time has (a move is recorded once it happened).
    public static let latestAhead: TimeInterval = 86_400

    public var siteID: Int64
    public var lotID: String
    /// 1, 2, … in the order recorded.
    public var seq: Int64
    public var kind: Kind
    public var loggerID: String?
    /// When the hand-over happened (as given by who recorded it).
    public var at: Date
    public var reason: CloseReason?
    /// Where it happened, as given (may be empty).
    public var place: String
    /// Who recorded it: a name given on the command line, or the station's token.
    public var by: String
    /// When it was recorded (the recording machine's clock).
    public var recorded: Date
    /// Through what it was recorded (`command line`, `station`).
    public var origin: String

    init(row: any ArchiveRow) {
        siteID = row.int(Column.siteID)
        lotID = row.text(Column.lotID)
        seq = row.int(Column.seq)
        kind = Kind(rawValue: row.text(Column.kind)) ?? .none
        loggerID = row.optionalText(Column.loggerID)
        at = Date(milliseconds: row.int(Column.at))
        reason = row.optionalText(Column.reason).flatMap(CloseReason.init(rawValue:))
        place = row.text(Column.place)
        by = row.text(Column.by)
        recorded = Date(milliseconds: row.int(Column.recorded))
        origin = row.text(Column.origin)
    }

    public init(
        siteID: Int64, lotID: String, seq: Int64, kind: Kind, loggerID: String?, at: Date, reason: CloseReason?, place: String, by: String,
        recorded: Date, origin: String
    ) {
        self.siteID = siteID
        self.lotID = lotID
        self.seq = seq
        self.kind = kind
        self.loggerID = loggerID
        self.at = at
        self.reason = reason
        self.place = place
        self.by = by
        self.recorded = recorded
        self.origin = origin
    }
}

/// What a lot's status is made from, with the status: each leg's logger history (for the
/// report's curves and chains of reads).
public struct LotJourney: Sendable {
    public var lot: Lot
    public var moves: [LotMoveRecord]
    public var status: LotStatus
    /// Per leg of `status`, the logger's stitched history over the leg (`nil` for a leg
    /// without a logger).
    public var histories: [History?]
    /// Per leg, the log the status judged (`History.temperatureLog()` of its history).
    public var logs: [TemperatureLog?]
    /// The record's chain head when the journey was read.
    public var chainHead: String
}

extension Archive {
    // MARK: Products

    /// Registers a product file's text (parsed by `Product.fromJSON`, which names a bad
    /// field): the next version when its name is taken. A built-in product's name is refused.
    @discardableResult
    public func addProduct(json: String, addedBy: String, now: Date = Date()) throws -> StoredProduct {
        let product: Product
        do {
            product = try Product.fromJSON(Data(json.utf8))
        } catch {
            throw ArchiveError(.invalidRead, "the product file cannot be used: \(error).")
        }
        guard Product.builtIn(named: product.name) == nil else {
            throw ArchiveError(.invalidRead, "'\(product.name)' is a built-in product; give yours another name.")
        }
        return try engine.writeTransaction { transaction in
            let version = (try engine.scalarInt("SELECT MAX(version) FROM products WHERE name = $1", [.text(product.name)]) ?? 0) + 1
            let sha256 = SHA256Digest.hex(text: json)
            try engine.execute(
                "INSERT INTO products (\(StoredProduct.Column.selectList)) VALUES ($1, $2, $3, $4, $5, $6)",
                [.text(product.name), .int(version), .text(json), .text(sha256), .int(now.milliseconds), .text(addedBy)])
            var stored: StoredProduct?
            try engine.query("SELECT \(StoredProduct.Column.selectList) FROM products WHERE name = $1 AND version = $2", [.text(product.name), .int(version)]) {
                stored = StoredProduct(row: $0)
            }
            guard let stored else { throw ArchiveError(.engine, "the product just kept cannot be read back.") }
            try Archive.appendLeaf(.product(stored), in: transaction)
            return stored
        }
    }

    /// The newest version of every registered product, by name, then the built-in ones.
    public func products() throws -> [StoredProduct] {
        var result: [StoredProduct] = []
        try engine.query(
            """
            SELECT \(StoredProduct.Column.selectList(qualifiedBy: "p")) FROM products p
            WHERE p.version = (SELECT MAX(version) FROM products q WHERE q.name = p.name) ORDER BY p.name
            """, []
        ) { result.append(StoredProduct(row: $0)) }
        return result + Product.builtIn.map(StoredProduct.init(builtIn:))
    }

    /// The newest registered version of `name`, else the built-in product of that name.
    public func product(named name: String) throws -> StoredProduct? {
        var found: StoredProduct?
        try engine.query(
            "SELECT \(StoredProduct.Column.selectList) FROM products WHERE name = $1 ORDER BY version DESC LIMIT 1", [.text(name)]
        ) { found = StoredProduct(row: $0) }
        return found ?? Product.builtIn(named: name).map(StoredProduct.init(builtIn:))
    }

    /// The registered version `version` of `name`, else (version 0) the built-in product of
    /// that name.
    public func product(named name: String, version: Int) throws -> StoredProduct? {
        guard version > 0 else { return Product.builtIn(named: name).map(StoredProduct.init(builtIn:)) }
        var found: StoredProduct?
        try engine.query(
            "SELECT \(StoredProduct.Column.selectList) FROM products WHERE name = $1 AND version = $2", [.text(name), .int(Int64(version))]
        ) { found = StoredProduct(row: $0) }
        return found
    }

    // MARK: Lots

    /// Keeps a new lot of `productName` (a registered or built-in product) for `siteID`.
    /// - Throws: `ArchiveError(.invalidRead)` for a bad lot name or quantity, `.notFound` (hint
    ///   `.listProducts`) for an unknown product, `.conflict` for a lot the site has already.
    @discardableResult
    public func addLot(
        _ id: String, siteID: Int64 = 0, productName: String, quantity: Int64? = nil, note: String = "", by: String, now: Date = Date()
    ) throws -> Lot {
        guard Product.isValidName(id) else {
            throw ArchiveError(
                .invalidRead, "a lot's name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit; '\(id.prefix(80))' is not.")
        }
        if let quantity, quantity < 0 { throw ArchiveError(.invalidRead, "a lot's quantity cannot be negative (\(quantity)).") }
        return try engine.writeTransaction { transaction in
            guard let product = try product(named: productName) else {
                throw ArchiveError(.notFound, "the archive \(engine.location) knows no product '\(productName.prefix(80))'.", hint: .listProducts)
            }
            guard try lot(id, siteID: siteID) == nil else {
                throw ArchiveError(.conflict, "the lot '\(id)' exists already; record its moves instead.")
            }
            let lot = Lot(
                siteID: siteID, id: id, product: product, quantity: quantity, note: note, created: Date(milliseconds: now.milliseconds), createdBy: by)
            try engine.execute(
                "INSERT INTO lots (\(Lot.Column.selectList)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                [
                    .int(siteID), .text(id), .text(lot.productName), .int(Int64(lot.productVersion)), .text(lot.productJSON), .text(lot.productSHA256),
                    quantity.map { .int($0) } ?? .null, .text(note), .int(now.milliseconds), .text(by),
                ])
            try Archive.appendLeaf(.lot(lot), in: transaction)
            return lot
        }
    }

    /// The lot `id` of `siteID`, or `nil`.
    public func lot(_ id: String, siteID: Int64 = 0) throws -> Lot? {
        var found: Lot?
        try engine.query("SELECT \(Lot.Column.selectList) FROM lots WHERE site_id = $1 AND lot_id = $2", [.int(siteID), .text(id)]) {
            found = Lot(row: $0)
        }
        return found
    }

    /// Every lot of `siteID`, by name.
    public func lots(siteID: Int64 = 0) throws -> [Lot] {
        var result: [Lot] = []
        try engine.query("SELECT \(Lot.Column.selectList) FROM lots WHERE site_id = $1 ORDER BY lot_id", [.int(siteID)]) { result.append(Lot(row: $0)) }
        return result
    }

    /// The lot's moves in the order recorded.
    public func lotMoves(_ id: String, siteID: Int64 = 0) throws -> [LotMoveRecord] {
        var result: [LotMoveRecord] = []
        try engine.query(
            "SELECT \(LotMoveRecord.Column.selectList) FROM lot_moves WHERE site_id = $1 AND lot_id = $2 ORDER BY move_seq", [.int(siteID), .text(id)]
        ) { result.append(LotMoveRecord(row: $0)) }
        return result
    }

    /// Records a hand-over (`kind` `.logger` with `loggerID`, or `.none`) or the lot's close
    /// (`.close` with a reason). A closed lot takes no more moves; a logger must be kept in
    /// the archive (the caller checks that it is the site's).
    /// - Throws: `ArchiveError(.notFound)` for an unknown lot (hint `.listLots`) or logger,
    ///   `.conflict` for a move after the close, `.invalidRead` for a close before the first move
    ///   or a move or close dated more than `LotMoveRecord.latestAhead` after `now`.
    @discardableResult
    public func recordMove(
        lot id: String, siteID: Int64 = 0, kind: LotMoveRecord.Kind, loggerID: String? = nil, at: Date, reason: LotMoveRecord.CloseReason? = nil,
        place: String = "", by: String, origin: String, now: Date = Date()
    ) throws -> LotMoveRecord {
        guard (kind == .logger) == (loggerID != nil), (kind == .close) == (reason != nil) else {
            throw ArchiveError(.invalidRead, "a move onto a logger names the logger, and only a close gives a reason.")
        }
        // Every door (command line, station, app) records through here: the bound holds for all.
        guard at <= now.addingTimeInterval(LotMoveRecord.latestAhead) else {
            throw ArchiveError(
                .invalidRead,
                "the lot '\(id.prefix(80))' cannot \(kind == .close ? "close" : "move") at \(at.isoUTC), more than a day after now (\(now.isoUTC)): a hand-over or a close is recorded once it happened. Check the date and its time zone."
            )
        }
        return try engine.writeTransaction { transaction in
            guard try lot(id, siteID: siteID) != nil else {
                throw ArchiveError(.notFound, "there is no lot '\(id.prefix(80))'.", hint: .listLots)
            }
            if let loggerID, try logger(loggerID) == nil {
                throw ArchiveError(.notFound, "the archive \(engine.location) holds no logger '\(loggerID.prefix(80))'.", hint: .listLoggers(count: nil))
            }
            let moves = try lotMoves(id, siteID: siteID)
            if let close = moves.first(where: { $0.kind == .close }) {
                throw ArchiveError(
                    .conflict,
                    "the lot '\(id)' was closed (\(close.reason?.rawValue ?? "closed")) at \(close.at.isoUTC); it takes no more moves.")
            }
            if kind == .close, let first = moves.map(\.at).min(), at < first {
                throw ArchiveError(
                    .invalidRead, "the lot '\(id)' cannot close at \(at.isoUTC), before its first move (\(first.isoUTC)).")
            }
            let move = LotMoveRecord(
                siteID: siteID, lotID: id, seq: Int64(moves.count + 1), kind: kind, loggerID: loggerID, at: Date(milliseconds: at.milliseconds),
                reason: reason, place: place, by: by, recorded: Date(milliseconds: now.milliseconds), origin: origin)
            try engine.execute(
                "INSERT INTO lot_moves (\(LotMoveRecord.Column.selectList)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
                [
                    .int(siteID), .text(id), .int(move.seq), .text(kind.rawValue), loggerID.map { .text($0) } ?? .null, .int(at.milliseconds),
                    reason.map { .text($0.rawValue) } ?? .null, .text(place), .text(by), .int(now.milliseconds), .text(origin),
                ])
            try Archive.appendLeaf(.lotMove(move), in: transaction)
            return move
        }
    }

    /// The lot's status as of `at` (default: its close, else now), with what it is made
    /// from: each leg's logger history over the leg.
    /// - Throws: `ArchiveError(.notFound)` for an unknown lot, `.corrupt` for a lot whose
    ///   kept product no longer reads as one.
    public func lotJourney(_ id: String, siteID: Int64 = 0, at: Date? = nil, now: Date = Date()) throws -> LotJourney {
        try engine.readTransaction {
            guard let lot = try lot(id, siteID: siteID) else {
                throw ArchiveError(.notFound, "there is no lot '\(id.prefix(80))'.", hint: .listLots)
            }
            guard let product = lot.product else {
                throw ArchiveError(.corrupt, "the lot '\(id)' keeps a product that no longer reads as one.", hint: .verify)
            }
            let moves = try lotMoves(id, siteID: siteID)
            let close = moves.first { $0.kind == .close }?.at
            let end = min(at ?? close ?? now, close ?? .distantFuture)
            let legs = LotLeg.legs(of: moves.filter { $0.kind != .close }.map { LotMove(logger: $0.loggerID, at: $0.at) }, until: end)
            var histories: [History?] = []
            var logs: [TemperatureLog?] = []
            var judged: [LotLeg] = []
            for var leg in legs {
                guard let loggerID = leg.logger else {
                    histories.append(nil)
                    logs.append(nil)
                    judged.append(leg)
                    continue
                }
                // A sample taken before the leg stands for time inside it: look back a day.
                let history = try historyInTransaction(loggerID: loggerID, from: leg.from.addingTimeInterval(-86_400), to: leg.to)
                leg.log = history.temperatureLog()
                leg.integrityFailed = history.reads(covering: leg.from, leg.to).contains { $0.integrity.hasPrefix("failed") }
                histories.append(history)
                logs.append(leg.log)
                judged.append(leg)
            }
            let status = LotEvaluation.status(lot: id, product: product, legs: judged, at: end)
            return LotJourney(lot: lot, moves: moves, status: status, histories: histories, logs: logs, chainHead: try chainHead().hash)
        }
    }

    // MARK: verify

    /// Each product registered and each lot's kept product must still be the text they were
    /// kept as (their SHA-256) and still read as a product.
    func productProblems() throws -> [String] {
        var problems: [String] = []
        guard try engine.tableExists("products") else { return problems }
        try engine.query("SELECT \(StoredProduct.Column.selectList) FROM products ORDER BY name, version", []) { row in
            let stored = StoredProduct(row: row)
            let name = "product \(stored.name) v\(stored.version)"
            if SHA256Digest.hex(text: stored.json) != stored.sha256 {
                problems.append("\(name) was changed after it was added: its text no longer gives its SHA-256")
            } else if stored.product == nil {
                problems.append("\(name) no longer reads as a product")
            }
        }
        try engine.query("SELECT \(Lot.Column.selectList) FROM lots ORDER BY site_id, lot_id", []) { row in
            let lot = Lot(row: row)
            let name = "lot \(lot.id) of site #\(lot.siteID)"
            if SHA256Digest.hex(text: lot.productJSON) != lot.productSHA256 {
                problems.append("\(name): its product's text was changed after the lot was made (it no longer gives its SHA-256)")
            } else if lot.product?.name != lot.productName {
                problems.append("\(name): its kept product no longer reads as the product \(lot.productName)")
            }
        }
        return problems
    }
}

extension RecordLeaf {
    /// A registered product: its file by its SHA-256.
    static func product(_ product: StoredProduct) -> RecordLeaf {
        RecordLeaf(
            .product,
            [
                ("product", product.name), ("version", String(product.version)), ("product_sha256", product.sha256),
                ("added_ms", text(product.added.milliseconds)), ("added_by", product.addedBy),
            ])
    }

    /// A lot as made, with the SHA-256 of the product file it is judged by.
    static func lot(_ lot: Lot) -> RecordLeaf {
        RecordLeaf(
            .lot,
            [
                ("site", text(lot.siteID)), ("lot", lot.id), ("product", lot.productName), ("product_version", String(lot.productVersion)),
                ("product_sha256", lot.productSHA256), ("quantity", text(lot.quantity)), ("note", lot.note), ("created_ms", text(lot.created.milliseconds)),
                ("created_by", lot.createdBy),
            ])
    }

    /// A hand-over or close of a lot: who, when, where, through what.
    static func lotMove(_ move: LotMoveRecord) -> RecordLeaf {
        RecordLeaf(
            .lotMove,
            [
                ("site", text(move.siteID)), ("lot", move.lotID), ("move", text(move.seq)), ("kind", move.kind.rawValue), ("logger", move.loggerID),
                ("at_ms", text(move.at.milliseconds)), ("reason", move.reason?.rawValue), ("place", move.place), ("by", move.by),
                ("recorded_ms", text(move.recorded.milliseconds)), ("origin", move.origin),
            ])
    }
}

extension Archive {
    /// Each read's hash in the read/acknowledgement chain (which covers its whole row), by
    /// read id, for the reads of `loggerID` named: what a lot report prints beside each read.
    public func readChainHashes(loggerID: String, readIDs: [Int64]) throws -> [Int64: String] {
        guard !readIDs.isEmpty else { return [:] }
        let wanted = Set(readIDs)
        var hashes: [Int64: String] = [:]
        enum Column: Int, ArchiveColumns {
            case id, hash
            var sqlName: String { self == .id ? "read_id" : "hash" }
        }
        try engine.query(
            "SELECT \(Column.selectList) FROM reads WHERE logger_id = $1 AND read_id >= $2 AND read_id <= $3",
            [
                .text(loggerID), .int(wanted.min() ?? 0), .int(wanted.max() ?? 0),
            ]
        ) { row in
            let id = row.int(Column.id)
            if wanted.contains(id) { hashes[id] = row.text(Column.hash) }
        }
        return hashes
    }
}
