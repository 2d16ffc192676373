import Archive
import ColdChain
import ColdTapBase
import Foundation
import NDEF
import PDFSigning
import Station

#if canImport(Glibc)
    import Glibc
#endif

/// `coldtap serve`: the station (README, "Station").
public enum ServeCommand: Command {
    static let listenOption = OptionSpec.value(
        "--listen", placeholder: "HOST:PORT", help: "where to listen (another address than 127.0.0.1 only when you mean it)",
        default: "127.0.0.1:8080")
    static let tlsCertOption = OptionSpec.value("--tls-cert", placeholder: "F", help: "the certificate (PEM) for HTTPS, with --tls-key", path: true)
    static let tlsKeyOption = OptionSpec.value("--tls-key", placeholder: "F", help: "the private key (PEM) for HTTPS, with --tls-cert", path: true)
    static let maxBodyOption = OptionSpec.value(
        "--max-body", placeholder: "BYTES", help: "the largest request body taken; larger ones answer 413", default: "1048576"
    ).typed(.count(1...(1 << 30), unit: "bytes"))
    static let threadsOption = OptionSpec.value("--threads", placeholder: "N", help: "requests the HTTP server handles at once (1–256)", default: "8").typed(
        .count(1...256))
    static let requestDeadlineOption = OptionSpec.value(
        "--request-deadline", placeholder: "S",
        help: "seconds a request may take to arrive whole, however busy the client keeps the connection (1–3600)",
        default: "30"
    ).typed(.count(1...3600, unit: "seconds"))
    static let connectionsPerAddressOption = OptionSpec.value(
        "--connections-per-address", placeholder: "N", help: "connections one client address may hold at once (1–512)", default: "64"
    ).typed(
        .count(1...512))
    static let sessionIdleOption = OptionSpec.value(
        "--session-idle", placeholder: "DURATION", help: "a browser session ends after this long without a request (15m, 30s, 1h; at most 12h)",
        default: "15m")
    static let reportKeyOption = OptionSpec.value(
        "--report-key", placeholder: "KEY.pem", help: "the private key that signs report PDFs, with --report-cert (default: a self-signed pair)", path: true)
    static let reportCertOption = OptionSpec.value(
        "--report-cert", placeholder: "CERT.pem", help: "the certificate of --report-key (its issuers may follow it)", path: true)
    static let allowHTTPWebhooksOption = OptionSpec.flag("--allow-http-webhooks", help: "also deliver webhooks to plain http URLs (tests)")
    static let allowPrivateWebhooksOption = OptionSpec.flag(
        "--allow-private-webhooks", help: "also deliver webhooks to loopback, private and link-local addresses (tests, receivers on the LAN)")

