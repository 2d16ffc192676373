import Archive
import Foundation

/// The logger page's forms (acknowledging, signing a review) posted, and its downloads.
extension Station {
    // MARK: Acknowledging

    /// The acknowledgement form of the logger page, posted: kept by the same function as
    /// the API's acknowledgement route (a signature once the station has users).
    func acknowledgeFromPage(_ context: WebContext, loggerID: String) throws -> HTTPResponse {
        try loggerPageForm(context, AcknowledgementForm.self, loggerID: loggerID, title: context.text.acknowledge, anchor: "excursions") {
            fields, caller in
            guard caller.scope >= .upload else {
                throw HTTPFailure(
                    403, "forbidden",
                    "acknowledging needs the upload scope (an operator's role, or an upload token); this sign-in has \(caller.scope.rawValue).")
            }
            guard let start = fields.excursion.flatMap(Station.parseTime) else {
                throw HTTPFailure.badRequest("\"excursion\" must be the excursion's start as an ISO 8601 time with a zone.")
            }
            let signer = try pool.with({ try $0.hasUsers() }) ? try self.signer(caller, name: fields.user, password: fields.password) : nil
            _ = try recordAcknowledgement(
                loggerID: loggerID, excursionStart: start, by: fields.by, comment: fields.comment, again: fields.again == true, caller: caller, signer: signer
            ) { error in
                // The page's words: its form offers the follow-up, not an "again" field.
                guard case .alreadyAcknowledged(_, _, let earlier) = error else { return Station.failure(error) }
                return HTTPFailure(409, "already acknowledged", context.text.acknowledgedMeanwhile(earlier.by, context.formatter.dateTime(earlier.at)))
            }
        }
    }

    /// The review form of the logger page, posted: a reviewer's signature over the period shown.
    func reviewFromPage(_ context: WebContext, loggerID: String) throws -> HTTPResponse {
        try loggerPageForm(context, ReviewForm.self, loggerID: loggerID, title: context.text.accounts.signReview, anchor: "signatures") { fields, caller in
            guard let from = fields.from.flatMap(Station.parseTime), let to = fields.to.flatMap(Station.parseTime) else {
                throw HTTPFailure.badRequest("a review names its period: \"from\" and \"to\" as ISO 8601 times with a zone.")
            }
            guard let meaning = fields.meaning.flatMap(SignatureMeaning.init(rawValue:)) else {
                throw HTTPFailure.badRequest("\"meaning\" is reviewed, approved or rejected.")
            }
            let signer = try self.signer(caller, name: fields.user, password: fields.password)
            _ = try signReview(loggerID: loggerID, signer: signer, caller: caller, meaning: meaning, comment: fields.comment, from: from, to: to)
        }
    }

    /// A form of the logger page, posted: checked (origin, form token), then `act`; its
    /// refusal is a page saying why, its success a redirect back to the page's `anchor`.
    private func loggerPageForm<Form: PageForm>(
        _ context: WebContext, _ form: Form.Type, loggerID: String, title: String, anchor: String, act: (Form, Caller) throws -> Void
    ) throws -> HTTPResponse {
        // A form that is not this page's (a field it does not have, one twice): the page says why.
        let fields: Form
        do {
            fields = try context.request.formBody(Form.self)
        } catch let failure as HTTPFailure {
            return page(
                context, status: failure.status, title: title,
                body:
                    "<h1>\(HTML.escape(title))</h1><p class=\"error bad\" role=\"alert\">\(HTML.escape(failure.detail))</p><p><a href=\"\(HTML.escape(Station.loggerLink(loggerID)))\">← \(HTML.escape(loggerID))</a></p>"
            )
        }
        let expected = Array(context.formToken.utf8)
        guard sameOrigin(context.request), !expected.isEmpty,
            StationStore.constantTimeEqual(Array((fields.form ?? "").utf8), expected), let caller = context.caller
        else {
            return page(
                context, status: 403, title: title,
                body:
                    "<h1>\(HTML.escape(title))</h1><p class=\"error bad\">This form did not come from this station's page; open the logger page and try again.</p>"
            )
        }
        var back = fields.back ?? ""
        // Only a query of this logger's page goes back into the Location header.
        if !back.hasPrefix("?") || back.count > 300 || back.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value > 0x7E || $0 == "#" }) { back = "" }
        do {
            try act(fields, caller)
        } catch {
            let (status, detail): (Int, String)
            switch error {
            case let failure as HTTPFailure: (status, detail) = (failure.status, failure.detail)
            case let failure as ArchiveError: (status, detail) = (Station.response(for: failure).status, failure.message)
            default: throw error
            }
            return page(
                context, status: status, title: title,
                body:
                    "<h1>\(HTML.escape(title))</h1><p class=\"error bad\" role=\"alert\">\(HTML.escape(detail))</p><p><a href=\"\(HTML.escape(Station.loggerLink(loggerID, query: back)))\">← \(HTML.escape(loggerID))</a></p>"
            )
        }
        return HTTPResponse(status: 303, headers: [("Location", Station.loggerLink(loggerID, query: back) + "#" + anchor), ("Cache-Control", "no-store")])
    }

    // MARK: Downloads

    /// The API's report or samples for the session, named for saving.
    func download(_ context: WebContext, query fields: DownloadQuery, loggerID: String, name: String) -> HTTPResponse {
        var path = "/api/v1/loggers/\(Station.pathSegment(loggerID))/\(name)"
        var headers: [String: String] = [:]
        var query = [("from", fields.from), ("to", fields.to), ("lang", fields.lang), ("profile", fields.profile)].compactMap { name, value in
            value.map { (name, $0) }
        }
        if name.hasPrefix("samples.") {
            path = "/api/v1/loggers/\(Station.pathSegment(loggerID))/samples"
            headers["Accept"] = name == "samples.csv" ? "text/csv" : "application/json"
            query = query.filter { $0.0 == "from" || $0.0 == "to" } + [("limit", "100000")]
        } else {
            query.append(("tz", configuration.timeZone.identifier))
        }
        var answer = handle(HTTPRequest(method: "GET", path: path, query: query, headers: headers), authenticatedAs: context.caller)
        if answer.status == 200 {
            let safe = loggerID.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" ? Character($0) : "_" }
            answer.headers.append(("Content-Disposition", "attachment; filename=\"\(String(safe).prefix(80))-\(name)\""))
        }
        return answer
    }
}
