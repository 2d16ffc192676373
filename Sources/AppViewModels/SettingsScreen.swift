import ColdChain
import Foundation

/// The choices Settings keeps, resolved: a stored name that no longer names anything falls
/// back to the default.
public enum SettingsChoices {
    /// The profile named `name`, or the vaccine refrigerator profile.
    public static func profile(named name: String?) -> Profile {
        name.flatMap { Profile.builtIn(named: $0) } ?? .vaccineFridge
    }

    /// The time zone `identifier` names, or nil (follow the phone's) when it names none.
    public static func timeZoneIdentifier(_ identifier: String?) -> String? {
        identifier.flatMap { TimeZone(identifier: $0)?.identifier }
    }

    /// The chosen time zone, or the phone's.
    public static func timeZone(_ identifier: String?, current: TimeZone = .current) -> TimeZone {
        identifier.flatMap(TimeZone.init(identifier:)) ?? current
    }
}

/// The time zone choice: the phone's first, then every zone, searchable.
public enum TimeZoneChoices {
    /// "This iPhone's (Europe/Berlin)".
    public static func phoneZone(_ current: TimeZone = .current) -> String {
        let identifier = current.identifier
        return String(localized: "This iPhone's (\(identifier))")
    }

    /// What the Settings row shows: the chosen zone, or the phone's.
    public static func settingsValue(_ selection: String?, current: TimeZone = .current) -> String {
        selection ?? phoneZone(current)
    }

    /// A zone as the list shows it ("America/New York").
    public static func title(_ identifier: String) -> String {
        identifier.replacingOccurrences(of: "_", with: " ")
    }

    /// The zones matching `query` (typed with spaces or underscores, any case), sorted; all
    /// of them for an empty query.
    public static func matching(_ query: String, in identifiers: [String] = TimeZone.knownTimeZoneIdentifiers) -> [String] {
        let all = identifiers.sorted()
        guard !query.isEmpty else { return all }
        let needle = query.replacingOccurrences(of: " ", with: "_")
        return all.filter { $0.localizedCaseInsensitiveContains(needle) }
    }
}

/// The form that adds a logger's secret key: a label (serial number or tag UID) and the key
/// exactly as typed.
public struct SecretKeyForm: Sendable, Equatable {
    public var label: String
    public var secret: String

    public init(label: String = "", secret: String = "") {
        self.label = label
        self.secret = secret
    }

    /// The label the key is filed under: as typed, without spaces around it.
    public var trimmedLabel: String { label.trimmingCharacters(in: .whitespaces) }

    /// *Save* needs a label and a key.
    public var canSave: Bool { !trimmedLabel.isEmpty && !secret.isEmpty }

    /// The key's bytes as kept in the Keychain (the text typed, UTF-8).
    public var secretData: Data { Data(secret.utf8) }
}

/// Where the secret keys are kept (the app's Keychain; a fake in the tests).
public protocol SecretKeyStore {
    func labels() throws -> [String]
    func remove(_ label: String) throws
}

/// The Settings list of secret keys: their labels as kept, and why the store could not be
/// read or a key not removed (shown under the list until the next reload works).
public struct SecretKeyList: Sendable, Equatable {
    public private(set) var labels: [String] = []
    public private(set) var problem: String?

    public init() {}

    /// Reads the labels again; on failure keeps the last list and says why.
    public mutating func reload(from store: some SecretKeyStore) {
        do {
            labels = try store.labels()
            problem = nil
        } catch {
            problem = error.localizedDescription
        }
    }

    /// Removes the keys at `offsets` of `labels`, then reloads; a failure stops there and is said.
    public mutating func delete(at offsets: IndexSet, from store: some SecretKeyStore) {
        let chosen = offsets.filter { labels.indices.contains($0) }.map { labels[$0] }
        var failure: String?
        do {
            for label in chosen { try store.remove(label) }
        } catch {
            failure = error.localizedDescription
        }
        reload(from: store)
        if let failure { problem = failure }
    }
}