    public static let name = "serve"
    public static let forms = [
        CommandForm(
            summary: "serve the station: the upload API, reports and web pages over the archive (HTTP, or HTTPS with a certificate)",
            options: [
                ArchiveAccess.archiveOption,
                listenOption,
                tlsCertOption,
                tlsKeyOption,
                maxBodyOption.spec,
                threadsOption.spec,
                requestDeadlineOption.spec,
                connectionsPerAddressOption.spec,
                sessionIdleOption,
                reportKeyOption,
                reportCertOption,
                allowHTTPWebhooksOption,
                allowPrivateWebhooksOption,
                ArchiveRecordCommands.signingKeyOption,
            ] + [ReportCommand.profileOption, ReportCommand.tzOption.spec])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        let listen = arguments.value(listenOption) ?? "127.0.0.1:8080"
        let certificatePath = arguments.value(tlsCertOption)
        let keyPath = arguments.value(tlsKeyOption)
        let maxBody = try arguments.value(maxBodyOption)
        let threads = try arguments.value(threadsOption)
        let deadline = try arguments.value(requestDeadlineOption)
        let perAddress = try arguments.value(connectionsPerAddressOption)
        let sessionIdleText = arguments.value(sessionIdleOption)
        let reportKey = arguments.value(reportKeyOption)
        let reportCert = arguments.value(reportCertOption)
        let profile = try ReportCommand.resolveProfile(arguments.value(ReportCommand.profileOption))
        let timeZone = try arguments.value(ReportCommand.tzOption) ?? .current
        let allowHTTPWebhooks = arguments.isSet(allowHTTPWebhooksOption)
        let allowPrivateWebhooks = arguments.isSet(allowPrivateWebhooksOption)
        // The key that signs the record's checkpoints (for PostgreSQL it must be named).
        let signingKey = try ArchiveRecordCommands.keyFile(&arguments, location: location)
        _ = try arguments.positionals(max: 0, what: "nothing")
        try arguments.finish()

        var configuration = Station.Configuration(archive: location)
        configuration.allowHTTPWebhooks = allowHTTPWebhooks
        configuration.allowPrivateWebhookTargets = allowPrivateWebhooks
        configuration.signingKey = signingKey
        (configuration.http.host, configuration.http.port) = try parseListen(listen)
        if let maxBody { configuration.http.maxBody = maxBody }
        if let threads { configuration.http.threads = threads }
        if let deadline { configuration.http.requestDeadline = deadline }
        if let perAddress { configuration.http.connectionsPerAddress = perAddress }
        if let sessionIdleText {
            guard let seconds = OptionValueParser.durationSeconds(sessionIdleText), seconds <= configuration.sessionLimits.absolute else {
                throw CommandError.usage("--session-idle takes a duration such as 15m, 30s or 1h, at most 12h, not '\(sessionIdleText)'.")
            }
            configuration.sessionLimits.idle = seconds
        }
        switch (reportKey, reportCert) {
        case (nil, nil): break
        case let (key?, certificate?): configuration.reportSigning = (key, certificate)
        default: throw CommandError.usage("signing report PDFs with your own identity needs both --report-key KEY.pem and --report-cert CERT.pem.")
        }
        switch (certificatePath, keyPath) {
        case (nil, nil): break
        case let (certificate?, key?):
            configuration.http.tlsCertificate = String(decoding: try InputBytes.readFile(certificate), as: UTF8.self)
            configuration.http.tlsKey = String(decoding: try InputBytes.readFile(key), as: UTF8.self)
        default:
            throw CommandError.usage("HTTPS needs both --tls-cert FILE and --tls-key FILE.")
        }
        // One JSON line per request on standard error.
        configuration.defaultProfile = profile
        configuration.timeZone = timeZone
        let station = Station(configuration: configuration, logLine: { console.error($0) })
        do {
            try station.start()
        } catch let error as ArchiveError {
            throw ArchiveAccess.commandError(error)
        } catch let error as HTTPServer.StartError {
            throw CommandError(.unavailable, error.description)
        } catch let error as PDFSigningError {
            throw CommandError(.dataError, "the identity that signs report PDFs cannot be used: \(error)")
        }
        let scheme = configuration.http.tlsCertificate == nil ? "http" : "https"
        let host = configuration.http.host.contains(":") ? "[\(configuration.http.host)]" : configuration.http.host
        console.error("coldtap serve: listening on \(scheme)://\(host):\(station.port) with the archive \(location) (SIGTERM or Ctrl-C stops).")
        // A certificate iPhones refuse is named at start (README, "A certificate iPhones accept").
        if let certificatePath, let pem = configuration.http.tlsCertificate {
            let report = ServerCertificateCheck.check(pem: pem, host: configuration.http.host)
            for line in ServerCertificateCheck.startLines(report, certificateFile: certificatePath) { console.error("coldtap serve: \(line)") }
        }
        if let signingKey {
            console.error("coldtap serve: the record's checkpoints are signed with the key in \(signingKey).")
        } else {
            console.error(
                "coldtap serve: the record's checkpoints are not signed: name the archive's signing key with --signing-key FILE or COLDTAP_SIGNING_KEY.")
        }
        if let identity = station.reportSigningIdentity {
            let source =
                configuration.reportSigning.map { "the certificate in \($0.certificate)" }
                ?? (Station.defaultReportIdentityFiles(forArchive: location).map { "a self-signed certificate in \($0.certificate)" }
                    ?? "a self-signed certificate made at start (give --report-key and --report-cert to keep one)")
            console.error("coldtap serve: report PDFs are signed with \(source), SHA-256 fingerprint \(identity.certificateFingerprint).")
        }
        let signal = await TerminationSignals.shared.wait()
        console.error("coldtap serve: \(signal): finishing the requests under way, then stopping.")
        station.stop(grace: 10)
        console.error("coldtap serve: stopped.")
    }

