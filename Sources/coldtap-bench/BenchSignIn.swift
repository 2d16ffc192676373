import ColdTapCommands
import Foundation
import Station

/// A station's pages are for signed-in people: the benches that time a page add a viewer of
/// the site with `coldtap user add … --password-stdin`, as an operator does, sign them in
/// through the station's own form and send the session cookie it answers with, so what is
/// measured is a page as a person gets it (API calls keep their bearer tokens).
enum BenchSignIn {
    /// The `coldtap_session=…` cookie of a new viewer `user` of `site`.
    static func viewerCookie(station: Station, archive location: String, site: String, user: String) async throws -> String {
        let password = "bench-password-\(UUID().uuidString.prefix(8))"
        let console = Console.capturing(stdin: Data((password + "\n").utf8))
        let added = await ColdTap.main(
            ["user", "add", user, "--site", site, "--role", "viewer", "--full-name", "Bench Viewer", "--password-stdin", "--archive", location],
            console: console)
        guard added == 0 else {
            throw BenchError.reference("cannot add the bench's viewer \(user) to site \(site): \(console.errorOutput)")
        }
        let host = "bench.invalid"
        let form = "user=\(user)&password=\(password)"
        let answer = station.handle(
            HTTPRequest(
                method: "POST", path: "/login",
                headers: ["Host": host, "Origin": "http://\(host)", "Content-Type": "application/x-www-form-urlencoded"],
                body: Data(form.utf8)))
        guard answer.status == 303,
            let cookie = answer.headers.first(where: { $0.0.lowercased() == "set-cookie" && $0.1.hasPrefix("coldtap_session=") })?.1
        else {
            throw BenchError.reference(
                "the sign-in of the bench's viewer \(user) answered \(answer.status): \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
        }
        return String(cookie.split(separator: ";")[0])
    }
}
