import Archive
import Foundation

/// `coldtap user add|list|disable|reset|role`: the station's named users (docs/accounts.md).
public enum UserCommand: Command {
    static let siteOption = OptionSpec.value("--site", placeholder: "NAME", help: "the site the user belongs to", required: true)
    static let listSiteOption = OptionSpec.value("--site", placeholder: "NAME", help: "only that site's users", default: "every site's")
    static let roleOption = OptionSpec.value(
        "--role", placeholder: "ROLE", help: "what the user may do: viewer < operator < reviewer < admin, each with the ones before it",
        choices: { UserRole.allCases.map(\.rawValue) }, required: true)
    static let fullNameOption = OptionSpec.value(
        "--full-name", placeholder: "TEXT", help: "the name their signatures print, e.g. \"Dana Reviewer\"", required: true)
    static let passwordStdinOption = OptionSpec.flag(
        "--password-stdin", help: "read the password from the first line of standard input instead of printing a one-time set-up link")
    static let jsonOption = OptionSpec.flag("--json", help: "print the users as JSON")

    public static let name = "user"
    public static let abstract = "the station's named users: add them, list them, disable them, reset their password, change their role"
    public static let forms = [
        CommandForm(
            verb: "add", positionals: "NAME",
            positionalHelp: [("NAME", "the name they sign in with: 1 to 64 letters, digits, '.', '_', '-' or '@', unique on the station")],
            summary: "add a named user of a site; prints the path of their one-time set-up link (valid 72 h) unless --password-stdin",
            options: [siteOption, roleOption, fullNameOption, passwordStdinOption, ArchiveAccess.archiveOption]),
        CommandForm(
            verb: "list", summary: "list the users: site, role, created, disabled, whether a password is set, locked until",
            options: [listSiteOption, jsonOption, ArchiveAccess.archiveOption]),
        CommandForm(
            verb: "disable", positionals: "NAME", positionalHelp: [("NAME", "a user as 'coldtap user list' lists them")],
            summary: "disable a user for good: their sessions end and their device tokens are revoked; the name stays theirs",
            options: [ArchiveAccess.archiveOption]),
        CommandForm(
            verb: "reset", positionals: "NAME", positionalHelp: [("NAME", "a user as 'coldtap user list' lists them")],
            summary: "a user's new set-up link (or a new password with --password-stdin); ends their sessions, revokes their device tokens",
            options: [passwordStdinOption, ArchiveAccess.archiveOption]),
        CommandForm(
            verb: "role", positionals: "NAME", positionalHelp: [("NAME", "a user as 'coldtap user list' lists them")],
            summary: "give a user another role", options: [roleOption, ArchiveAccess.archiveOption]),
    ]