    /// `text` as a whole number within `range`, or `nil` when the option was not given.
    /// - Throws: `CommandError` (usage) naming the option, its unit and range.
    /// `HOST:PORT`, `[V6]:PORT` or `:PORT` (all addresses).
    static func parseListen(_ text: String) throws -> (String, UInt16) {
        let host: Substring
        let port: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(after: close)...].drop { $0 == ":" }
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        } else {
            throw CommandError.usage("--listen takes ADDRESS:PORT, e.g. 127.0.0.1:8080, not '\(text)'.")
        }
        guard let number = UInt16(port) else {
            throw CommandError.usage("--listen '\(text)': the port must be a number from 0 to 65535.")
        }
        return (host.isEmpty ? "0.0.0.0" : String(host), number)
    }

    /// Asks a running `serve` in this process to stop as SIGTERM would (tests).
    public static func requestStop() { TerminationSignals.shared.fire("stop requested") }
}

/// `coldtap token create|list|revoke`.
public enum TokenCommand: Command {
    static let siteOption = OptionSpec.value(
        "--site", placeholder: "NAME", help: "with create: the site whose loggers the token sees (not for --scope operator)")
    static let scopeOption = OptionSpec.value(
        "--scope", placeholder: "SCOPE", help: "with create: what the token may do (operator: the station's /metrics, no site's data)",
        choices: { TokenScope.allCases.map(\.rawValue) })
    static let expiresOption = OptionSpec.value(
        "--expires", placeholder: "DURATION", help: "with create: it stops working after this long (90d, 12h, 30m)", default: "never"
    ).typed(
        .duration(upTo: 10 * 366 * 86_400) { name, text in "\(name) takes a duration such as 90d, 12h or 30m (up to 10 years), not '\(text)'." })
    static let deviceOption = OptionSpec.value(
        "--device", placeholder: "TEXT", help: "with create: the device it is for, e.g. \"ward 3 reader\" (1–100 printable characters)")
    static let userOption = OptionSpec.value(
        "--user", placeholder: "NAME", help: "with create: the user it is made for (of the token's site; the scope at most their role's)")
    static let jsonOption = OptionSpec.flag("--json", help: "with list: print the tokens as JSON")

