import Archive
import ColdTapBase
import Digest
import Foundation
import JSONOutput

/// Sends signed events to a site's webhooks from a persistent queue (`webhook_queue`, in the
/// archive's station tables). `send` queues the event for each of the site's webhooks in the
/// same store before the request that caused it is answered, so a restart resumes it. A small
/// fixed pool of workers leases due deliveries (one in flight per webhook, whichever station
/// holds it), POSTs them through `WebhookTransport`, records every attempt in
/// `webhook_deliveries`, and schedules a failed one again after an exponential backoff with
/// jitter, until it is delivered, has had `attempts` tries, or passes its deadline (given up).
/// Workers wait on a condition until the next delivery is due, a new event arrives, or the
/// station stops: no thread sleeps per event, whatever the receivers do.
///
/// Each attempt is a POST whose body is the event (with its `timestamp`), signed
/// `X-ColdTap-Signature: sha256=HEX` with HMAC-SHA256 of the body under the webhook's secret,
/// the same timestamp in `X-ColdTap-Timestamp` (a receiver refuses old ones: replays) and the
/// event's id in `X-ColdTap-Event`. Only 2xx is delivered; a 3xx is a failed attempt, never followed.
final class WebhookSender: Sendable {
    struct Settings: Sendable {
        var workers = 4
        var attempts = 6
        /// The first wait after a failed attempt; doubled each time, up to `maxBackoff`.
        var backoff: TimeInterval = 2
        var maxBackoff: TimeInterval = 600
        var connectTimeout: TimeInterval = 5
        var attemptTimeout: TimeInterval = 10
        /// From the event: after this it is given up.
        var deadline: TimeInterval = 6 * 3600
        var policy = WebhookTargetPolicy()
        /// How often an idle worker looks at the queue anyway (rows another station queued).
        var idleLook: TimeInterval = 5
    }

    let pool: StorePool
    let batcher: WriteBatcher
    let metrics: StationMetrics
    let settings: Settings
    /// Names this station's leases: a host and process, and this sender.
    private let claimerPrefix: String
    /// The workers' shared state: events queued since they last looked, the transports of
    /// the attempts under way, how many workers are running.
    private struct Workers {
        var stopping = false
        var started = false
        var wakeups = 0
        var running = 0
        var transports: [WebhookTransport] = []
    }
    private let workers = WaitableValue(Workers())
    /// Counts every change of a delivery's state (drain waits on it).
    private let progress = WaitableValue(0)

    /// Where an event that could not be queued is said (the station's JSON log).
    private let logLine: @Sendable (String) -> Void
    /// The record's newest signed checkpoint, sent with each event (`nil`: none signed).
    private let checkpoint: @Sendable () -> String?

    init(
        pool: StorePool, batcher: WriteBatcher, metrics: StationMetrics, settings: Settings,
        logLine: @escaping @Sendable (String) -> Void = { _ in }, checkpoint: @escaping @Sendable () -> String? = { nil }
    ) {
        self.logLine = logLine
        self.checkpoint = checkpoint
        self.pool = pool
        self.batcher = batcher
        self.metrics = metrics
        var settings = settings
        settings.workers = max(0, min(settings.workers, 64))
        settings.attempts = max(1, settings.attempts)
        self.settings = settings
        // gethostname, not ProcessInfo.hostName, which may ask DNS.
        var name = [CChar](repeating: 0, count: 256)
        let host = gethostname(&name, name.count - 1) == 0 ? String(cString: name) : "station"
        claimerPrefix = "\(host.prefix(64))/\(getpid())/\(UUID().uuidString.prefix(8).lowercased())"
    }

