import ColdChain
import Combine
import Foundation

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
        let storedProfile = defaults.string(forKey: Keys.profile)
        profileName = storedProfile.flatMap { Profile.builtIn(named: $0)?.name } ?? Profile.vaccineFridge.name
        timeZoneIdentifier = defaults.string(forKey: Keys.timeZone).flatMap { TimeZone(identifier: $0)?.identifier }
        readingMode = defaults.string(forKey: Keys.readingMode).flatMap(ReadingMode.init(rawValue:)) ?? .tagSession
        readLoggersWithoutWriting = defaults.bool(forKey: Keys.readWithoutWriting)
    }

    /// The chosen profile (the vaccine refrigerator profile if the stored name is unknown).
    var profile: Profile {
        Profile.builtIn(named: profileName) ?? .vaccineFridge
    }

    /// The chosen time zone, or the phone's.
    var timeZone: TimeZone {
        timeZoneIdentifier.flatMap(TimeZone.init(identifier:)) ?? .current
    }
}
