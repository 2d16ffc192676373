import AppViewModels
import Foundation

#if !canImport(Darwin)
    import FoundationStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif
#if canImport(Security)
    import Security
#else
    import SecurityStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

/// Secret keys for loggers that sign their data, kept in the iOS Keychain (never in
/// UserDefaults or the history). Each key has a label the person chooses — usually the
/// logger's serial number or tag UID — and is readable only while the phone is unlocked,
/// on this device only.
struct KeychainStore: Sendable {
    /// A Keychain failure, with the Security framework's status code.
    struct Failure: Error, LocalizedError {
        var status: OSStatus
        var errorDescription: String? {
            let message = SecCopyErrorMessageString(status, nil) as String? ?? "OSStatus \(status)"
            return String(localized: "The Keychain refused the change: \(message)")
        }
    }

    let service: String

    init(service: String = "org.coldtap.logger-secrets") {
        self.service = service
    }

    private func baseQuery() -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
    }

    /// Labels of all stored keys, sorted.
    func labels() throws -> [String] {
        var query = baseQuery()
        query[kSecReturnAttributes as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess else { throw Failure(status: status) }
        let items = result as? [[String: Any]] ?? []
        return items.compactMap { $0[kSecAttrAccount as String] as? String }.sorted()
    }

    /// The key stored under `label`, or `nil`.
    func secret(for label: String) throws -> Data? {
        var query = baseQuery()
        query[kSecAttrAccount as String] = label
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else { throw Failure(status: status) }
        return result as? Data
    }

    /// Stores or replaces the key under `label`.
    func store(_ secret: Data, for label: String) throws {
        var query = baseQuery()
        query[kSecAttrAccount as String] = label
        let update: [String: Any] = [kSecValueData as String: secret]
        let status = SecItemUpdate(query as CFDictionary, update as CFDictionary)
        if status == errSecItemNotFound {
            query[kSecValueData as String] = secret
            query[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            let added = SecItemAdd(query as CFDictionary, nil)
            guard added == errSecSuccess else { throw Failure(status: added) }
        } else if status != errSecSuccess {
            throw Failure(status: status)
        }
    }

    /// Removes the key under `label` (nothing happens when there is none).
    func remove(_ label: String) throws {
        var query = baseQuery()
        query[kSecAttrAccount as String] = label
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Failure(status: status) }
    }

    /// Every stored key by label, as the text that was typed (loggers take their key as
    /// text, e.g. cuplTag's HMAC secret). Keys that are not UTF-8 are left out.
    func allSecrets() throws -> [String: String] {
        var secrets: [String: String] = [:]
        for label in try labels() {
            if let data = try secret(for: label), let text = String(data: data, encoding: .utf8) { secrets[label] = text }
        }
        return secrets
    }
}

/// The Settings list of secret keys reads and removes them here (`SecretKeyList`, AppViewModels).
extension KeychainStore: SecretKeyStore {}
