import CCurl
import ColdTapBase
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One delivery worker's HTTP client: a POST through libcurl with no redirects (a 3xx is
/// an answer like any other), only the allowed schemes, no proxy from the environment, a
/// connect and a total timeout, and the target policy applied to the address libcurl is
/// about to connect to (`CURLOPT_OPENSOCKETFUNCTION`) and to the one it connected to
/// (`CURLOPT_PREREQFUNCTION`, before a byte of the request is sent). Transfers run on a
/// multi handle so that `interrupt()`, from another thread, ends a wait at once.
final class WebhookTransport: @unchecked Sendable {
    struct Outcome {
        /// The receiver's status; `nil` when there was no answer.
        var status: Int?
        var error: String
        /// The policy refused the address: trying again is no use.
        var refused = false
        /// Ended by `interrupt()` (the station stopping).
        var interrupted = false
    }

    /// What the socket callbacks need, handed to libcurl as an opaque pointer.
    final class TransferContext {
        let policy: WebhookTargetPolicy
        let host: String
        var refusal: String?
        init(policy: WebhookTargetPolicy, host: String) {
            self.policy = policy
            self.host = host
        }
    }

    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    private let multi: UnsafeMutableRawPointer?
    private let interrupted = LockedValue(false)

    init() {
        _ = WebhookTransport.initialized
        multi = curl_multi_init()
    }

    deinit { curl_multi_cleanup(multi) }

    /// Ends the transfer under way (and any later one) as soon as libcurl returns to its loop.
    func interrupt() {
        interrupted.exchange(true)
        curl_multi_wakeup(multi)
    }

    func post(
        _ url: String, body: Data, headers: [(String, String)], policy: WebhookTargetPolicy,
        connectTimeout: TimeInterval, totalTimeout: TimeInterval
    ) -> Outcome {
        let target: WebhookTarget
        do {
            target = try WebhookTarget.parse(url, policy: policy)
        } catch {
            return Outcome(status: nil, error: (error as? WebhookTargetRefusal)?.message ?? "\(error)", refused: true)
        }
        guard let multi, let easy = curl_easy_init(), let parsed = curl_url() else {
            return Outcome(status: nil, error: "the webhook client could not start (out of memory)")
        }
        defer {
            curl_easy_cleanup(easy)
            curl_url_cleanup(parsed)
        }
        guard curl_url_set(parsed, CURLUPART_URL, url, 0) == CURLUE_OK else {
            return Outcome(status: nil, error: "the webhook URL does not parse", refused: true)
        }
        let context = TransferContext(policy: policy, host: target.host)
        let opaque = Unmanaged.passUnretained(context).toOpaque()
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in headers { list = curl_slist_append(list, "\(name): \(value)") }
        // No `Expect: 100-continue` wait for larger bodies.
        list = curl_slist_append(list, "Expect:")
        defer { curl_slist_free_all(list) }
        let protocols = policy.allowHTTP ? "http,https" : "https"
        var ok = true
        func check(_ code: CURLcode) { ok = ok && code == CURLE_OK }
        check(coldtap_curl_set_pointer(easy, CURLOPT_CURLU, UnsafeMutableRawPointer(parsed)))
        check(coldtap_curl_set_string(easy, CURLOPT_PROTOCOLS_STR, protocols))
        check(coldtap_curl_set_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, protocols))
        check(coldtap_curl_set_long(easy, CURLOPT_FOLLOWLOCATION, 0))
        check(coldtap_curl_set_long(easy, CURLOPT_NOSIGNAL, 1))
        // The environment's proxy would make the checked address the proxy's.
        check(coldtap_curl_set_string(easy, CURLOPT_PROXY, ""))
        check(coldtap_curl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(connectTimeout * 1000))))
        check(coldtap_curl_set_long(easy, CURLOPT_TIMEOUT_MS, max(1, Int(totalTimeout * 1000))))
        check(coldtap_curl_set_long(easy, CURLOPT_POST, 1))
        check(coldtap_curl_set_long(easy, CURLOPT_POSTFIELDSIZE, body.count))
        body.withUnsafeBytes { bytes in
            check(coldtap_curl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress)))
        }
        check(coldtap_curl_set_pointer(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(list)))
        check(coldtap_curl_set_string(easy, CURLOPT_USERAGENT, "ColdTap-Webhook"))
        check(coldtap_curl_set_write(easy, discardBody))
        check(coldtap_curl_set_opensocket(easy, openCheckedSocket))
        check(coldtap_curl_set_pointer(easy, CURLOPT_OPENSOCKETDATA, opaque))
        check(coldtap_curl_set_prereq(easy, checkConnectedAddress))
        check(coldtap_curl_set_pointer(easy, CURLOPT_PREREQDATA, opaque))
        guard ok else { return Outcome(status: nil, error: "the webhook client refused its settings (libcurl too old?)") }

        guard curl_multi_add_handle(multi, easy) == CURLM_OK else {
            return Outcome(status: nil, error: "the webhook client could not start the transfer")
        }
        defer { curl_multi_remove_handle(multi, easy) }
        var running: Int32 = 1
        var result = CURLE_OK
        var finished = false
        while !finished {
            if interrupted.current {
                return Outcome(status: nil, error: "the station stopped during the attempt", interrupted: true)
            }
            guard curl_multi_perform(multi, &running) == CURLM_OK else { break }
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                if message.pointee.msg == CURLMSG_DONE {
                    result = message.pointee.data.result
                    finished = true
                }
            }
            if finished || running == 0 { break }
            // Wakes for socket activity, libcurl's own timeouts, or `interrupt()`.
            _ = curl_multi_poll(multi, nil, 0, 1000, nil)
        }
        if let refusal = context.refusal {
            return Outcome(status: nil, error: refusal, refused: true)
        }
        guard result == CURLE_OK else {
            return Outcome(status: nil, error: "no answer: " + String(cString: curl_easy_strerror(result)))
        }
        var status = 0
        _ = coldtap_curl_get_long(easy, CURLINFO_RESPONSE_CODE, &status)
        return Outcome(status: status, error: "")
    }
}

