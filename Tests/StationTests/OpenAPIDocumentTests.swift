import ArchiveTestSupport
import ColdTapBase
import Foundation
import Station
import StationTestSupport
import Testing

/// The contract of README "Station API": `Sources/Station/openapi.json`, served by the station.
/// Schemathesis checks the station against it in `make test` (scripts/test-openapi.sh).
@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Station/openapi.json")

    @Test("GET /api/v1/openapi.json answers the repository's file byte for byte, without a token", arguments: Engine.allCases)
    func servedBytesAreTheFile(engine: Engine) async throws {
        let expected = try Data(contentsOf: Self.file)
        try await withStation(engine) { station in
            let url = station.base.appendingPathComponent("api/v1/openapi.json")
            let served = try await request(url)
            #expect(served.status == 200)
            #expect(served.header("Content-Type") == "application/json; charset=utf-8")
            #expect(served.body == expected, "the served document differs from Sources/Station/openapi.json (rebuild coldtap)")
            // A token of any kind changes nothing; another method is refused as on every route.
            let token = try #require(station.tokens["south-read"])
            let withToken = try await request(url, token: token)
            #expect(withToken.body == expected)
            let posted = try await request(url, method: "POST", body: Data("{}".utf8))
            #expect(posted.status == 405)
            #expect(posted.header("Allow") == "GET")
        }
    }

    /// The header names the station and its clients share (ColdTapBase's `UploadHeader`) are
    /// the ones the contract documents for an upload.
    @Test("the upload headers of the code are the contract's")
    func uploadHeadersAreTheContracts() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.file)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: Any])
        let upload = try #require((paths["/api/v1/reads"] as? [String: Any])?["post"] as? [String: Any])
        let headers = (upload["parameters"] as? [[String: Any]] ?? []).filter { $0["in"] as? String == "header" }.compactMap { $0["name"] as? String }
        #expect(Set(headers) == [UploadHeader.readTime, UploadHeader.readTimeSource, UploadHeader.loggerID, UploadHeader.source, UploadHeader.loggerTimeZone])
    }

    @Test("every path of the document is a route of the station: without a token, 401 (or 200, 400 for an empty body, where none is needed), never 404")
    func everyDocumentedPathIsRouted() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.file)) as? [String: Any])
        #expect((document["openapi"] as? String)?.hasPrefix("3.1.") == true)
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        #expect(paths.count >= 12)
        let archive = try TestArchive(.sqlite)
        defer { archive.remove() }
        let station = Station(configuration: .init(archive: archive.location), logLine: { _ in })
        defer { station.stop() }
        for (template, operations) in paths.sorted(by: { $0.key < $1.key }) {
            let path = template.replacingOccurrences(of: "{id}", with: "cupltag:NOSUCH")
            for method in operations.keys.map({ $0.uppercased() }) where ["GET", "POST"].contains(method) {
                let security = (operations[method.lowercased()] as? [String: Any])?["security"] as? [Any]
                let status = station.handle(HTTPRequest(method: method, path: path)).status
                // A route that needs no token but a body (a device's sign-in) refuses an empty one.
                let open = method == "POST" ? 400 : 200
                #expect(status == (security?.isEmpty == true ? open : 401), "\(method) \(path) answered \(status)")
            }
        }
    }
}
