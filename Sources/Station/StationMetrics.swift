import ColdTapBase
import Foundation
import JSONOutput

/// The counters behind `GET /metrics` (Prometheus text format 0.0.4).
final class StationMetrics: Sendable {
    /// Upper bounds of the upload latency buckets, in seconds.
    static let bounds: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
    private struct Counters {
        var requests: [String: Int] = [:]
        var uploadBuckets = [Int](repeating: 0, count: StationMetrics.bounds.count)
        var uploadCount = 0
        var uploadSum = 0.0
        var webhookDelivered = 0
        var webhookFailedAttempts = 0
        var webhookGivenUp = 0
        /// Write transactions that kept uploads, and the uploads they kept (or refused).
        var writeBatches = 0
        var batchedUploads = 0
    }
    private let counters = LockedValue(Counters())

    func request(route: String, method: String, status: Int) {
        let key = "route=\"\(route)\",method=\"\(method)\",status=\"\(status)\""
        counters.withLock { $0.requests[key, default: 0] += 1 }
    }

    func upload(seconds: Double) {
        counters.withLock { counters in
            counters.uploadCount += 1
            counters.uploadSum += seconds
            for (index, bound) in StationMetrics.bounds.enumerated() where seconds <= bound { counters.uploadBuckets[index] += 1 }
        }
    }

    func webhookAttempt(delivered: Bool) {
        counters.withLock { if delivered { $0.webhookDelivered += 1 } else { $0.webhookFailedAttempts += 1 } }
    }

    func webhookGaveUp() { counters.withLock { $0.webhookGivenUp += 1 } }

    func writeBatch(uploads: Int) {
        counters.withLock {
            $0.writeBatches += 1
            $0.batchedUploads += uploads
        }
    }

    func text(reads: Int64, loggers: Int64, samples: Int64) -> String {
        let counters = self.counters.current
        do {
            var out = "# HELP coldtap_http_requests_total Requests answered, by route, method and status.\n# TYPE coldtap_http_requests_total counter\n"
            for key in counters.requests.keys.sorted() { out += "coldtap_http_requests_total{\(key)} \(counters.requests[key] ?? 0)\n" }
            out += "# HELP coldtap_upload_duration_seconds Time to answer POST /api/v1/reads.\n# TYPE coldtap_upload_duration_seconds histogram\n"
            for (index, bound) in StationMetrics.bounds.enumerated() {
                out += "coldtap_upload_duration_seconds_bucket{le=\"\(bound)\"} \(counters.uploadBuckets[index])\n"
            }
            out += "coldtap_upload_duration_seconds_bucket{le=\"+Inf\"} \(counters.uploadCount)\n"
            out += "coldtap_upload_duration_seconds_sum \(counters.uploadSum)\ncoldtap_upload_duration_seconds_count \(counters.uploadCount)\n"
            out += "# HELP coldtap_webhook_deliveries_total Webhook delivery attempts, by result.\n# TYPE coldtap_webhook_deliveries_total counter\n"
            out += "coldtap_webhook_deliveries_total{result=\"delivered\"} \(counters.webhookDelivered)\n"
            out += "coldtap_webhook_deliveries_total{result=\"failed\"} \(counters.webhookFailedAttempts)\n"
            out +=
                "# HELP coldtap_webhook_events_abandoned_total Events not delivered after the last retry.\n# TYPE coldtap_webhook_events_abandoned_total counter\n"
            out += "coldtap_webhook_events_abandoned_total \(counters.webhookGivenUp)\n"
            out +=
                "# HELP coldtap_upload_write_transactions_total Write transactions that kept uploaded reads (several at once under load).\n# TYPE coldtap_upload_write_transactions_total counter\n"
            out += "coldtap_upload_write_transactions_total \(counters.writeBatches)\n"
            out += "# HELP coldtap_upload_writes_total Uploaded reads those transactions kept or refused.\n# TYPE coldtap_upload_writes_total counter\n"
            out += "coldtap_upload_writes_total \(counters.batchedUploads)\n"
            out += "# HELP coldtap_archive_reads Reads kept in the archive.\n# TYPE coldtap_archive_reads gauge\ncoldtap_archive_reads \(reads)\n"
            out += "# HELP coldtap_archive_loggers Loggers in the archive.\n# TYPE coldtap_archive_loggers gauge\ncoldtap_archive_loggers \(loggers)\n"
            out +=
                "# HELP coldtap_archive_samples Stitched samples kept (all generations).\n# TYPE coldtap_archive_samples gauge\ncoldtap_archive_samples \(samples)\n"
            return out
        }
    }
}

/// One JSON line per request, on standard error unless told otherwise. Never the
/// Authorization header, a token or a secret: only the token's number.
struct RequestLog: Sendable {
    var sink: @Sendable (String) -> Void

    static let standardError = RequestLog { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }

    func write(
        method: String, path: String, route: String, status: Int, milliseconds: Double, bytesIn: Int, bytesOut: Int,
        site: String?, tokenID: Int64?, detail: String?
    ) {
        let members: [(String, JSONValue)] = [
            ("time", .string(Date().isoUTC)), ("method", .string(String(method.prefix(16)))),
            ("path", .string(String(path.prefix(256)))), ("route", .string(route)), ("status", .int(status)),
            ("ms", .number((milliseconds * 1000).rounded() / 1000)), ("bytesIn", .int(bytesIn)), ("bytesOut", .int(bytesOut)),
            ("site", .optional(site)), ("tokenID", tokenID.map { .int(Int($0)) } ?? .null), ("detail", .optional(detail)),
        ]
        sink(JSONValue.object(members).serialized(pretty: false))
    }
}