    public static let name = "token"
    public static let forms = [
        CommandForm(
            positionals: "create | list | revoke ID", positionalHelp: [("ID", "the token's number, as 'coldtap token list' shows it")],
            summary: "make a token for a site or the station's operator (printed once; the archive keeps only its SHA-256), list them, or revoke one",
            options: [
                siteOption,
                scopeOption,
                expiresOption.spec,
                deviceOption,
                userOption,
                jsonOption,
                ArchiveAccess.archiveOption,
            ])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        let siteName = arguments.value(siteOption)
        let scopeText = arguments.value(scopeOption)
        let lifetime = try arguments.value(expiresOption)
        let device = arguments.value(deviceOption)
        let userName = arguments.value(userOption)
        let json = arguments.isSet(jsonOption)
        let words = try arguments.positionals(min: 1, max: 2, what: "create, list or revoke")
        try arguments.finish()
        // Checked before the archive is opened (or made).
        let scopes = TokenScope.allCases.map(\.rawValue).joined(separator: ", ")
        if let scopeText, TokenScope(rawValue: scopeText) == nil {
            throw CommandError.usage("--scope must be one of \(scopes), not '\(scopeText)'.")
        }
        if let device, !StationToken.isValidDevice(device) {
            throw CommandError.usage("--device takes 1 to 100 printable characters on one line, with no space at either end, not '\(device)'.")
        }
        if words[0] != "create", device != nil || userName != nil {
            throw CommandError.usage("--device and --user apply to 'token create' only.")
        }
        try await StationAdmin.with(location, create: words[0] == "create", console: console) { store in
            switch (words[0], words.count) {
            case ("create", 1):
                guard let scopeText, let scope = TokenScope(rawValue: scopeText) else {
                    throw CommandError.usage("--scope must be one of \(scopes).")
                }
                var site: StationSite?
                if scope == .operator {
                    guard siteName == nil else { throw CommandError.usage("an operator token belongs to the station, not to a site: leave out --site.") }
                } else {
                    guard let siteName else { throw CommandError.usage("say whose token it is with --site NAME.") }
                    guard let found = try store.site(named: siteName) else {
                        throw CommandError(.failure, "there is no site '\(siteName)'; add it with 'coldtap site add \(siteName)'.")
                    }
                    site = found
                }
                var user: StationUser?
                if let userName {
                    guard let found = try store.user(named: userName) else {
                        throw CommandError(.failure, "there is no user '\(userName)'; 'coldtap user list' lists them.")
                    }
                    guard found.siteID == site?.id else {
                        let theirs = try store.site(id: found.siteID)?.name ?? "#\(found.siteID)"
                        throw CommandError.usage(
                            "user '\(userName)' is a user of site '\(theirs)', not of \(site.map { "'\($0.name)'" } ?? "the station"); a token is made for a user of its own site."
                        )
                    }
                    guard scope <= found.role.scope else {
                        throw CommandError.usage(
                            "user '\(userName)' is a\(found.role == .operator || found.role == .admin ? "n" : "") \(found.role.rawValue): their tokens have the \(found.role.scope.rawValue) scope at most, not \(scope.rawValue)."
                        )
                    }
                    user = found
                }
                let now = Date()
                let made = try store.createToken(
                    site: site, scope: scope, expires: lifetime.map { now.addingTimeInterval($0) }, user: user, device: device, now: now)
                console.print(made.token)
                var whose = site.map { "site '\($0.name)'" } ?? "the station's operator"
                if let device { whose += ", device '\(device)'" }
                if let user { whose += ", made for user '\(user.name)'" }
                let until = made.record.expires.map { ", until \($0.isoUTC)" } ?? ""
                console.error(
                    "Token #\(made.record.id) for \(whose) with the \(scope.rawValue) scope\(until). It is shown this once: the archive keeps only its SHA-256."
                )
            case ("list", 1):
                let tokens = try store.tokens()
                let owners = Dictionary(try store.users().map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
                func owner(_ token: StationToken) -> String? { token.createdByUser.map { owners[$0] ?? "#\($0)" } }
                if json {
                    console.print(
                        JSONValue.object([
                            (
                                "tokens",
                                .array(
                                    tokens.map { token in
                                        .object([
                                            ("id", .int(Int(token.id))), ("site", .optional(token.site?.name)), ("scope", .string(token.scope.rawValue)),
                                            ("created", .string(token.created.isoUTC)), ("expires", .optional(token.expires?.isoUTC)),
                                            ("revoked", .optional(token.revoked?.isoUTC)), ("live", .bool(token.isLive(at: Date()))),
                                            ("device", .optional(token.device)), ("user", .optional(owner(token))),
                                        ])
                                    })
                            )
                        ]).serialized())
                } else {
                    let now = Date()
                    console.print(
                        ReportCommand.table(
                            tokens.map { token in
                                let expires = token.expires.map { $0.isoUTC + ($0 <= now ? " (expired)" : "") } ?? "never"
                                return [
                                    String(token.id), token.site?.name ?? "(station)", token.scope.rawValue, token.created.isoUTC, expires,
                                    token.revoked?.isoUTC ?? "—", token.device ?? "—", owner(token) ?? "—",
                                ]
                            }, header: ["id", "site", "scope", "created", "expires", "revoked", "device", "user"], rightAligned: [0]
                        ).joined(separator: "\n"))
                }
            case ("revoke", 2):
                guard let id = Int64(words[1]) else { throw CommandError.usage("token revoke takes the token's number (coldtap token list).") }
                guard try store.revokeToken(id: id) else {
                    throw CommandError(.failure, "there is no live token #\(id); 'coldtap token list' lists them.")
                }
                console.print("Revoked token #\(id): requests with it answer 401 from now on.")
            default:
                throw CommandError.usage("say 'token create', 'token list' or 'token revoke ID'.")
            }
        }
    }
}

/// `coldtap profile add|list`: profiles a site's reports can name over HTTP.
public enum SiteProfileCommand: Command {
    static let siteOption = OptionSpec.value("--site", placeholder: "NAME", help: "the site whose reports may use it (with list: only that site's)")
    static let nameOption = OptionSpec.value("--name", placeholder: "NAME", help: "with add: the name to ask for it by", default: "the profile's own name")
    static let jsonOption = OptionSpec.flag("--json", help: "with list: print the profiles (their text too) as JSON")

