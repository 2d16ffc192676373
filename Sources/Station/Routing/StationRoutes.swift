import Archive
import ArchiveKit
import ColdTapKit
import Foundation
import JSONOutput

/// The station's route table, API and pages (README "Station API", "Station web pages"):
/// each row a method, a path with typed parameters, who may use it, and its handler. The
/// router answers 404 for a path no row has and 405 (with `Allow`) for a row's path asked
/// with another method, before anything else is read.
extension Station {
    static func routes(_ station: Station) -> StationRouter {
        var router = StationRouter()
        router.register(StationRecordRoutes(station: station))
        router.register(UploadRoutes(station: station))
        router.register(LoggerRoutes(station: station))
        router.register(LotRoutes(station: station))
        router.register(AccountRoutes(station: station))
        router.register(SessionPages(station: station))
        router.register(RecordPages(station: station))
        router.register(LotPages(station: station))
        return router
    }
}

/// Signing in and out, and a new user's set-up link.
struct SessionPages: RouteCollection {
    unowned let station: Station

    func register(in router: inout StationRouter) {
        router.get("/login", .open) { context in
            let page = try station.webContext(context, query: LanguageQuery.self)
            return station.page(page.web, status: 200, title: page.web.text.signInTitle, body: try station.loginForm(page.web, error: nil))
        }
        router.post("/login", .open) { context in try station.signIn(station.webContext(context, query: LanguageQuery.self).web) }
        router.post("/logout", .open) { context in try station.signOut(station.webContext(context, query: LanguageQuery.self).web) }
        router.get("/setup/{token}", .open) { context in
            try station.setupPage(station.webContext(context, query: LanguageQuery.self).web, token: context.parameters.require("token"))
        }
        router.post("/setup/{token}", .open) { context in
            try station.setupPage(station.webContext(context, query: LanguageQuery.self).web, token: context.parameters.require("token"))
        }
    }
}

/// The overview, the reads, a logger's page with its forms and downloads, the audit trail.
struct RecordPages: RouteCollection {
    unowned let station: Station

    func register(in router: inout StationRouter) {
        router.get("/", .page) { context in
            let page = try station.webContext(context, query: OverviewFields.self)
            return try station.overviewPage(page.web, query: page.query)
        }
        router.get("/reads", .page) { context in try station.readsPage(station.webContext(context, query: LanguageQuery.self).web) }
        router.get("/audit", .auditReaders) { context in
            let page = try station.webContext(context, query: AuditQuery.self)
            return try station.auditPage(page.web, query: page.query, format: nil)
        }
        for format in ["audit.csv", "audit.json"] {
            router.get("/" + format, .auditReaders, label: "/audit.{format}") { context in
                let page = try station.webContext(context, query: AuditQuery.self)
                return try station.auditPage(page.web, query: page.query, format: format)
            }
        }
        router.get("/loggers/{id}", .page) { context in
            try ownedPage(context, query: LoggerPageQuery.self) { page, loggerID in try station.loggerPage(page.web, query: page.query, loggerID: loggerID) }
        }
        router.post("/loggers/{id}/acknowledgements", .page) { context in
            try ownedPage(context, query: LanguageQuery.self) { page, loggerID in try station.acknowledgeFromPage(page.web, loggerID: loggerID) }
        }
        router.post("/loggers/{id}/reviews", .page) { context in
            try ownedPage(context, query: LanguageQuery.self) { page, loggerID in try station.reviewFromPage(page.web, loggerID: loggerID) }
        }
        for name in Station.webDownloads.sorted() {
            router.get("/loggers/{id}/" + name, .page, label: "/loggers/{id}/download") { context in
                try ownedPage(context, query: DownloadQuery.self) { page, loggerID in
                    station.download(page.web, query: page.query, loggerID: loggerID, name: name)
                }
            }
        }
    }

    /// A page of the path's logger when it is the session's site's; else the page that says
    /// there is no such page, the same for another site's logger and an unknown one.
    private func ownedPage<Query: RequestFields>(
        _ context: RequestContext, query: Query.Type, _ answer: ((web: Station.WebContext, query: Query), String) throws -> HTTPResponse
    ) throws -> HTTPResponse {
        let loggerID = try context.parameters.require("id", as: String.self)
        let page = try station.webContext(context, query: Query.self)
        guard try station.pool.with({ try $0.siteID(ofLogger: loggerID) }) == context.requireCaller().site.id else {
            return station.notFoundPage(page.web)
        }
        return try answer(page, loggerID)
    }
}

/// The lots list and a lot's page.
struct LotPages: RouteCollection {
    unowned let station: Station

    func register(in router: inout StationRouter) {
        router.get("/lots", .page) { context in try station.lotsPage(station.webContext(context, query: LanguageQuery.self).web) }
        router.get("/lots/{lot}", .page) { context in
            let page = try station.webContext(context, query: LanguageQuery.self)
            return try station.lotPage(page.web, lotID: context.parameters.require("lot"))
        }
    }
}
