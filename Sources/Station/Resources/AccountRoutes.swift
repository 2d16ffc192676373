import Archive
import ArchiveKit
import ColdChain
import Foundation
import JSONOutput

/// A device's sign-in for its token.
struct AccountRoutes: RouteCollection {
    unowned let station: Station

    func register(in router: inout StationRouter) {
        router.post("/api/v1/device-tokens", .open) { context in
            _ = try context.request.typedQuery(NoFields.self)
            let (response, caller) = try createDeviceToken(context.request.jsonBody(DeviceTokenBody.self))
            context.caller = caller
            return response
        }
    }
}

extension AccountRoutes {
    /// `POST /api/v1/device-tokens` `{"user", "password", "device"}`: a named user signs in
    /// from a device and gets an upload token made for them and that device (shown once).
    /// Wrong passwords count toward the account's lock as on the web.
    /// - Returns: the answer, and the caller the new token is (for the request log).
    func createDeviceToken(_ body: DeviceTokenBody) throws -> (HTTPResponse, Caller?) {
        let (name, password) = (body.user, body.password)
        let device = body.device.trimmingCharacters(in: .whitespaces)
        guard StationToken.isValidDevice(device) else {
            throw HTTPFailure.badRequest("\"device\" names the device: 1 to 100 printable characters (e.g. \"ward 3 phone\").")
        }
        let user = try station.checkPassword(name: name, password: password, purpose: "device")
        guard user.role >= .operator else {
            throw HTTPFailure(403, "forbidden", "\(user.name) is a viewer; a device uploads reads, which needs the operator role or above.")
        }
        let made = try pool.with { store -> (String, StationToken, StationSite) in
            guard let site = try store.site(id: user.siteID) else { throw ArchiveError(.notFound, "the user's site is gone.") }
            let made = try store.createToken(site: site, scope: .upload, user: user, device: device)
            signRecord(store)
            return (made.token, made.record, site)
        }
        let response = HTTPResponse.json(
            201,
            .object([
                ("token", .string(made.0)), ("id", .int(Int(made.1.id))), ("device", .string(device)), ("user", .string(user.name)),
                ("fullName", .string(user.fullName)), ("role", .string(user.role.rawValue)), ("site", .string(made.2.name)),
            ]))
        return (response, Caller(token: made.1))
    }
}