    public static let name = "profile"
    public static let forms = [
        CommandForm(
            positionals: "add FILE | list", positionalHelp: [("FILE", "a profile file (coldtap profiles --schema)")],
            summary: "register a profile for a site, so that its reports can name it (?profile=NAME), or list them",
            options: [
                siteOption,
                nameOption,
                jsonOption,
                ArchiveAccess.archiveOption,
            ])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        let siteName = arguments.value(siteOption)
        let givenName = arguments.value(nameOption)
        let json = arguments.isSet(jsonOption)
        let words = try arguments.positionals(min: 1, max: 2, what: "add FILE or list")
        try arguments.finish()
        switch (words[0], words.count) {
        case ("add", 2):
            guard let siteName else { throw CommandError.usage("say whose reports may use it with --site NAME.") }
            let data = try InputBytes.readFile(words[1])
            let profile: Profile
            do {
                profile = try Profile.fromJSON(data)
            } catch {
                throw CommandError.data("The profile file '\(words[1])' is not valid: \(error)")
            }
            let name = givenName ?? profile.name
            guard SiteProfile.isValidName(name) else {
                throw CommandError.usage(
                    "a profile asked for over HTTP is named with 1 to 64 letters, digits, '.', '_' or '-'; '\(name)' is not: give --name NAME.")
            }
            guard Profile.builtIn(named: name.lowercased()) == nil, name.lowercased() != Profile.loggerLimitsName else {
                throw CommandError.usage("'\(name)' is a built-in profile's name; give this one another with --name NAME.")
            }
            try await StationAdmin.with(location, create: true, console: console) { store in
                guard let site = try store.site(named: siteName) else {
                    throw CommandError(.failure, "there is no site '\(siteName)'; 'coldtap site list' lists them.")
                }
                let kept = try store.addSiteProfile(
                    siteID: site.id, name: name, json: String(decoding: data, as: UTF8.self),
                    addedBy: SiteProfileCommand.operatingSystemUser())
                console.print(
                    "Registered profile '\(kept.name)' (version \(kept.version), SHA-256 \(kept.sha256.prefix(16))…) for site '\(site.name)': its reports take ?profile=\(kept.name)."
                )
            }
        case ("list", 1):
            try await StationAdmin.with(location, create: false, console: console) { store in
                let sites = try store.sites()
                let names = Dictionary(sites.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
                var chosen = sites
                if let siteName {
                    guard let site = sites.first(where: { $0.name == siteName }) else {
                        throw CommandError(.failure, "there is no site '\(siteName)'; 'coldtap site list' lists them.")
                    }
                    chosen = [site]
                }
                let profiles = try chosen.flatMap { try store.siteProfiles(siteID: $0.id) }
                if json {
                    console.print(
                        JSONValue.object([
                            (
                                "profiles",
                                .array(
                                    profiles.map { kept in
                                        .object([
                                            ("site", .string(names[kept.siteID] ?? "#\(kept.siteID)")), ("name", .string(kept.name)),
                                            ("version", .int(kept.version)),
                                            ("added", .string(kept.added.isoUTC)), ("addedBy", .string(kept.addedBy)), ("sha256", .string(kept.sha256)),
                                            ("profile", .string(kept.json)),
                                        ])
                                    })
                            )
                        ]).serialized())
                    return
                }
                let rows = profiles.map { kept in
                    [names[kept.siteID] ?? "#\(kept.siteID)", kept.name, String(kept.version), kept.added.isoUTC, kept.addedBy, String(kept.sha256.prefix(16))]
                }
                console.print(
                    ReportCommand.table(rows, header: ["site", "name", "version", "added", "by", "sha256"], rightAligned: [2]).joined(separator: "\n"))
            }
        default:
            throw CommandError.usage("say 'profile add --site NAME FILE' or 'profile list'.")
        }
    }

    /// The account that runs the command, and the one that invoked sudo when it did: the
    /// provenance kept with a profile.
    static func operatingSystemUser() -> String {
        if let invoker = ProcessInfo.processInfo.environment["SUDO_USER"], !invoker.isEmpty { return "\(NSUserName()) (sudo by \(invoker))" }
        return NSUserName()
    }
}

/// `coldtap logger secret LOGGER-ID`: the decode secret of an HMAC logger, kept on the station.
public enum LoggerCommand: Command {
    static let secretOption = OptionSpec.value("--secret", placeholder: "K", help: "the secret", default: "read from standard input")

