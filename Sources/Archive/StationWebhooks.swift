import ColdTapBase
import Foundation

public struct StationWebhook: Sendable, Equatable {
    public var id: Int64
    public var siteID: Int64
    public var url: String
    /// The HMAC key of the signature; never shown again after `webhook add`.
    public var secret: String
    public var created: Date? = nil
}

/// One attempt to deliver one event to one webhook.
public struct WebhookDelivery: Sendable, Equatable {
    public var id: Int64
    public var webhookID: Int64
    public var eventID: String
    public var attempt: Int
    public var at: Date
    /// The receiver's HTTP status; `nil` when it could not be reached.
    public var status: Int?
    public var error: String
    public var delivered: Bool
}

/// One event for one webhook in the delivery queue (`webhook_queue`), as a worker leased it.
public struct QueuedWebhookDelivery: Sendable, Equatable {
    public var queueID: Int64
    public var webhook: StationWebhook
    public var eventID: String
    public var event: String
    /// The event's members (all but `id`, `type` and `timestamp`) as a serialized JSON object.
    public var payload: String
    public var created: Date
    /// After this the delivery is given up.
    public var deadline: Date
    /// Attempts made before this lease.
    public var attempts: Int
}

/// How a leased delivery ends its attempt.
public enum WebhookQueueOutcome: Sendable, Equatable {
    case delivered
    /// Failed; tried again at that time.
    case retry(at: Date)
    /// Failed for the last time (deadline, attempts, or a target that is refused).
    case givenUp
}

/// What the queue holds for one webhook (`webhook list`).
public struct WebhookQueueCounts: Sendable, Equatable {
    public var pending = 0
    public var delivered = 0
    public var givenUp = 0
    public var failedAttempts = 0
}

extension StationStore {
    // MARK: Webhooks

    @discardableResult
    public func addWebhook(siteID: Int64, url: String, secret: String, now: Date = Date()) throws -> StationWebhook {
        try engine.writeTransaction { transaction in
            let id = (try engine.scalarInt("SELECT MAX(webhook_id) FROM webhooks") ?? 0) + 1
            try engine.execute(
                "INSERT INTO webhooks (webhook_id, site_id, url, secret, created_ms) VALUES ($1, $2, $3, $4, $5)",
                [.int(id), .int(siteID), .text(url), .text(secret), .int(now.milliseconds)])
            try Archive.appendLeaf(.webhook(id: id, siteID: siteID, url: url, created: now.milliseconds), in: transaction)
            return StationWebhook(id: id, siteID: siteID, url: url, secret: secret)
        }
    }

    public func webhooks(siteID: Int64? = nil) throws -> [StationWebhook] {
        var result: [StationWebhook] = []
        let clause = siteID == nil ? "" : "WHERE site_id = $1"
        try engine.query("SELECT \(StationWebhook.Column.selectList) FROM webhooks \(clause) ORDER BY webhook_id", siteID.map { [.int($0)] } ?? []) { row in
            result.append(StationWebhook(row: row))
        }
        return result
    }

