import Archive
import Digest
import Foundation
import JSONOutput
import NDEF
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends signed events to a site's webhooks: each attempt is a POST whose body is the event
/// (with its `timestamp`), signed `X-ColdTap-Signature: sha256=HEX` with HMAC-SHA256 of the
/// body under the webhook's secret, the same timestamp in `X-ColdTap-Timestamp` (a receiver
/// refuses old ones: replays). A failed attempt (no answer, or a status outside 2xx) is
/// retried after 1, 2, 4, … times `backoff`, up to `attempts` in all; every attempt is
/// recorded in `webhook_deliveries`.
final class WebhookSender: @unchecked Sendable {
    let pool: StorePool
    let metrics: StationMetrics
    let attempts: Int
    let backoff: TimeInterval
    private let session: URLSession
    private let group = DispatchGroup()
    private let queue = DispatchQueue(label: "coldtap.webhooks", attributes: .concurrent)
    private let stopping = LockedValue(false)

    init(pool: StorePool, metrics: StationMetrics, attempts: Int, backoff: TimeInterval) {
        self.pool = pool
        self.metrics = metrics
        self.attempts = max(1, attempts)
        self.backoff = backoff
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        session = URLSession(configuration: configuration)
    }

    /// Queues `event` (its members without `id` and `timestamp`) for every webhook of the site.
    func send(type: String, siteID: Int64, members: [(String, JSONValue)]) {
        guard let hooks = try? pool.with({ try $0.webhooks(siteID: siteID) }), !hooks.isEmpty else { return }
        let eventID = UUID().uuidString.lowercased()
        for hook in hooks {
            group.enter()
            queue.async { [self] in
                defer { group.leave() }
                deliver(hook, eventID: eventID, type: type, members: members)
            }
        }
    }

    private func deliver(_ hook: StationWebhook, eventID: String, type: String, members: [(String, JSONValue)]) {
        for attempt in 1...attempts {
            let timestamp = Int(Date().timeIntervalSince1970)
            let body = JSONValue.object([("id", .string(eventID)), ("type", .string(type)), ("timestamp", .int(timestamp))] + members)
                .serialized(pretty: false)
            let signature = "sha256=" + HMACSHA256.authenticationCode(Data(body.utf8), key: Data(hook.secret.utf8)).hexString(uppercase: false)
            var outcome: (status: Int?, error: String) = (nil, "")
            if let url = URL(string: hook.url) {
                var request = URLRequest(url: url)
                request.httpMethod = "POST"
                request.httpBody = Data(body.utf8)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.setValue(signature, forHTTPHeaderField: "X-ColdTap-Signature")
                request.setValue(String(timestamp), forHTTPHeaderField: "X-ColdTap-Timestamp")
                request.setValue(eventID, forHTTPHeaderField: "X-ColdTap-Event")
                outcome = post(request)
            } else {
                outcome.error = "the webhook URL does not parse"
            }
            let delivered = outcome.status.map { (200..<300).contains($0) } ?? false
            metrics.webhookAttempt(delivered: delivered)
            try? pool.with {
                try $0.recordDelivery(webhookID: hook.id, eventID: eventID, event: type, attempt: attempt, status: outcome.status,
                                      error: delivered ? "" : (outcome.error.isEmpty ? "HTTP \(outcome.status ?? 0)" : outcome.error),
                                      delivered: delivered)
            }
            if delivered { return }
            if attempt < attempts {
                let wait = backoff * pow(2, Double(attempt - 1))
                let until = Date().addingTimeInterval(wait)
                while Date() < until {
                    if stopping.current { return }
                    Thread.sleep(forTimeInterval: min(0.05, max(0, until.timeIntervalSinceNow)))
                }
            }
        }
        metrics.webhookGaveUp()
    }

    private func post(_ request: URLRequest) -> (status: Int?, error: String) {
        final class Box: @unchecked Sendable { var status: Int?; var error = "" }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: request) { _, response, error in
            box.status = (response as? HTTPURLResponse)?.statusCode
            if let error { box.error = error.localizedDescription }
            done.signal()
        }.resume()
        done.wait()
        return (box.status, box.error)
    }

    /// Waits for the deliveries under way; retries still waiting are dropped (their attempts are recorded).
    func stop(waiting seconds: TimeInterval) {
        stopping.exchange(true)
        _ = group.wait(timeout: .now() + seconds)
    }

    /// For tests: waits until every queued delivery has ended.
    func drain(timeout: TimeInterval) -> Bool { group.wait(timeout: .now() + timeout) == .success }
}
