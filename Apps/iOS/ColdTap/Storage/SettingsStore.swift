import AppViewModels
import ColdChain
import Foundation

#if canImport(Combine)
    import Combine
#else
    import CombineStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

/// The person's choices, kept in UserDefaults: the alarm profile reads are judged
/// against, the time zone times are shown in, and how tags are read. Secret keys live in
/// the Keychain (`KeychainStore`), never here.
@MainActor
final class SettingsStore: ObservableObject {
    enum ReadingMode: String, CaseIterable, Identifiable {
        /// Tag session: raw Type 2 / Type 5 commands, fewest round trips, progress on the sheet.
        case tagSession
        /// Plain NDEF session: for tags the tag session cannot drive.
        case ndefOnly

        var id: String { rawValue }
    }

    private let defaults: UserDefaults

    @Published var profileName: String {
        didSet { defaults.set(profileName, forKey: Keys.profile) }
    }

    /// `nil` follows the phone's time zone.
    @Published var timeZoneIdentifier: String? {
        didSet { defaults.set(timeZoneIdentifier, forKey: Keys.timeZone) }
    }

    @Published var readingMode: ReadingMode {
        didSet { defaults.set(readingMode.rawValue, forKey: Keys.readingMode) }
    }

    /// Read NHS31xx loggers without writing to them (automatic mode): slower, but the
    /// logger is left exactly as it was.
    @Published var readLoggersWithoutWriting: Bool {
        didSet { defaults.set(readLoggersWithoutWriting, forKey: Keys.readWithoutWriting) }
    }

    private enum Keys {
        static let profile = "profile"
        static let timeZone = "timeZone"
        static let readingMode = "readingMode"
        static let readWithoutWriting = "readLoggersWithoutWriting"
    }

    init(defaults: UserDefaults = .standard) {
        self.defaults = defaults
        profileName = SettingsChoices.profile(named: defaults.string(forKey: Keys.profile)).name
        timeZoneIdentifier = SettingsChoices.timeZoneIdentifier(defaults.string(forKey: Keys.timeZone))
        readingMode = defaults.string(forKey: Keys.readingMode).flatMap(ReadingMode.init(rawValue:)) ?? .tagSession
        readLoggersWithoutWriting = defaults.bool(forKey: Keys.readWithoutWriting)
    }

    /// The chosen profile (the vaccine refrigerator profile if the stored name is unknown).
    var profile: Profile {
        SettingsChoices.profile(named: profileName)
    }

    /// The chosen time zone, or the phone's.
    var timeZone: TimeZone {
        SettingsChoices.timeZone(timeZoneIdentifier)
    }
}
