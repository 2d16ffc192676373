import Archive
import Foundation

/// The end of `coldtap demo`: the demo archive made ready for the station's web pages — a
/// site `demo` that the archived demo logger belongs to, and an upload token of that site
/// (upload, so that the demo's excursion can be acknowledged from the logger page) — and the
/// one command that serves it, with the address and the token to sign in with.
enum DemoStation {
    static let siteName = "demo"
    static let listen = "127.0.0.1:8080"

    static func prepare(directory: String, invocation: String) throws -> [String] {
        let path = (directory as NSString).appendingPathComponent(DemoArchive.fileName)
        let archive = try Archive.open(path)
        defer { archive.close() }
        let store = try StationStore(archive: archive)
        let site = try store.site(named: siteName) ?? store.addSite(siteName)
        for logger in try archive.loggers() where try store.siteID(ofLogger: logger.logger.id) == nil {
            _ = try store.claim(loggerID: logger.logger.id, siteID: site.id)
        }
        let token = try store.createToken(site: site, scope: .upload).token
        return [
            "See it in a browser: serve the demo archive with",
            "  \(invocation) serve --archive \(path) --listen \(listen)",
            "then open http://\(listen)/login and sign in with the demo token",
            "  \(token)",
        ]
    }
}
