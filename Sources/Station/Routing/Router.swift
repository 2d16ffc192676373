import Archive
import Foundation

/// Who may use a route: the router checks it before the handler runs, in the order method
/// (405), who is asking (401, 403; a page without a session goes to the sign-in), scope.
enum RouteAccess: Equatable {
    /// Anyone, without a token: the contract, the health check, signing in.
    case open
    /// The station operator's token (a token of the operator scope).
    case stationOperator
    /// A site's token (or a web session's downloads) allowed to do at least this.
    case site(TokenScope)
    /// A browser session of a site (a signed-in user, or before users a token's session);
    /// what a form does beyond reading is checked by its handler, which answers with a page.
    case page
    /// A session of a reviewer or admin (before users, an admin token's): the audit trail.
    case auditReaders
}

/// A path with typed parameters, written as in the contract: `/api/v1/lots/{lot}/moves`,
/// `/api/v1/loggers/{id}/report.{kind}` (a segment with a fixed start and a parameter after it).
struct PathPattern: Equatable, CustomStringConvertible {
    enum Segment: Equatable {
        case literal(String)
        /// A non-empty segment starting with `prefix`; the parameter is what follows it.
        case parameter(String, prefix: String)
    }

    let segments: [Segment]
    let description: String

    init(_ text: String) {
        description = text
        segments = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { part in
            guard let open = part.firstIndex(of: "{"), part.last == "}" else { return .literal(String(part)) }
            return .parameter(String(part[part.index(after: open)..<part.index(before: part.endIndex)]), prefix: String(part[..<open]))
        }
    }

    /// The parameters of `path` (its segments, percent-decoded), or `nil` when it does not match.
    func match(_ path: [String]) -> [String: String]? {
        guard path.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, path) {
            switch segment {
            case .literal(let text):
                guard part == text else { return nil }
            case .parameter(let name, let prefix):
                guard part.hasPrefix(prefix), part.count > prefix.count else { return nil }
                parameters[name] = String(part.dropFirst(prefix.count))
            }
        }
        return parameters
    }

    /// Literal segments rank before parameters, so that `/lots` is never `/{page}`.
    var specificity: Int { segments.filter { if case .literal = $0 { return true } else { return false } }.count }
}

/// A path parameter read as a type: its initializer refuses a segment that is not one (400,
/// or 404 where the segment names a file the path does not have).
protocol PathParameter {
    init(pathSegment: String) throws
}

extension String: PathParameter {
    init(pathSegment: String) throws { self = pathSegment }
}

/// The parameters a request's path matched, read by name and type (Hummingbird's
/// `context.parameters.require`).
struct PathParameters {
    let values: [String: String]

    func require<T: PathParameter>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let text = values[name] else { throw HTTPFailure(500, "internal error", "the route has no parameter \(name).") }
        return try T(pathSegment: text)
    }
}

/// One request on its way through a route: the request, its path's parameters, and who is
/// asking once the router (or a sign-in handler) knows it.
final class RequestContext {
    let request: HTTPRequest
    let parameters: PathParameters
    var caller: Station.Caller?

    init(request: HTTPRequest, parameters: PathParameters, caller: Station.Caller?) {
        self.request = request
        self.parameters = parameters
        self.caller = caller
    }

    /// The caller the route's access check found; a route of `.open` access has none.
    func requireCaller() throws -> Station.Caller {
        guard let caller else { throw HTTPFailure(401, "unauthorized", "this request needs a token or a session.") }
        return caller
    }
}

/// One row of the route table.
struct Route {
    typealias Handler = (RequestContext) throws -> HTTPResponse

    let method: String
    let pattern: PathPattern
    let access: RouteAccess
    /// The path with its ids left out, for metrics and logs (the pattern unless given).
    let label: String
    let handler: Handler
}

/// Handlers of one resource registering their routes (Vapor's `RouteCollection`).
protocol RouteCollection: StationHandler {
    func register(in router: inout StationRouter)
}

/// The station's one route table: the API and the pages.
struct StationRouter {
    private(set) var routes: [Route] = []

    mutating func add(_ method: String, _ pattern: String, _ access: RouteAccess, label: String? = nil, _ handler: @escaping Route.Handler) {
        routes.append(Route(method: method, pattern: PathPattern(pattern), access: access, label: label ?? pattern, handler: handler))
    }

    mutating func get(_ pattern: String, _ access: RouteAccess, label: String? = nil, _ handler: @escaping Route.Handler) {
        add("GET", pattern, access, label: label, handler)
    }

    mutating func post(_ pattern: String, _ access: RouteAccess, label: String? = nil, _ handler: @escaping Route.Handler) {
        add("POST", pattern, access, label: label, handler)
    }

    mutating func register(_ collection: some RouteCollection) { collection.register(in: &self) }

    /// What a path resolves to.
    enum Resolution {
        /// No route has this path.
        case notFound
        /// The path is a route's, but not with this method: the methods it takes.
        case methodNotAllowed(label: String, allowed: [String])
        case found(Route, PathParameters)
    }

    /// The route of `method` on `path` (HEAD is a GET without its body): the most specific
    /// pattern that matches, then its method.
    func resolve(method: String, path: [String]) -> Resolution {
        var best: (pattern: PathPattern, parameters: [String: String])?
        for route in routes {
            if let found = best, route.pattern.specificity <= found.pattern.specificity { continue }
            if let parameters = route.pattern.match(path) { best = (route.pattern, parameters) }
        }
        guard let best else { return .notFound }
        let candidates = routes.filter { $0.pattern == best.pattern }
        let asked = method == "HEAD" ? "GET" : method
        guard let route = candidates.first(where: { $0.method == asked }) else {
            return .methodNotAllowed(label: candidates[0].label, allowed: candidates.map(\.method))
        }
        return .found(route, PathParameters(values: best.parameters))
    }
}
