import Foundation

/// The station's schema as a migration registry of its own (`station_migrations`): sites,
/// tokens, the loggers each site has, decode secrets, profiles, webhooks and their queue,
/// the overview's derived rows, users, sessions, signatures and uploads. Applied when the
/// station first opens an archive, after the record's own (`Migrations.record`), so that an
/// archive used only by the command line never carries them.
enum StationMigrations {
    static let registry = MigrationRegistry(
        table: "station_migrations",
        [
            .init(
                version: 1, name: "sites, tokens, site loggers, logger secrets, webhooks, deliveries",
                sql: """
                    CREATE TABLE station_migrations (
                        version INTEGER PRIMARY KEY,
                        name TEXT NOT NULL,
                        applied_ms BIGINT NOT NULL
                    );
                    CREATE TABLE sites (
                        site_id BIGINT PRIMARY KEY,
                        name TEXT NOT NULL,
                        created_ms BIGINT NOT NULL
                    );
                    CREATE UNIQUE INDEX sites_by_name ON sites (name);
                    CREATE TABLE tokens (
                        token_id BIGINT PRIMARY KEY,
                        site_id BIGINT NOT NULL,
                        scope TEXT NOT NULL,
                        token_sha256 TEXT NOT NULL,
                        created_ms BIGINT NOT NULL,
                        revoked_ms BIGINT
                    );
                    CREATE TABLE site_loggers (
                        logger_id TEXT PRIMARY KEY,
                        site_id BIGINT NOT NULL,
                        joined_ms BIGINT NOT NULL
                    );
                    CREATE INDEX site_loggers_by_site ON site_loggers (site_id, logger_id);
                    CREATE TABLE logger_secrets (
                        logger_id TEXT PRIMARY KEY,
                        secret TEXT NOT NULL,
                        set_ms BIGINT NOT NULL
                    );
                    CREATE TABLE webhooks (
                        webhook_id BIGINT PRIMARY KEY,
                        site_id BIGINT NOT NULL,
                        url TEXT NOT NULL,
                        secret TEXT NOT NULL,
                        created_ms BIGINT NOT NULL
                    );
                    CREATE TABLE webhook_deliveries (
                        delivery_id BIGINT PRIMARY KEY,
                        webhook_id BIGINT NOT NULL,
                        event_id TEXT NOT NULL,
                        event TEXT NOT NULL,
                        attempt INTEGER NOT NULL,
                        attempted_ms BIGINT NOT NULL,
                        http_status INTEGER,
                        error TEXT NOT NULL,
                        delivered INTEGER NOT NULL
                    );
                    """),
            // Deliveries were threads that slept between retries and were lost on restart: now
            // each event for each webhook is a row that workers lease, attempt and reschedule.
            .init(
                version: 2, name: "webhook delivery queue with leases",
                sql: """
                    CREATE TABLE webhook_queue (
                        queue_id BIGINT PRIMARY KEY,
                        webhook_id BIGINT NOT NULL,
                        event_id TEXT NOT NULL,
                        event TEXT NOT NULL,
                        payload TEXT NOT NULL,
                        created_ms BIGINT NOT NULL,
                        deadline_ms BIGINT NOT NULL,
                        next_attempt_ms BIGINT NOT NULL,
                        attempts INTEGER NOT NULL,
                        state TEXT NOT NULL,
                        claimed_by TEXT,
                        claimed_until_ms BIGINT,
                        finished_ms BIGINT,
                        last_error TEXT NOT NULL
                    );
                    CREATE INDEX webhook_queue_due ON webhook_queue (state, next_attempt_ms);
                    CREATE INDEX webhook_queue_by_hook ON webhook_queue (webhook_id, state, queue_id);
                    """),
            .init(
                version: 3, name: "token expiry and station-wide operator tokens (site 0), site profiles",
                sql: """
                    ALTER TABLE tokens ADD COLUMN expires_ms BIGINT;
                    CREATE TABLE site_profiles (
                        site_id BIGINT NOT NULL,
                        name TEXT NOT NULL,
                        version INTEGER NOT NULL,
                        profile_json TEXT NOT NULL,
                        profile_sha256 TEXT NOT NULL,
                        added_ms BIGINT NOT NULL,
                        added_by TEXT NOT NULL,
                        PRIMARY KEY (site_id, name, version)
                    );
                    """),
            // The station's rows join the record (docs/archive-record.md): those kept before get
            // their leaves here, after the archive's own.
            .init(version: 4, name: "the station's rows in the record", sql: "", transform: StationStore.appendLeavesOfKeptRows),
            // The overview orders, counts and filters a site's loggers in SQL by these derived
            // rows (Sources/Archive/OverviewFacts.swift), instead of judging every logger per page.
            .init(
                version: 5, name: "the overview's facts per logger (derived)",
                sql: """
                    CREATE TABLE logger_overview (
                        logger_id TEXT PRIMARY KEY,
                        generation INTEGER NOT NULL,
                        read_id BIGINT NOT NULL,
                        ack_id BIGINT NOT NULL,
                        last_read_ms BIGINT,
                        last_sample_ms BIGINT,
                        verdict TEXT,
                        excursions BIGINT NOT NULL,
                        open_excursions BIGINT NOT NULL,
                        open_since_ms BIGINT,
                        review TEXT NOT NULL
                    );
                    """),
            // A view found its site's stale rows by two index seeks per logger: it grew with the
            // site. The record is the archive's list of changes, so a site keeps the record's size
            // up to which all its rows are current, and a view reads only the leaves after it.
            .init(
                version: 6, name: "the record's size up to which a site's overview rows are current",
                sql: """
                    CREATE TABLE overview_watermarks (
                        site_id BIGINT PRIMARY KEY,
                        record_size BIGINT NOT NULL
                    );
                    """),
            // Named people instead of shared tokens (docs/accounts.md): users and their account
            // events, browser sessions, electronic signatures, who uploaded each read.
            .init(
                version: 7, name: "users, account events, sessions, signatures, uploads by token and user",
                sql: """
                    CREATE TABLE users (
                        user_id BIGINT PRIMARY KEY,
                        site_id BIGINT NOT NULL,
                        name TEXT NOT NULL,
                        full_name TEXT NOT NULL,
                        created_ms BIGINT NOT NULL,
                        created_by TEXT NOT NULL,
                        role TEXT NOT NULL,
                        disabled_ms BIGINT,
                        password_hash TEXT,
                        setup_sha256 TEXT,
                        setup_expires_ms BIGINT
                    );
                    CREATE UNIQUE INDEX users_by_name ON users (name);
                    CREATE TABLE account_events (
                        event_id BIGINT PRIMARY KEY,
                        site_id BIGINT NOT NULL,
                        user_id BIGINT,
                        at_ms BIGINT NOT NULL,
                        kind TEXT NOT NULL,
                        actor TEXT NOT NULL,
                        detail TEXT NOT NULL
                    );
                    CREATE INDEX account_events_by_user ON account_events (user_id, event_id);
                    CREATE INDEX account_events_by_site ON account_events (site_id, event_id);
                    CREATE TABLE sessions (
                        session_sha256 TEXT PRIMARY KEY,
                        user_id BIGINT,
                        token_id BIGINT,
                        created_ms BIGINT NOT NULL,
                        last_seen_ms BIGINT NOT NULL,
                        ended_ms BIGINT,
                        end_reason TEXT,
                        signatures INTEGER NOT NULL
                    );
                    CREATE INDEX sessions_by_user ON sessions (user_id, ended_ms);
                    CREATE TABLE signatures (
                        signature_id BIGINT PRIMARY KEY,
                        site_id BIGINT NOT NULL,
                        logger_id TEXT NOT NULL,
                        user_id BIGINT NOT NULL,
                        user_name TEXT NOT NULL,
                        printed_name TEXT NOT NULL,
                        role TEXT NOT NULL,
                        signed_ms BIGINT NOT NULL,
                        time_zone TEXT NOT NULL,
                        meaning TEXT NOT NULL,
                        comment TEXT,
                        subject TEXT NOT NULL,
                        from_ms BIGINT NOT NULL,
                        to_ms BIGINT NOT NULL,
                        ack_id BIGINT,
                        statement TEXT NOT NULL,
                        statement_sha256 TEXT NOT NULL
                    );
                    CREATE INDEX signatures_by_logger ON signatures (logger_id, signature_id);
                    CREATE INDEX signatures_by_site ON signatures (site_id, signature_id);
                    CREATE TABLE read_uploads (
                        upload_id BIGINT PRIMARY KEY,
                        logger_id TEXT NOT NULL,
                        read_id BIGINT NOT NULL,
                        site_id BIGINT NOT NULL,
                        token_id BIGINT NOT NULL,
                        user_id BIGINT,
                        device TEXT,
                        uploaded_ms BIGINT NOT NULL,
                        new_read INTEGER NOT NULL
                    );
                    CREATE INDEX read_uploads_by_site ON read_uploads (site_id, upload_id);
                    ALTER TABLE tokens ADD COLUMN created_by_user BIGINT;
                    ALTER TABLE tokens ADD COLUMN device TEXT;
                    """),
            // The URIs a site names itself and its loggers by in EPCIS exports (docs/epcis.md).
            .init(
                version: 8, name: "the URIs a site names itself and its loggers by",
                sql: """
                    CREATE TABLE site_identifiers (
                        site_id BIGINT NOT NULL,
                        seq BIGINT NOT NULL,
                        subject TEXT NOT NULL,
                        uri TEXT NOT NULL,
                        set_ms BIGINT NOT NULL,
                        set_by TEXT NOT NULL,
                        PRIMARY KEY (site_id, seq)
                    );
                    """),
            // The zone of a site's loggers' zoneless times (docs/berlinger.md §7): every setting
            // kept, the newest used, each a leaf of the record.
            .init(
                version: 9, name: "the zone a site sets for its loggers' wall-clock times",
                sql: """
                    CREATE TABLE site_logger_time_zones (
                        site_id BIGINT NOT NULL,
                        setting INTEGER NOT NULL,
                        zone TEXT NOT NULL,
                        set_ms BIGINT NOT NULL,
                        set_by TEXT NOT NULL,
                        PRIMARY KEY (site_id, setting)
                    );
                    """),
        ])

    /// Brings the station's tables to the newest version, or refuses those of a newer station.
    /// - Throws: `ArchiveError(.newerVersion)` without changing anything; engine errors.
    static func apply(to engine: any ArchiveEngine, now: Date) throws {
        let latest = registry.latestVersion
        if try registry.appliedVersion(engine) ?? 0 == latest { return }
        try engine.writeTransaction { transaction in
            try engine.lockForMigration()
            // Another station may have migrated while this one waited for the lock.
            let version = try registry.appliedVersion(engine) ?? 0
            guard version <= latest else {
                throw ArchiveError(
                    .newerVersion,
                    "the station tables in \(engine.location) were written by a newer ColdTap (station schema \(version); this one knows up to \(latest)); they were left unchanged."
                )
            }
            try registry.apply(after: version, upTo: latest, now: now, in: transaction)
        }
    }
}
