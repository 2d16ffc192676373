import Foundation
import StationClient
import StationTestSupport
import Testing

/// The app's station address: https and a host; plain http (which App Transport Security
/// blocks) and user:password@ are refused with their own reason (Apps/iOS/README.md).
@Suite struct StationAddressTests {
    @Test(arguments: [
        ("https://station.example.org", "https://station.example.org"),
        ("  https://192.168.1.20:8443/ \n", "https://192.168.1.20:8443/"),
        ("HTTPS://Station.local", "HTTPS://Station.local"),
    ])
    func httpsAddressesAreTaken(text: String, url: String) throws {
        #expect(try StationAddress.parse(text).get().absoluteString == url)
    }

    @Test(arguments: [
        ("http://192.168.1.20:8080", StationAddress.Problem.plainHTTP),
        ("http://station.local", .plainHTTP),
        ("https://user:pw@station.example.org", .credentialsInAddress),
        ("station.example.org", .notAnAddress),
        ("ftp://station.example.org", .notAnAddress),
        ("https://", .notAnAddress),
        ("", .notAnAddress),
    ])
    func othersSayWhy(text: String, problem: StationAddress.Problem) {
        guard case .failure(let found) = StationAddress.parse(text) else {
            Issue.record("\(text) was taken")
            return
        }
        #expect(found == problem, "\(text)")
    }
}