/// The receiver's answer body is not needed; up to 64 KiB is read and dropped, more ends the transfer.
private let discardBody: curl_write_callback = { _, size, count, _ in
    let bytes = size * count
    return bytes <= 65536 ? bytes : 0
}

/// Opens the socket only for an address the policy allows.
private let openCheckedSocket: curl_opensocket_callback = { clientp, _, address in
    guard let clientp, let address else { return CURL_SOCKET_BAD }
    let context = Unmanaged<WebhookTransport.TransferContext>.fromOpaque(clientp).takeUnretainedValue()
    var bytes = [UInt8](repeating: 0, count: 16)
    let count = Int(coldtap_curl_sockaddr_bytes(address, &bytes))
    let found = Array(bytes.prefix(count))
    if count == 0 {
        context.refusal = "the webhook host \(context.host) resolved to an address that is not IP"
        return CURL_SOCKET_BAD
    }
    if let refusal = WebhookTarget.refusal(address: found, shown: "\(context.host) (\(WebhookTarget.text(of: found)))", policy: context.policy) {
        context.refusal = refusal.message
        return CURL_SOCKET_BAD
    }
    return socket(address.pointee.family, address.pointee.socktype | coldtap_sock_cloexec(), address.pointee.protocol)
}

/// Checks the address connected to, before the request is sent.
private let checkConnectedAddress: curl_prereq_callback = { clientp, primaryIP, _, _, _ in
    guard let clientp, let primaryIP else { return Int32(CURL_PREREQFUNC_ABORT) }
    let context = Unmanaged<WebhookTransport.TransferContext>.fromOpaque(clientp).takeUnretainedValue()
    let text = String(cString: primaryIP)
    guard let bytes = WebhookTarget.addressBytes(text) else {
        context.refusal = "the webhook host \(context.host) was reached at an address that is not IP"
        return Int32(CURL_PREREQFUNC_ABORT)
    }
    if let refusal = WebhookTarget.refusal(address: bytes, shown: "\(context.host) (\(text))", policy: context.policy) {
        context.refusal = refusal.message
        return Int32(CURL_PREREQFUNC_ABORT)
    }
    return Int32(CURL_PREREQFUNC_OK)
}