    public static let name = "logger"
    public static let forms = [
        CommandForm(
            positionals: "secret LOGGER-ID", positionalHelp: [("LOGGER-ID", "a logger as 'coldtap loggers' lists it")],
            summary: "keep a logger's decode secret (cuplTag HMAC key) on the station, so phones never send it",
            options: [
                secretOption,
                ArchiveAccess.archiveOption,
            ])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        let given = arguments.value(secretOption)
        let words = try arguments.positionals(min: 2, max: 2, what: "secret LOGGER-ID")
        try arguments.finish()
        guard words[0] == "secret" else { throw CommandError.usage("say 'logger secret LOGGER-ID'.") }
        let secret = (given ?? String(decoding: console.readStandardInput(), as: UTF8.self)).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !secret.isEmpty else { throw CommandError.usage("give the secret with --secret K or on standard input.") }
        try await StationAdmin.with(location, create: true, console: console) { store in
            try store.setSecret(secret, loggerID: words[1])
        }
        console.print("Kept the decode secret of \(words[1]); uploads of it are checked with it from now on.")
    }
}

/// `coldtap webhook add|list`.
public enum WebhookCommand: Command {
    static let siteOption = OptionSpec.value("--site", placeholder: "NAME", help: "with add: the site whose events go there")
    static let secretOption = OptionSpec.value("--secret", placeholder: "S", help: "with add: the signing secret", default: "a new random one, printed once")
    static let allowHTTPWebhooksOption = OptionSpec.flag(
        "--allow-http-webhooks", help: "with add: take a plain http URL (the station must run with the same flag)")
    static let allowPrivateWebhooksOption = OptionSpec.flag(
        "--allow-private-webhooks", help: "with add: take a loopback, private or link-local address (the station must run with the same flag)")
    static let jsonOption = OptionSpec.flag("--json", help: "with list: print the webhooks and their deliveries as JSON")

