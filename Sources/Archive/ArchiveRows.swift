import Foundation

// How the archive's rows become values. Each kind of row names its columns once, in a
// `Column` enum beside the value it builds: the cases' order is the `SELECT` list
// (`Column.selectList`) and a row is read by case (`row.text(Column.name)`), so the list and
// the reads cannot drift apart. Only a query of a single column reads it at position 0.

extension LoggerRecord {
    /// A `loggers` row.
    enum Column: Int, ArchiveColumns {
        case id, format, serial, tagUID, vendor, model

        var sqlName: String {
            switch self {
            case .id: return "logger_id"
            case .format: return "format"
            case .serial: return "serial"
            case .tagUID: return "tag_uid"
            case .vendor: return "vendor"
            case .model: return "model"
            }
        }
    }

    init(row: any ArchiveRow) {
        self.init(
            id: row.text(Column.id), format: row.text(Column.format), serial: row.optionalText(Column.serial),
            tagUID: row.optionalText(Column.tagUID), vendor: row.optionalText(Column.vendor), model: row.optionalText(Column.model))
    }
}

extension StationSite {
    /// A `sites` row.
    enum Column: Int, ArchiveColumns {
        case id, name, created

        var sqlName: String {
            switch self {
            case .id: return "site_id"
            case .name: return "name"
            case .created: return "created_ms"
            }
        }
    }

    init(row: any ArchiveRow) {
        self.init(id: row.int(Column.id), name: row.text(Column.name), created: Date(milliseconds: row.int(Column.created)))
    }
}

/// A `tokens` row as kept: the scope still as text and the site as its id, for the caller
/// to check (a row that no longer reads is no token).
struct TokenRow {
    enum Column: Int, ArchiveColumns {
        case id, siteID, scope, sha256, created, revoked, expires, createdByUser, device

        var sqlName: String {
            switch self {
            case .id: return "token_id"
            case .siteID: return "site_id"
            case .scope: return "scope"
            case .sha256: return "token_sha256"
            case .created: return "created_ms"
            case .revoked: return "revoked_ms"
            case .expires: return "expires_ms"
            case .createdByUser: return "created_by_user"
            case .device: return "device"
            }
        }
    }

    /// The select list of station tables before schema 7, in `Column`'s order.
    static let columnsBeforeUsers =
        Column.allCases.map { [.createdByUser, .device].contains($0) ? "NULL AS \($0.sqlName)" : $0.sqlName }.joined(separator: ", ")

    var id: Int64
    var siteID: Int64
    var scope: String
    var sha256: String
    var created: Int64
    var revoked: Int64?
    var expires: Int64?
    /// The user a device token was made for (`token create --user`, or the phone's sign-in).
    var createdByUser: Int64?
    var device: String?

    init(row: any ArchiveRow) {
        id = row.int(Column.id)
        siteID = row.int(Column.siteID)
        scope = row.text(Column.scope)
        sha256 = row.text(Column.sha256)
        created = row.int(Column.created)
        revoked = row.optionalInt(Column.revoked)
        expires = row.optionalInt(Column.expires)
        createdByUser = row.optionalInt(Column.createdByUser)
        device = row.optionalText(Column.device)
    }

    /// The token, when its scope reads and it has a site exactly when it is not the operator's.
    func token(sites: [Int64: StationSite]) -> StationToken? {
        guard let scope = TokenScope(rawValue: scope) else { return nil }
        let site = sites[siteID]
        guard (site == nil) == (scope == .operator) else { return nil }
        return StationToken(
            id: id, site: site, scope: scope, created: Date(milliseconds: created),
            revoked: revoked.map { Date(milliseconds: $0) }, expires: expires.map { Date(milliseconds: $0) }, createdByUser: createdByUser,
            device: device)
    }
}

extension SiteProfile {
    /// A `site_profiles` row.
    enum Column: Int, ArchiveColumns {
        case siteID, name, version, json, sha256, added, addedBy

        var sqlName: String {
            switch self {
            case .siteID: return "site_id"
            case .name: return "name"
            case .version: return "version"
            case .json: return "profile_json"
            case .sha256: return "profile_sha256"
            case .added: return "added_ms"
            case .addedBy: return "added_by"
            }
        }
    }

    init(row: any ArchiveRow) {
        self.init(
            siteID: row.int(Column.siteID), name: row.text(Column.name), version: Int(row.int(Column.version)), json: row.text(Column.json),
            sha256: row.text(Column.sha256), added: Date(milliseconds: row.int(Column.added)), addedBy: row.text(Column.addedBy))
    }
}

extension StationWebhook {
    /// A `webhooks` row.
    enum Column: Int, ArchiveColumns {
        case id, siteID, url, secret, created

        var sqlName: String {
            switch self {
            case .id: return "webhook_id"
            case .siteID: return "site_id"
            case .url: return "url"
            case .secret: return "secret"
            case .created: return "created_ms"
            }
        }
    }

    init(row: any ArchiveRow) {
        self.init(
            id: row.int(Column.id), siteID: row.int(Column.siteID), url: row.text(Column.url), secret: row.text(Column.secret),
            created: Date(milliseconds: row.int(Column.created)))
    }
}

