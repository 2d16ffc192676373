import ColdTapBase
import Foundation

/// One upload of a read: by which token, for which user and device.
public struct ReadUpload: Sendable, Equatable {
    public var id: Int64
    public var loggerID: String
    public var readID: Int64
    public var siteID: Int64
    public var tokenID: Int64
    public var userID: Int64?
    public var device: String?
    public var uploaded: Date
    public var newRead: Bool
}

struct ReadUploadRow {
    enum Column: Int, ArchiveColumns {
        case id, loggerID, readID, siteID, tokenID, userID, device, uploaded, newRead
        var sqlName: String {
            ["upload_id", "logger_id", "read_id", "site_id", "token_id", "user_id", "device", "uploaded_ms", "new_read"][rawValue]
        }
    }

    var upload: ReadUpload

    init(upload: ReadUpload) {
        self.upload = upload
    }

    init(row: any ArchiveRow) {
        upload = ReadUpload(
            id: row.int(Column.id), loggerID: row.text(Column.loggerID), readID: row.int(Column.readID), siteID: row.int(Column.siteID),
            tokenID: row.int(Column.tokenID), userID: row.optionalInt(Column.userID), device: row.optionalText(Column.device),
            uploaded: Date(milliseconds: row.int(Column.uploaded)), newRead: row.int(Column.newRead) != 0)
    }

    var values: [SQLValue] {
        [
            .int(upload.id), .text(upload.loggerID), .int(upload.readID), .int(upload.siteID), .int(upload.tokenID), .optional(upload.userID),
            .optional(upload.device), .int(upload.uploaded.milliseconds), .int(upload.newRead ? 1 : 0),
        ]
    }
}

extension StationStore {

    /// Who sent a read: the token, and the user and device it was made for, kept in
    /// `transaction` (the upload's). One row per upload, also of a read kept before
    /// (`newRead` false).
    public func recordUpload(
        loggerID: String, readID: Int64, siteID: Int64, token: StationToken, newRead: Bool, now: Date = Date(), in transaction: WriteTransaction
    ) throws {
        let id = (try engine.scalarInt("SELECT MAX(upload_id) FROM read_uploads") ?? 0) + 1
        let row = ReadUploadRow(
            upload: ReadUpload(
                id: id, loggerID: loggerID, readID: readID, siteID: siteID, tokenID: token.id, userID: token.createdByUser, device: token.device,
                uploaded: Date(milliseconds: now.milliseconds), newRead: newRead))
        try engine.execute("INSERT INTO read_uploads (\(ReadUploadRow.Column.selectList)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)", row.values)
        try Archive.appendLeaf(.readUpload(row), in: transaction)
    }

    /// A site's uploads, oldest first.
    public func uploads(siteID: Int64) throws -> [ReadUpload] {
        var result: [ReadUpload] = []
        try engine.query("SELECT \(ReadUploadRow.Column.selectList) FROM read_uploads WHERE site_id = $1 ORDER BY upload_id", [.int(siteID)]) {
            result.append(ReadUploadRow(row: $0).upload)
        }
        return result
    }
}

extension RecordLeaf {
    static func readUpload(_ row: ReadUploadRow) -> RecordLeaf {
        let upload = row.upload
        return RecordLeaf(
            .readUpload,
            [
                ("upload", text(upload.id)), ("logger", upload.loggerID), ("read", text(upload.readID)), ("site", text(upload.siteID)),
                ("token", text(upload.tokenID)), ("user", text(upload.userID)), ("device", upload.device),
                ("uploaded_ms", text(upload.uploaded.milliseconds)), ("new_read", upload.newRead ? "1" : "0"),
            ])
    }
}