    public static let name = "webhook"
    public static let forms = [
        CommandForm(
            positionals: "add URL | list", positionalHelp: [("URL", "where the station POSTs its signed events: https, a public address, no user:password@")],
            summary: "send a site's new ALARMs and acknowledgements to a URL, signed with HMAC-SHA256, or list the webhooks",
            options: [
                siteOption,
                secretOption,
                allowHTTPWebhooksOption,
                allowPrivateWebhooksOption,
                jsonOption,
                ArchiveAccess.archiveOption,
            ])
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        let siteName = arguments.value(siteOption)
        let givenSecret = arguments.value(secretOption)
        let policy = WebhookTargetPolicy(allowHTTP: arguments.isSet(allowHTTPWebhooksOption), allowPrivate: arguments.isSet(allowPrivateWebhooksOption))
        let json = arguments.isSet(jsonOption)
        let words = try arguments.positionals(min: 1, max: 2, what: "add URL or list")
        try arguments.finish()
        try await StationAdmin.with(location, create: words[0] == "add", console: console) { store in
            switch (words[0], words.count) {
            case ("add", 2):
                guard let siteName else { throw CommandError.usage("say whose alarms go there with --site NAME.") }
                // The same checks as every delivery, here on the addresses the name resolves to now.
                do {
                    try WebhookTarget.resolveAndCheck(words[1], policy: policy)
                } catch let refusal as WebhookTargetRefusal {
                    let advice: String
                    switch refusal.allowance {
                    case .plainHTTP?: advice = " (--allow-http-webhooks lets it in, for tests)"
                    case .privateAddresses?: advice = " (--allow-private-webhooks lets it in, for tests and receivers on the LAN)"
                    case nil: advice = ""
                    }
                    throw CommandError.usage("webhook not added: \(refusal.message)\(advice)")
                }
                guard let site = try store.site(named: siteName) else {
                    throw CommandError(.failure, "there is no site '\(siteName)'; add it with 'coldtap site add \(siteName)'.")
                }
                var random = SystemRandomNumberGenerator()
                let secret = givenSecret ?? (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }.hexString(uppercase: false)
                let hook = try store.addWebhook(siteID: site.id, url: words[1], secret: secret)
                console.print("Added webhook #\(hook.id) for site '\(site.name)': \(hook.url)")
                if givenSecret == nil { console.print("Signing secret (shown once): \(secret)") }
            case ("list", 1):
                let names = Dictionary(try store.sites().map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
                let hooks = try store.webhooks().map { ($0, try store.webhookQueueCounts(webhookID: $0.id)) }
                if json {
                    console.print(
                        JSONValue.object([
                            (
                                "webhooks",
                                .array(
                                    hooks.map { hook, counts in
                                        .object([
                                            ("id", .int(Int(hook.id))), ("site", .string(names[hook.siteID] ?? "?")), ("url", .string(hook.url)),
                                            ("pending", .int(counts.pending)), ("delivered", .int(counts.delivered)), ("givenUp", .int(counts.givenUp)),
                                            ("failedAttempts", .int(counts.failedAttempts)),
                                        ])
                                    })
                            )
                        ]).serialized())
                } else {
                    console.print(
                        ReportCommand.table(
                            hooks.map { hook, counts in
                                [
                                    String(hook.id), names[hook.siteID] ?? "?", hook.url,
                                    "\(counts.pending) pending, \(counts.delivered) delivered, \(counts.givenUp) given up, \(counts.failedAttempts) failed attempt(s)",
                                ]
                            }, header: ["id", "site", "url", "deliveries"], rightAligned: [0]
                        ).joined(separator: "\n"))
                }
            default:
                throw CommandError.usage("say 'webhook add --site NAME URL' or 'webhook list'.")
            }
        }
    }
}

/// Opening the station's tables for the admin commands.
enum StationAdmin {
    /// Opens the archive's station tables for `body`. Only a command that adds something
    /// (`create`) makes a missing archive, and says so; one that lists or changes what must
    /// already be there names the missing path (66) and makes nothing.
    static func with(_ location: String, create: Bool, console: Console, _ body: (StationStore) throws -> Void) async throws {
        let archive = try ArchiveAccess.open(location, create: create, console: console)
        defer { archive.close() }
        try await ArchiveAccess.mapping {
            let store = try StationStore(archive: archive)
            try body(store)
        }
    }
}