    public static func run(_ arguments: Arguments, console: Console) async throws {
        var arguments = arguments
        let location = try ArchiveAccess.location(&arguments)
        switch arguments.verb {
        case "add":
            let siteName = arguments.value(siteOption)
            let role = try self.role(arguments.value(roleOption))
            let fullName = arguments.value(fullNameOption)
            let fromStdin = arguments.isSet(passwordStdinOption)
            let name = try arguments.positionals(min: 1, max: 1, what: "NAME")[0]
            try arguments.finish()
            guard let siteName else { throw CommandError.usage("say whose user it is with --site NAME.") }
            guard let fullName else { throw CommandError.usage("give the name their signatures print with --full-name \"Dana Reviewer\".") }
            let password = try fromStdin ? self.password(console) : nil
            try await StationAdmin.with(location, create: true, console: console) { store in
                guard let site = try store.site(named: siteName) else {
                    throw CommandError(.failure, "there is no site '\(siteName)'; add it with 'coldtap site add \(siteName)'.")
                }
                let now = Date()
                let added = try store.addUser(name: name, fullName: fullName, site: site, role: role, by: actor, password: password, now: now)
                console.error("Added user '\(added.user.name)' (#\(added.user.id), \(added.user.fullName)) of site '\(site.name)' as \(role.rawValue).")
                if let setup = added.setupToken { printSetupLink(setup, for: added.user, now: now, console: console) }
            }
        case "list":
            let siteName = arguments.value(listSiteOption)
            let json = arguments.isSet(jsonOption)
            _ = try arguments.positionals(max: 0, what: "nothing")
            try arguments.finish()
            try await StationAdmin.with(location, create: false, console: console) { store in
                let sites = try store.sites()
                let names = Dictionary(sites.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
                var users = try store.users()
                if let siteName {
                    guard let site = sites.first(where: { $0.name == siteName }) else {
                        throw CommandError(.failure, "there is no site '\(siteName)'; 'coldtap site list' lists them.")
                    }
                    users = users.filter { $0.siteID == site.id }
                }
                let now = Date()
                let listed = try users.map { ($0, try store.lockedUntil($0, now: now)) }
                if json {
                    let entries = listed.map { userJSON($0.0, site: names[$0.0.siteID], lockedUntil: $0.1) }
                    console.print(JSONValue.object([("users", .array(entries))]).serialized())
                    return
                }
                let rows = listed.map { user, locked in
                    [
                        user.name, user.fullName, names[user.siteID] ?? "#\(user.siteID)", user.role.rawValue, user.created.isoUTC,
                        user.disabled?.isoUTC ?? "—", user.hasPassword ? "yes" : "no (set-up link)", locked?.isoUTC ?? "—",
                    ]
                }
                console.print(
                    ReportCommand.table(
                        rows, header: ["name", "full name", "site", "role", "created", "disabled", "password", "locked until"], rightAligned: []
                    ).joined(separator: "\n"))
            }
        case "disable":
            let name = try arguments.positionals(min: 1, max: 1, what: "NAME")[0]
            try arguments.finish()
            try await StationAdmin.with(location, create: false, console: console) { store in
                let user = try self.user(name, in: store)
                guard user.disabled == nil else { throw CommandError(.failure, "user '\(name)' was disabled already, at \(user.disabled?.isoUTC ?? "").") }
                let tokens = try liveTokens(of: user, in: store)
                try store.disableUser(user, by: actor)
                console.print("Disabled user '\(name)': their sessions ended and \(tokens) device token(s) made for them were revoked; the name stays theirs.")
            }
        case "reset":
            let fromStdin = arguments.isSet(passwordStdinOption)
            let name = try arguments.positionals(min: 1, max: 1, what: "NAME")[0]
            try arguments.finish()
            let password = try fromStdin ? self.password(console) : nil
            try await StationAdmin.with(location, create: false, console: console) { store in
                let user = try self.user(name, in: store)
                guard user.disabled == nil else { throw CommandError(.failure, "user '\(name)' is disabled; a disabled user stays disabled.") }
                let tokens = try liveTokens(of: user, in: store)
                let now = Date()
                let setup = try store.resetPassword(of: user, to: password, by: actor, now: now)
                console.error(
                    "\(password == nil ? "Cleared the password of" : "Set a new password for") user '\(name)': their sessions ended and \(tokens) device token(s) made for them were revoked."
                )
                if let setup { printSetupLink(setup, for: user, now: now, console: console) }
            }
        case "role":
            let role = try self.role(arguments.value(roleOption))
            let name = try arguments.positionals(min: 1, max: 1, what: "NAME")[0]
            try arguments.finish()
            try await StationAdmin.with(location, create: false, console: console) { store in
                let user = try self.user(name, in: store)
                guard user.role != role else {
                    console.print("User '\(name)' is a\(role == .operator || role == .admin ? "n" : "") \(role.rawValue) already.")
                    return
                }
                try store.setRole(role, of: user, by: actor)
                console.print("User '\(name)' is now a\(role == .operator || role == .admin ? "n" : "") \(role.rawValue) (was \(user.role.rawValue)).")
            }
        default:
            throw CommandError.usage("say 'user add', 'user list', 'user disable', 'user reset' or 'user role'.")
        }
    }

    /// Who makes a change from the command line: `os:` and the operating-system account.
    static var actor: String { "os:" + SiteProfileCommand.operatingSystemUser() }

    /// `--role R` checked against the roles (before the archive is opened).
    static func role(_ text: String?) throws -> UserRole {
        let roles = UserRole.allCases.map(\.rawValue).joined(separator: ", ")
        guard let text else { throw CommandError.usage("give the user's role with --role ROLE (\(roles)).") }
        guard let role = UserRole(rawValue: text) else { throw CommandError.usage("--role must be one of \(roles), not '\(text)'.") }
        return role
    }

    /// The password on the first line of standard input (`--password-stdin`).
    static func password(_ console: Console) throws -> String {
        guard let line = console.readLine(), !line.isEmpty else {
            throw CommandError.usage("--password-stdin reads the password from the first line of standard input, and it was empty.")
        }
        return line
    }

    static func user(_ name: String, in store: StationStore) throws -> StationUser {
        guard let user = try store.user(named: name) else { throw CommandError(.failure, "there is no user '\(name)'; 'coldtap user list' lists them.") }
        return user
    }

    static func liveTokens(of user: StationUser, in store: StationStore) throws -> Int {
        try store.tokens().filter { $0.createdByUser == user.id && $0.revoked == nil }.count
    }

    /// The set-up link's path on standard output (for scripts), what to do with it on standard error.
    static func printSetupLink(_ token: String, for user: StationUser, now: Date, console: Console) {
        console.print("/setup/\(token)")
        let until = now.addingTimeInterval(StationStore.setupLinkLifetime)
        console.error(
            "That is the path of \(user.name)'s one-time set-up link, valid 72 h (until \(until.isoUTC)): they open it on the station, e.g. https://<station>/setup/\(token.prefix(8))…, and choose a password. It is shown this once: the archive keeps only its SHA-256."
        )
    }

    static func userJSON(_ user: StationUser, site: String?, lockedUntil: Date?) -> JSONValue {
        .object([
            ("id", .int(Int(user.id))), ("name", .string(user.name)), ("fullName", .string(user.fullName)), ("site", .optional(site)),
            ("role", .string(user.role.rawValue)), ("created", .string(user.created.isoUTC)), ("createdBy", .string(user.createdBy)),
            ("disabled", .optional(user.disabled?.isoUTC)), ("hasPassword", .bool(user.hasPassword)), ("lockedUntil", .optional(lockedUntil?.isoUTC)),
        ])
    }
}
