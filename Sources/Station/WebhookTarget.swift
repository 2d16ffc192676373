import CCurl
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where the station may POST webhook events. By default only `https` URLs without a user
/// name or password whose host is a public address: a webhook must not turn the station into
/// a way to reach its own network (loopback services, a cloud's metadata address, the LAN).
/// The same rules run when a hook is added (`coldtap webhook add`, after resolving its name),
/// and at every delivery on the very address libcurl is about to connect to, and again on the
/// address it did connect to, so a name that resolves elsewhere later gains nothing.
public struct WebhookTargetPolicy: Sendable, Equatable {
    /// Plain `http` URLs too (`--allow-http-webhooks`: tests).
    public var allowHTTP: Bool
    /// Loopback, private (RFC 1918, fc00::/7, 100.64/10) and link-local addresses too
    /// (`--allow-private-webhooks`: tests and receivers on the LAN).
    public var allowPrivate: Bool

    public init(allowHTTP: Bool = false, allowPrivate: Bool = false) {
        self.allowHTTP = allowHTTP
        self.allowPrivate = allowPrivate
    }
}

/// Why a webhook target is refused; `message` names what is wrong and what to do.
public struct WebhookTargetRefusal: Error, Sendable, CustomStringConvertible, Equatable {
    /// What the station's operator could allow to let such a target in (for tests, or
    /// receivers on the LAN); `webhook add` words it as its options.
    public enum Allowance: Sendable, Equatable {
        case plainHTTP, privateAddresses
    }

    public var message: String
    public var allowance: Allowance?
    public init(_ message: String, allowance: Allowance? = nil) {
        self.message = message
        self.allowance = allowance
    }
    public var description: String { message }
}

/// A webhook URL as libcurl parses it (the same parser as the delivery: no second opinion).
public struct WebhookTarget: Sendable, Equatable {
    public var scheme: String
    /// Without brackets for IPv6.
    public var host: String
    public var port: Int

    /// What sort of address an IP address is, for the policy.
    enum AddressKind: Equatable {
        case global
        case loopback
        /// RFC 1918, fc00::/7, 100.64/10, 198.18/15, fec0::/10.
        case privateRange
        case linkLocal
        /// Never a webhook target, whatever the flags: unspecified, multicast, broadcast,
        /// documentation and reserved ranges.
        case unusable(String)
    }

    /// Parses and checks `text` (scheme, user-info, form, and the host when it is an IP
    /// address literal). A name is checked by `resolveAndCheck` or at connect time.
    /// - Throws: `WebhookTargetRefusal`.
    public static func parse(_ text: String, policy: WebhookTargetPolicy) throws -> WebhookTarget {
        let advice = "give the receiver's https:// URL, e.g. https://alarms.example.org/coldtap"
        guard !text.isEmpty, text.utf8.count <= 2048,
            text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else {
            throw WebhookTargetRefusal(
                "the webhook URL must be up to 2048 printable ASCII characters without spaces (an international name in its xn-- form); \(advice).")
        }
        guard let handle = curl_url() else { throw WebhookTargetRefusal("the webhook URL could not be parsed (out of memory).") }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, text, 0) == CURLUE_OK else {
            throw WebhookTargetRefusal("the webhook URL is not a URL with a scheme and a host; \(advice).")
        }
        func part(_ which: CURLUPart) -> String? {
            var value: UnsafeMutablePointer<CChar>?
            guard curl_url_get(handle, which, &value, 0) == CURLUE_OK, let value else { return nil }
            defer { curl_free(value) }
            return String(cString: value)
        }
        let scheme = (part(CURLUPART_SCHEME) ?? "").lowercased()
        switch scheme {
        case "https": break
        case "http" where policy.allowHTTP: break
        case "http":
            throw WebhookTargetRefusal(
                "the webhook URL is plain http; events go over https only (a station that allows plain http, for tests, takes it too).",
                allowance: .plainHTTP)
        default:
            throw WebhookTargetRefusal("the webhook URL's scheme is not https; \(advice).")
        }
        if part(CURLUPART_USER) != nil || part(CURLUPART_PASSWORD) != nil || part(CURLUPART_OPTIONS) != nil {
            throw WebhookTargetRefusal(
                "the webhook URL carries a user name or password; receivers check the X-ColdTap-Signature header instead: give the URL without user@ or user:password@."
            )
        }
        guard var host = part(CURLUPART_HOST), !host.isEmpty else {
            throw WebhookTargetRefusal("the webhook URL has no host; \(advice).")
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if part(CURLUPART_ZONEID) != nil {
            throw WebhookTargetRefusal("the webhook URL names an IPv6 zone (link-local); give a public address or name.")
        }
        let port = part(CURLUPART_PORT).flatMap { Int($0) } ?? (scheme == "https" ? 443 : 80)
        if let address = WebhookTarget.addressBytes(host) {
            if let refusal = WebhookTarget.refusal(address: address, shown: host, policy: policy) { throw refusal }
        }
        return WebhookTarget(scheme: scheme, host: host, port: port)
    }

