import ColdChain
import Foundation
import Testing

/// `ColdChainFormat.time` is built from calendar fields; it must read exactly as the
/// `yyyy-MM-dd HH:mm[:ss] xxx` pattern of a POSIX DateFormatter did.
@Suite struct FormatTimeTests {
    private func reference(_ date: Date, _ zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.calendar = Calendar(identifier: .gregorian)
        let hasSeconds = date.timeIntervalSince1970.truncatingRemainder(dividingBy: 60) != 0
        formatter.dateFormat = hasSeconds ? "yyyy-MM-dd HH:mm:ss xxx" : "yyyy-MM-dd HH:mm xxx"
        return formatter.string(from: date)
    }

    @Test(arguments: ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kathmandu", "Australia/Adelaide", "Pacific/Chatham"])
    func readsAsTheDateFormatterPatternDid(zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        for seconds in [0.0, 1_711_846_800, 1_711_846_859, 1_729_990_800, 1_767_225_600, 946_684_799] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(ColdChainFormat.time(date, in: timeZone) == reference(date, timeZone))
        }
        #expect(ColdChainFormat.time(Date(timeIntervalSince1970: 1_767_225_600), in: TimeZone(identifier: "UTC")!) == "2026-01-01 00:00 +00:00")
    }
}