extension WebhookDelivery {
    /// A `webhook_deliveries` row (one attempt).
    enum Column: Int, ArchiveColumns {
        case id, webhookID, eventID, attempt, at, status, error, delivered

        var sqlName: String {
            switch self {
            case .id: return "delivery_id"
            case .webhookID: return "webhook_id"
            case .eventID: return "event_id"
            case .attempt: return "attempt"
            case .at: return "attempted_ms"
            case .status: return "http_status"
            case .error: return "error"
            case .delivered: return "delivered"
            }
        }
    }

    init(row: any ArchiveRow) {
        self.init(
            id: row.int(Column.id), webhookID: row.int(Column.webhookID), eventID: row.text(Column.eventID), attempt: Int(row.int(Column.attempt)),
            at: Date(milliseconds: row.int(Column.at)), status: row.optionalInt(Column.status).map { Int($0) }, error: row.text(Column.error),
            delivered: row.int(Column.delivered) != 0)
    }
}

/// A `webhook_queue` row as a lease returns it (the webhook still as its id).
struct QueuedWebhookRow {
    enum Column: Int, ArchiveColumns {
        case queueID, webhookID, eventID, event, payload, created, deadline, attempts

        var sqlName: String {
            switch self {
            case .queueID: return "queue_id"
            case .webhookID: return "webhook_id"
            case .eventID: return "event_id"
            case .event: return "event"
            case .payload: return "payload"
            case .created: return "created_ms"
            case .deadline: return "deadline_ms"
            case .attempts: return "attempts"
            }
        }
    }

    var queueID: Int64
    var webhookID: Int64
    var eventID: String
    var event: String
    var payload: String
    var created: Int64
    var deadline: Int64
    var attempts: Int64

    init(row: any ArchiveRow) {
        queueID = row.int(Column.queueID)
        webhookID = row.int(Column.webhookID)
        eventID = row.text(Column.eventID)
        event = row.text(Column.event)
        payload = row.text(Column.payload)
        created = row.int(Column.created)
        deadline = row.int(Column.deadline)
        attempts = row.int(Column.attempts)
    }

    func delivery(to webhook: StationWebhook) -> QueuedWebhookDelivery {
        QueuedWebhookDelivery(
            queueID: queueID, webhook: webhook, eventID: eventID, event: event, payload: payload, created: Date(milliseconds: created),
            deadline: Date(milliseconds: deadline), attempts: Int(attempts))
    }
}

extension Acknowledgement {
    /// An `acknowledgements` row as `history` shows it.
    enum Column: Int, ArchiveColumns {
        case id, excursionStart, by, at, comment

        var sqlName: String {
            switch self {
            case .id: return "ack_id"
            case .excursionStart: return "excursion_start_ms"
            case .by: return "acknowledged_by"
            case .at: return "acknowledged_ms"
            case .comment: return "comment"
            }
        }
    }

    init(row: any ArchiveRow) {
        self.init(
            id: row.int(Column.id), excursionStart: Date(milliseconds: row.int(Column.excursionStart)), by: row.text(Column.by),
            at: Date(milliseconds: row.int(Column.at)), comment: row.text(Column.comment))
    }
}

extension AcknowledgementRow {
    /// An `acknowledgements` row as the chain covers it, with its kept hash last.
    enum Column: Int, ArchiveColumns {
        case loggerID, ackID, chainSeq, excursionStart, by, at, comment, previousHash, hash

        var sqlName: String {
            switch self {
            case .loggerID: return "logger_id"
            case .ackID: return "ack_id"
            case .chainSeq: return "chain_seq"
            case .excursionStart: return "excursion_start_ms"
            case .by: return "acknowledged_by"
            case .at: return "acknowledged_ms"
            case .comment: return "comment"
            case .previousHash: return "prev_hash"
            case .hash: return "hash"
            }
        }
    }

    init(row: any ArchiveRow) {
        self.init(
            loggerID: row.text(Column.loggerID), ackID: row.int(Column.ackID), chainSeq: row.int(Column.chainSeq),
            excursionStart: row.int(Column.excursionStart), by: row.text(Column.by), at: row.int(Column.at), comment: row.text(Column.comment),
            previousHash: row.text(Column.previousHash))
    }
}

/// A `conflicts` row: the value a read gave at a time whose kept sample another read gave.
struct ConflictRow {
    enum Column: Int, ArchiveColumns {
        case time, keptReadID, temperature, humidity, flags, readID

        var sqlName: String {
            switch self {
            case .time: return "time_ms"
            case .keptReadID: return "kept_read_id"
            case .temperature: return "temperature"
            case .humidity: return "humidity"
            case .flags: return "flags"
            case .readID: return "read_id"
            }
        }
    }

    var keptReadID: Int64
    /// The value the conflicting read gave, as that read's sample.
    var other: StoredSample

    init(row: any ArchiveRow) {
        keptReadID = row.int(Column.keptReadID)
        other = StoredSample(
            time: row.int(Column.time), temperature: row.optionalDouble(Column.temperature), humidity: row.optionalDouble(Column.humidity),
            flags: row.text(Column.flags), readID: row.int(Column.readID))
    }
}