    /// `parse`, then resolves the host and checks every address it resolves to (at `webhook add`).
    /// - Throws: `WebhookTargetRefusal` for a refused URL, a refused address, or a name that does not resolve.
    @discardableResult
    public static func resolveAndCheck(_ text: String, policy: WebhookTargetPolicy) throws -> WebhookTarget {
        let target = try parse(text, policy: policy)
        guard WebhookTarget.addressBytes(target.host) == nil else { return target }
        var hints = addrinfo()
        hints.ai_socktype = coldtap_sock_stream()
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(target.host, nil, &hints, &list)
        guard status == 0, let list else {
            throw WebhookTargetRefusal(
                "the webhook host '\(target.host)' does not resolve here (\(String(cString: gai_strerror(status)))); check the name, or add the hook when the station can resolve it."
            )
        }
        defer { freeaddrinfo(list) }
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            if let socketAddress = current.pointee.ai_addr, let bytes = WebhookTarget.bytes(of: socketAddress),
                let refusal = WebhookTarget.refusal(address: bytes, shown: "\(target.host) (\(WebhookTarget.text(of: bytes)))", policy: policy)
            {
                throw refusal
            }
            entry = current.pointee.ai_next
        }
        return target
    }

    /// Why the policy refuses `address` (4 or 16 bytes), or `nil` when it may be connected to.
    static func refusal(address: [UInt8], shown: String, policy: WebhookTargetPolicy) -> WebhookTargetRefusal? {
        func privateRefusal(_ kind: String) -> WebhookTargetRefusal? {
            guard !policy.allowPrivate else { return nil }
            return WebhookTargetRefusal(
                "the webhook host \(shown) is a \(kind) address; webhooks go to public addresses unless the station allows private ones (tests, receivers on the LAN).",
                allowance: .privateAddresses)
        }
        switch kind(of: address) {
        case .global: return nil
        case .loopback: return privateRefusal("loopback")
        case .privateRange: return privateRefusal("private")
        case .linkLocal: return privateRefusal("link-local")
        case .unusable(let what):
            return WebhookTargetRefusal("the webhook host \(shown) is \(what), never a webhook receiver; give the receiver's public name or address.")
        }
    }

    /// The kind of an IPv4 (4 bytes) or IPv6 (16 bytes) address; IPv6 forms that carry an
    /// IPv4 address (mapped, translated, compatible, NAT64, 6to4) are judged by that address.
    static func kind(of address: [UInt8]) -> AddressKind {
        if address.count == 4 { return kindV4(address[0], address[1], address[2], address[3]) }
        guard address.count == 16 else { return .unusable("not an IP address") }
        let a = address
        let zeros = { (range: Range<Int>) in range.allSatisfy { a[$0] == 0 } }
        if zeros(0..<16) { return .unusable("the unspecified address") }
        if zeros(0..<15), a[15] == 1 { return .loopback }
        if zeros(0..<10), a[10] == 0xFF, a[11] == 0xFF { return kindV4(a[12], a[13], a[14], a[15]) }
        // ::ffff:0:0/96 (IPv4-translated, RFC 2765): an IPv4 address one word further on.
        if zeros(0..<8), a[8] == 0xFF, a[9] == 0xFF, a[10] == 0, a[11] == 0 { return kindV4(a[12], a[13], a[14], a[15]) }
        if zeros(0..<12) { return kindV4(a[12], a[13], a[14], a[15]) }
        // 64:ff9b::/96 (NAT64): the IPv4 address it translates to.
        if a[0] == 0x00, a[1] == 0x64, a[2] == 0xFF, a[3] == 0x9B, zeros(4..<12) { return kindV4(a[12], a[13], a[14], a[15]) }
        if a[0] == 0x00, a[1] == 0x64, a[2] == 0xFF, a[3] == 0x9B, a[4] == 0x00, a[5] == 0x01 { return .privateRange }
        // 2002::/16 (6to4) carries its IPv4 relay address in bytes 2…5.
        if a[0] == 0x20, a[1] == 0x02 { return kindV4(a[2], a[3], a[4], a[5]) }
        if a[0] == 0xFF { return .unusable("a multicast address") }
        if a[0] & 0xFE == 0xFC { return .privateRange }
        if a[0] == 0xFE, a[1] & 0xC0 == 0x80 { return .linkLocal }
        if a[0] == 0xFE, a[1] & 0xC0 == 0xC0 { return .privateRange }
        if a[0] == 0x20, a[1] == 0x01, a[2] == 0x0D, a[3] == 0xB8 { return .unusable("a documentation address") }
        // 2001::/32 (Teredo) hides an IPv4 address; 100::/64 discards.
        if a[0] == 0x20, a[1] == 0x01, a[2] == 0x00, a[3] == 0x00 { return .unusable("a Teredo tunnel address") }
        if a[0] == 0x01, a[1] == 0x00, zeros(2..<8) { return .unusable("a discard address") }
        return .global
    }

    static func kindV4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> AddressKind {
        switch (a, b, c) {
        case (0, _, _): return .unusable("in 0.0.0.0/8 (this host)")
        case (127, _, _): return .loopback
        case (10, _, _), (172, 16...31, _), (192, 168, _): return .privateRange
        case (100, 64...127, _): return .privateRange
        case (198, 18...19, _): return .privateRange
        case (169, 254, _): return .linkLocal
        case (192, 0, 0): return .unusable("an IETF protocol address")
        case (192, 0, 2), (198, 51, 100), (203, 0, 113): return .unusable("a documentation address")
        case (224...239, _, _): return .unusable("a multicast address")
        case (240...255, _, _): return .unusable("a reserved or broadcast address")
        default: return .global
        }
    }

    /// The 4 or 16 bytes of an IP address literal, or `nil` for a name.
    static func addressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    static func bytes(of address: UnsafePointer<sockaddr>) -> [UInt8]? {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                var value = pointer.pointee.sin_addr
                return withUnsafeBytes(of: &value) { Array($0) }
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                var value = pointer.pointee.sin6_addr
                return withUnsafeBytes(of: &value) { Array($0) }
            }
        default: return nil
        }
    }

    static func text(of bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let ok = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) } != nil
        return ok ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
    }
}