    /// Starts the workers (once); they pick up what earlier runs left in the queue.
    func start() {
        let transports: [WebhookTransport] = workers.update { workers in
            guard !workers.started, !workers.stopping else { return [] }
            workers.started = true
            workers.transports = (0..<settings.workers).map { _ in WebhookTransport() }
            workers.running = workers.transports.count
            return workers.transports
        }
        for (index, transport) in transports.enumerated() {
            let thread = Thread { [self] in
                work(claimer: "\(claimerPrefix)/\(index)", transport: transport)
                workers.update { $0.running -= 1 }
            }
            thread.name = "coldtap-webhook-\(index)"
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Queues `event` (its members without `id` and `timestamp`) for every webhook of the
    /// site, in the archive, before returning.
    func send(type: String, siteID: Int64, members: [(String, JSONValue)]) {
        let eventID = UUID().uuidString.lowercased()
        // An event that cannot be queued (the archive refused the write) is said in the log,
        // never dropped without a word; the read that caused it is kept all the same.
        func notQueued(_ error: any Error) {
            logLine(
                JSONValue.object([
                    ("time", .string(Date().isoUTC)), ("webhookEventNotQueued", .string(type)), ("event", .string(eventID)),
                    ("siteID", .int(Int(siteID))), ("error", .string(String(describing: error))),
                ]).serialized(pretty: false))
        }
        let hooks: [StationWebhook]
        do {
            hooks = try pool.with { try $0.webhooks(siteID: siteID) }
        } catch {
            notQueued(error)
            return
        }
        guard !hooks.isEmpty else { return }
        let payload = JSONValue.object(members).serialized(pretty: false)
        let now = Date()
        let deadline = now.addingTimeInterval(settings.deadline)
        let queued: Int
        do {
            queued = try batcher.write { store, transaction in
                try store.enqueueWebhookEvent(
                    siteID: siteID, eventID: eventID, event: type, payload: payload, deadline: deadline, now: now, in: transaction)
            }
        } catch {
            notQueued(error)
            return
        }
        guard queued > 0 else { return }
        workers.update { $0.wakeups += queued }
    }

    /// Stops the workers: waits, up to `seconds`, for them to record the attempts under way
    /// (an attempt cut short is recorded as failed and due again at once, for the next start).
    func stop(waiting seconds: TimeInterval) {
        let all = workers.update { workers in
            workers.stopping = true
            return workers.transports
        }
        for transport in all { transport.interrupt() }
        workers.wait(until: { $0.running == 0 }, deadline: Date().addingTimeInterval(seconds)) { _, _ in }
    }

    /// For tests: waits until no delivery in the queue is pending (all delivered or given up).
    func drain(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var seen = progress.read { $0 }
        while true {
            if let pending = try? pool.with({ try $0.pendingWebhookDeliveries() }), pending == 0 { return true }
            guard Date() < deadline else { return false }
            // Woken by each delivery's change of state; the bound only rechecks the queue
            // for what another process changed.
            let before = seen
            seen = progress.wait(until: { $0 != before }, deadline: min(deadline, Date().addingTimeInterval(1))) { count, _ in count }
        }
    }

    // MARK: Workers

    private var isStopping: Bool { workers.read { $0.stopping } }

    private func work(claimer: String, transport: WebhookTransport) {
        while !isStopping {
            let now = Date()
            let leased: QueuedWebhookDelivery?
            do {
                leased = try batcher.write { store, _ in
                    try store.leaseWebhookDelivery(claimer: claimer, leaseUntil: now.addingTimeInterval(self.leaseSeconds), now: now)
                }
            } catch {
                // The archive is unreachable: look again a little later.
                waitForWork(until: now.addingTimeInterval(1))
                continue
            }
            guard let delivery = leased else {
                let next = (try? pool.with { try $0.nextWebhookWake() }) ?? nil
                waitForWork(until: min(next ?? .distantFuture, now.addingTimeInterval(settings.idleLook)))
                continue
            }
            attempt(delivery, claimer: claimer, transport: transport)
        }
    }

    /// Longer than any attempt can take, so a live worker never loses its lease.
    private var leaseSeconds: TimeInterval { settings.connectTimeout + settings.attemptTimeout + 60 }

    private func waitForWork(until wake: Date) {
        workers.wait(until: { $0.stopping || $0.wakeups > 0 }, deadline: wake, waking: .none) { workers, _ in
            if workers.wakeups > 0 { workers.wakeups -= 1 }
        }
    }

    private func attempt(_ delivery: QueuedWebhookDelivery, claimer: String, transport: WebhookTransport) {
        let now = Date()
        if now >= delivery.deadline || delivery.attempts >= settings.attempts {
            finish(
                delivery, claimer: claimer, attempted: false, status: nil, error: "given up: its deadline passed before another attempt",
                outcome: .givenUp)
            return
        }
        let timestamp = Int(now.timeIntervalSince1970)
        let body = WebhookSender.body(
            eventID: delivery.eventID, type: delivery.event, timestamp: timestamp, payload: delivery.payload, checkpoint: checkpoint())
        let signature = "sha256=" + HMACSHA256.authenticationCode(Data(body.utf8), key: Data(delivery.webhook.secret.utf8)).hexString(uppercase: false)
        let remaining = delivery.deadline.timeIntervalSince(now)
        let result = transport.post(
            delivery.webhook.url, body: Data(body.utf8),
            headers: [
                ("Content-Type", "application/json"),
                ("X-ColdTap-Signature", signature),
                ("X-ColdTap-Timestamp", String(timestamp)),
                ("X-ColdTap-Event", delivery.eventID),
            ], policy: settings.policy, connectTimeout: min(settings.connectTimeout, remaining), totalTimeout: min(settings.attemptTimeout, remaining))
        let delivered = result.status.map { (200..<300).contains($0) } ?? false
        var error = result.error
        if !delivered, error.isEmpty, let status = result.status {
            error = (300..<400).contains(status) ? "HTTP \(status): a redirect, not followed; give the webhook its final URL" : "HTTP \(status)"
        }
        let made = delivery.attempts + 1
        let outcome: WebhookQueueOutcome
        if delivered {
            outcome = .delivered
        } else if result.interrupted {
            outcome = .retry(at: Date())
        } else if result.refused || made >= settings.attempts {
            outcome = .givenUp
        } else {
            let next = Date().addingTimeInterval(backoff(afterAttempt: made))
            outcome = next < delivery.deadline ? .retry(at: next) : .givenUp
        }
        metrics.webhookAttempt(delivered: delivered)
        finish(delivery, claimer: claimer, attempted: true, status: result.status, error: delivered ? "" : error, outcome: outcome)
    }

    /// `backoff · 2^(n-1)`, at most `maxBackoff`, of which a random half is waited
    /// ("equal jitter": stations that failed together do not retry together).
    func backoff(afterAttempt attempt: Int) -> TimeInterval {
        let full = min(settings.maxBackoff, settings.backoff * pow(2, Double(min(attempt - 1, 30))))
        return full / 2 + Double.random(in: 0...(full / 2))
    }

    private func finish(
        _ delivery: QueuedWebhookDelivery, claimer: String, attempted: Bool, status: Int?, error: String,
        outcome: WebhookQueueOutcome
    ) {
        if outcome == .givenUp { metrics.webhookGaveUp() }
        do {
            _ = try batcher.write { store, transaction in
                try store.finishWebhookAttempt(
                    delivery, claimer: claimer, attempted: attempted, status: status, error: error,
                    outcome: outcome, in: transaction)
            }
        } catch {
            // Not recorded: the lease runs out and the delivery is attempted again.
        }
        progress.update { $0 += 1 }
    }

    /// The signed body: `id`, `type`, `timestamp`, then the event's members in their order,
    /// then `checkpoint`: the record's newest signed checkpoint when the event was sent (it
    /// covers the event's read, which was kept before the event was queued).
    static func body(eventID: String, type: String, timestamp: Int, payload: String, checkpoint: String? = nil) -> String {
        var body =
            "{\"id\":" + JSONValue.string(eventID).serialized(pretty: false)
            + ",\"type\":" + JSONValue.string(type).serialized(pretty: false)
            + ",\"timestamp\":" + String(timestamp)
        if payload.hasPrefix("{"), payload.count > 2 {
            body += "," + payload.dropFirst().dropLast()
        }
        if let checkpoint { body += ",\"checkpoint\":" + JSONValue.string(checkpoint).serialized(pretty: false) }
        return body + "}"
    }
}