    public func recordDelivery(
        webhookID: Int64, eventID: String, event: String, attempt: Int, status: Int?, error: String,
        delivered: Bool, now: Date = Date()
    ) throws {
        try engine.writeTransaction { _ in
            let id = (try engine.scalarInt("SELECT MAX(delivery_id) FROM webhook_deliveries") ?? 0) + 1
            try engine.execute(
                "INSERT INTO webhook_deliveries (delivery_id, webhook_id, event_id, event, attempt, attempted_ms, http_status, error, delivered) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                [
                    .int(id), .int(webhookID), .text(eventID), .text(event), .int(Int64(attempt)), .int(now.milliseconds),
                    status.map { .int(Int64($0)) } ?? .null, .text(error), .int(delivered ? 1 : 0),
                ])
        }
    }

    public func deliveries(webhookID: Int64? = nil) throws -> [WebhookDelivery] {
        var result: [WebhookDelivery] = []
        let clause = webhookID == nil ? "" : "WHERE webhook_id = $1"
        try engine.query(
            "SELECT \(WebhookDelivery.Column.selectList) FROM webhook_deliveries \(clause) ORDER BY delivery_id", webhookID.map { [.int($0)] } ?? []
        ) { row in
            result.append(WebhookDelivery(row: row))
        }
        return result
    }

    // MARK: Webhook delivery queue
    //
    // Rows are leased, never locked in a process: a worker takes a row with one conditional
    // UPDATE that sets `claimed_by` and `claimed_until_ms`, so stations sharing one PostgreSQL
    // never attempt one delivery at once, and a crashed station's lease simply runs out. Only
    // the oldest pending row of a webhook can be leased: one delivery in flight per target,
    // in order, whichever station holds it.

    /// Queues the event for every webhook of the site, inside `transaction`.
    /// - Returns: how many deliveries were queued.
    @discardableResult
    public func enqueueWebhookEvent(
        siteID: Int64, eventID: String, event: String, payload: String,
        deadline: Date, now: Date = Date(), in transaction: WriteTransaction
    ) throws -> Int {
        let hooks = try webhooks(siteID: siteID)
        guard !hooks.isEmpty else { return 0 }
        var next = (try engine.scalarInt("SELECT MAX(queue_id) FROM webhook_queue") ?? 0) + 1
        for hook in hooks {
            try engine.execute(
                """
                INSERT INTO webhook_queue (queue_id, webhook_id, event_id, event, payload, created_ms, deadline_ms, next_attempt_ms,
                                           attempts, state, claimed_by, claimed_until_ms, finished_ms, last_error)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $6, 0, 'pending', NULL, NULL, NULL, '')
                """, [.int(next), .int(hook.id), .text(eventID), .text(event), .text(payload), .int(now.milliseconds), .int(deadline.milliseconds)])
            next += 1
        }
        return hooks.count
    }

    /// Leases the due delivery that waited longest among the oldest pending one of each
    /// webhook whose lease is free, until `leaseUntil`, for `claimer`; `nil` when none is due.
    public func leaseWebhookDelivery(claimer: String, leaseUntil: Date, now: Date = Date()) throws -> QueuedWebhookDelivery? {
        var leased: QueuedWebhookRow?
        try engine.query(
            """
            UPDATE webhook_queue SET claimed_by = $1, claimed_until_ms = $2
            WHERE queue_id = (
                SELECT q.queue_id FROM webhook_queue q
                WHERE q.state = 'pending' AND q.next_attempt_ms <= $3 AND (q.claimed_until_ms IS NULL OR q.claimed_until_ms <= $3)
                  AND NOT EXISTS (SELECT 1 FROM webhook_queue older
                                  WHERE older.webhook_id = q.webhook_id AND older.state = 'pending' AND older.queue_id < q.queue_id)
                ORDER BY q.next_attempt_ms, q.queue_id LIMIT 1)
              AND state = 'pending' AND (claimed_until_ms IS NULL OR claimed_until_ms <= $3)
            RETURNING \(QueuedWebhookRow.Column.selectList)
            """, [.text(claimer), .int(leaseUntil.milliseconds), .int(now.milliseconds)]
        ) { row in
            leased = QueuedWebhookRow(row: row)
        }
        guard let leased else { return nil }
        // A webhook row deleted under its queue: the delivery has nowhere to go.
        let hook = try webhook(id: leased.webhookID) ?? StationWebhook(id: leased.webhookID, siteID: 0, url: "", secret: "")
        return leased.delivery(to: hook)
    }

    public func webhook(id: Int64) throws -> StationWebhook? {
        var found: StationWebhook?
        try engine.query("SELECT \(StationWebhook.Column.selectList) FROM webhooks WHERE webhook_id = $1", [.int(id)]) { row in
            found = StationWebhook(row: row)
        }
        return found
    }

    /// Records one attempt of a leased delivery and moves its row on (delivered, due again,
    /// or given up), releasing the lease; inside `transaction`.
    /// - Parameter attempted: false when no attempt was made (a delivery past its deadline).
    /// - Returns: false when the lease was no longer `claimer`'s (it ran out and another took
    ///   the row): nothing is changed then.
    @discardableResult
    public func finishWebhookAttempt(
        _ delivery: QueuedWebhookDelivery, claimer: String, attempted: Bool, status: Int?, error: String,
        outcome: WebhookQueueOutcome, now: Date = Date(), in transaction: WriteTransaction
    ) throws -> Bool {
        let held =
            try engine.scalarInt(
                "SELECT COUNT(*) FROM webhook_queue WHERE queue_id = $1 AND claimed_by = $2 AND state = 'pending'",
                [.int(delivery.queueID), .text(claimer)]) ?? 0
        guard held == 1 else { return false }
        let attempts = delivery.attempts + (attempted ? 1 : 0)
        let (state, next, finished): (String, Int64, SQLValue) =
            switch outcome {
            case .delivered: ("delivered", now.milliseconds, .int(now.milliseconds))
            case .retry(let at): ("pending", at.milliseconds, .null)
            case .givenUp: ("given_up", now.milliseconds, .int(now.milliseconds))
            }
        try engine.execute(
            """
            UPDATE webhook_queue SET state = $1, next_attempt_ms = $2, attempts = $3, finished_ms = $4, last_error = $5,
                                     claimed_by = NULL, claimed_until_ms = NULL
            WHERE queue_id = $6 AND claimed_by = $7
            """, [.text(state), .int(next), .int(Int64(attempts)), finished, .text(error), .int(delivery.queueID), .text(claimer)])
        if attempted {
            let id = (try engine.scalarInt("SELECT MAX(delivery_id) FROM webhook_deliveries") ?? 0) + 1
            try engine.execute(
                "INSERT INTO webhook_deliveries (delivery_id, webhook_id, event_id, event, attempt, attempted_ms, http_status, error, delivered) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                [
                    .int(id), .int(delivery.webhook.id), .text(delivery.eventID), .text(delivery.event), .int(Int64(attempts)),
                    .int(now.milliseconds), status.map { .int(Int64($0)) } ?? .null, .text(error), .int(outcome == .delivered ? 1 : 0),
                ])
        }
        return true
    }

    /// Gives a lease back without an attempt (a station stopping), due again at `nextAttempt`.
    public func releaseWebhookLease(queueID: Int64, claimer: String, nextAttempt: Date) throws {
        try engine.execute(
            "UPDATE webhook_queue SET claimed_by = NULL, claimed_until_ms = NULL, next_attempt_ms = $1 WHERE queue_id = $2 AND claimed_by = $3",
            [.int(nextAttempt.milliseconds), .int(queueID), .text(claimer)])
    }

    /// When the oldest pending delivery of a webhook next becomes due, or its lease runs out
    /// (the rows behind it wait for it), or `nil` when none is pending.
    public func nextWebhookWake() throws -> Date? {
        try engine.scalarInt(
            """
            SELECT MIN(CASE WHEN q.claimed_until_ms IS NOT NULL AND q.claimed_until_ms > q.next_attempt_ms
                            THEN q.claimed_until_ms ELSE q.next_attempt_ms END)
            FROM webhook_queue q
            WHERE q.state = 'pending'
              AND NOT EXISTS (SELECT 1 FROM webhook_queue older
                              WHERE older.webhook_id = q.webhook_id AND older.state = 'pending' AND older.queue_id < q.queue_id)
            """
        ).map { Date(milliseconds: $0) }
    }

    /// Deliveries not yet delivered nor given up, of all webhooks.
    public func pendingWebhookDeliveries() throws -> Int {
        Int(try engine.scalarInt("SELECT COUNT(*) FROM webhook_queue WHERE state = 'pending'") ?? 0)
    }

    /// The queue's rows of one webhook by state, and its failed attempts.
    public func webhookQueueCounts(webhookID: Int64) throws -> WebhookQueueCounts {
        var counts = WebhookQueueCounts()
        enum ByState: Int, ArchiveColumns {
            case state, count
            var sqlName: String { self == .state ? "state" : "COUNT(*)" }
        }
        try engine.query("SELECT \(ByState.selectList) FROM webhook_queue WHERE webhook_id = $1 GROUP BY state", [.int(webhookID)]) { row in
            switch row.text(ByState.state) {
            case "pending": counts.pending = Int(row.int(ByState.count))
            case "given_up": counts.givenUp = Int(row.int(ByState.count))
            default: break
            }
        }
        // Attempts count from the record, which also holds deliveries made before the queue.
        enum ByOutcome: Int, ArchiveColumns {
            case delivered, count
            var sqlName: String { self == .delivered ? "delivered" : "COUNT(*)" }
        }
        try engine.query("SELECT \(ByOutcome.selectList) FROM webhook_deliveries WHERE webhook_id = $1 GROUP BY delivered", [.int(webhookID)]) { row in
            let count = Int(row.int(ByOutcome.count))
            if row.int(ByOutcome.delivered) != 0 { counts.delivered = count } else { counts.failedAttempts = count }
        }
        return counts
    }
}
