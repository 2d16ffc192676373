import Foundation

/// The station's contract: the OpenAPI 3.1 document of its API (`openapi.json` beside this
/// file, README "Station API"), served at `GET /api/v1/openapi.json` without a token.
/// SwiftPM compiles the file into the program (`.embedInCode`), so there is no resource
/// bundle to lose when `coldtap` is copied alone, and no file is opened while serving.
enum OpenAPIDocument {
    static let path = "/api/v1/openapi.json"

    /// Made once: the bytes are the file's, unchanged, for as long as the program runs.
    static let response = HTTPResponse(
        status: 200, headers: [("Content-Type", "application/json; charset=utf-8")],
        body: Data(PackageResources.openapi_json))
}
