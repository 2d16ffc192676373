import ColdChain
import ColdTapBase
import Digest
import Foundation
import LoggerFormats
import TransparencyLog

/// Decodes a kept read again with the decoders of this ColdTap (given by the command layer,
/// which knows every input form).
public typealias ReadDecoder = @Sendable (StoredRead) async throws -> TemperatureLog

extension Archive {
    /// Every kept read, oldest first.
    func storedReads() throws -> [(StoredRead, ReadRow)] {
        var reads: [(StoredRead, ReadRow)] = []
        // The raw bytes follow the row's columns.
        try engine.query("SELECT \(ReadRow.columns), raw FROM reads ORDER BY read_id", []) { row in
            let kept = ReadRow(row: row)
            reads.append(
                (
                    StoredRead(
                        id: kept.readID, loggerID: kept.loggerID, raw: row.blob(ReadRow.Column.allCases.count), inputKind: kept.inputKind,
                        readTime: Date(milliseconds: kept.readTimeMilliseconds), readTimeSource: kept.readTimeSource,
                        origin: kept.origin, decoder: kept.decoder, decodeOptions: kept.decodeOptions), kept
                ))
        }
        return reads
    }

    // MARK: Verify

    /// Recomputes the hash chain over reads and acknowledgements, the SHA-256 of every
    /// kept raw read and the digest of the samples each read added, and decodes every read
    /// again to check that the kept samples are what its bytes say.
    /// - Returns: the report; `problems` is empty when all holds, else names each bad row.
    ///
    /// The record (docs/archive-record.md): every row must be its leaf, every leaf its row,
    /// the kept checkpoints must still be the roots of their sizes, and `check.since`, an
    /// older checkpoint, must be a prefix of the record now.
    public func verify(decoder: ReadDecoder, record check: RecordCheck = RecordCheck()) async throws -> VerifyReport {
        // The station's rows join the record when its tables are brought up to date.
        if try engine.tableExists("sites") { _ = try StationStore(archive: self) }
        try engine.beginRead()
        defer { try? engine.commit() }
        var problems: [String] = []
        let reads = try storedReads()
        var acknowledgements: [AcknowledgementRow] = []
        var ackHashes: [Int64: String] = [:]
        try engine.query(
            "SELECT \(AcknowledgementRow.Column.selectList) FROM acknowledgements ORDER BY chain_seq", []
        ) { row in
            let ack = AcknowledgementRow(row: row)
            acknowledgements.append(ack)
            ackHashes[ack.chainSeq] = row.text(AcknowledgementRow.Column.hash)
        }
        let head = try chainHead()
        let newestGeneration = try currentGeneration()

        // The chain, in order: each row's hash covers its content and the hash before it.
        enum Entry { case read(ReadRow), ack(AcknowledgementRow, String) }
        var entries: [(Int64, Entry)] = reads.map { ($0.1.chainSeq, .read($0.1)) }
        entries += acknowledgements.map { ($0.chainSeq, .ack($0, ackHashes[$0.chainSeq] ?? "")) }
        entries.sort { $0.0 < $1.0 }
        var previous = HashChain.genesis
        var expectedSeq: Int64 = 1
        for (seq, entry) in entries {
            let name: String
            let storedHash: String
            let recomputed: String
            let claimedPrevious: String
            switch entry {
            case .read(let row):
                name = "read #\(row.readID) of \(row.loggerID) (chain row \(seq))"
                storedHash = row.hash
                recomputed = row.computedHash
                claimedPrevious = row.previousHash
            case .ack(let row, let hash):
                name = "acknowledgement #\(row.ackID) of \(row.loggerID) (chain row \(seq))"
                storedHash = hash
                recomputed = row.computedHash
                claimedPrevious = row.previousHash
            }
            if seq != expectedSeq {
                problems.append(
                    seq > expectedSeq
                        ? "chain row\(seq - expectedSeq > 1 ? "s" : "") \(expectedSeq)\(seq - expectedSeq > 1 ? "–\(seq - 1)" : "") before \(name) \(seq - expectedSeq > 1 ? "are" : "is") missing: a read or acknowledgement was removed"
                        : "\(name) repeats a chain position")
            }
            if claimedPrevious != previous {
                problems.append("\(name) does not follow the row before it in the hash chain (a row before it was removed, added or changed)")
            }
            if recomputed != storedHash {
                problems.append("\(name) was changed after it was kept: its content no longer gives its hash")
            }
            previous = storedHash
            expectedSeq = seq + 1
        }
        if head.length != expectedSeq - 1 || head.hash != previous {
            problems.append(
                "the chain head (row \(head.length)) is not the newest row kept (row \(expectedSeq - 1)): a newest read or acknowledgement was removed, or the head was changed"
            )
        }

        // Raw bytes, samples, and the decoders' view of them. Each read's checks run under a
        // savepoint: when the engine reports damaged data (PostgreSQL then aborts the transaction),
        // rolling back to it lets the reads after it be checked too.
        var savepointOpen = false
        func recoverFromDamage() throws { try engine.execute("ROLLBACK TO SAVEPOINT verify_read") }
        for (stored, row) in reads {
            if savepointOpen { try engine.execute("RELEASE SAVEPOINT verify_read") }
            try engine.execute("SAVEPOINT verify_read")
            savepointOpen = true
            let name = "read #\(row.readID) of \(row.loggerID)"
            if SHA256Digest.hex(stored.raw) != row.rawSHA256 {
                problems.append("\(name): its raw bytes were changed (their SHA-256 is not the one kept)")
            }
            let generation = row.generation
            let added: String
            do {
                added = try samplesDigest(loggerID: row.loggerID, readID: row.readID, generation: generation)
            } catch let error as ArchiveError where error.kind == .corrupt {
                problems.append("\(name): \(error.message)")
                try recoverFromDamage()
                continue
            }
            if added != row.samplesSHA256 {
                problems.append("\(name): the samples it added were changed, added or removed (their digest is not the one in its chained row)")
            }
            enum GenerationDigest: Int, ArchiveColumns {
                case generation, samplesSHA256
                var sqlName: String { self == .generation ? "generation" : "samples_sha256" }
            }
            var generationDigests: [(Int64, String)] = []
            try engine.query(
                "SELECT \(GenerationDigest.selectList) FROM read_generations WHERE logger_id = $1 AND read_id = $2 ORDER BY generation",
                [.text(row.loggerID), .int(row.readID)]
            ) { generationDigests.append(($0.int(GenerationDigest.generation), $0.text(GenerationDigest.samplesSHA256))) }
            for (later, digest) in generationDigests where later != generation {
                do {
                    if try samplesDigest(loggerID: row.loggerID, readID: row.readID, generation: later) != digest {
                        problems.append("\(name): its samples in generation \(later) were changed")
                    }
                } catch let error as ArchiveError where error.kind == .corrupt {
                    problems.append("\(name): \(error.message)")
                    try recoverFromDamage()
                }
            }
            let log: TemperatureLog
            do {
                log = try await decoder(stored)
            } catch {
                problems.append("\(name) no longer decodes: \(error)")
                continue
            }
            do {
                if let mismatch = try compare(log, with: row) {
                    problems.append("\(name): decoding its raw bytes again \(mismatch)")
                }
            } catch let error as ArchiveError where error.kind == .corrupt {
                // Another read's damaged block in this one's span: named once, under that read.
                try recoverFromDamage()
                continue
            }
            // Its days as kept in its own generation and in the one reports read.
            for generation in Set([row.generation, Int64(newestGeneration)]).sorted() {
                do {
                    if let mismatch = try dailySummaryMismatch(
                        log, loggerID: row.loggerID, readID: row.readID, generation: generation, ownGeneration: generation == row.generation)
                    {
                        problems.append(
                            "\(name): decoding its raw bytes again \(mismatch)" + (generation == row.generation ? "" : " (generation \(generation))"))
                    }
                } catch let error as ArchiveError where error.kind == .corrupt {
                    problems.append("\(name): \(error.message)")
                }
            }
            problems += try assessmentProblems(of: row, log: log, name: name)
        }
        problems += try orphanDailySummaryProblems()
        problems += try siteProfileProblems()
        if try engine.tableExists("users") {
            let station = try StationStore(archive: self)
            problems += try station.accountProblems() + station.signatureProblems()
        }
        problems += try productProblems()
        problems += try overviewFactsProblems()
        let record = try recordProblems()
        problems += record.problems
        let checkpoints = try checkpointProblems(leafHashes: record.leafHashes, check: check)
        problems += checkpoints.problems
        problems += try subtreeProblems(leafHashes: record.leafHashes)
        return VerifyReport(
            reads: reads.count, acknowledgements: acknowledgements.count, chainHead: head.hash, problems: problems,
            recordLeaves: record.leafHashes.count, recordRoot: MerkleHash.root(ofLeafHashes: record.leafHashes).hexString(uppercase: false),
            recordNotes: checkpoints.notes)
    }

    /// A kept assessment is derived, not chained: it is judged again from the read decoded
    /// again and the profile and time zone kept with it, as it was made when the read was
    /// kept (without acknowledgements), and its verdict and excursion count must agree. An
    /// edited verdict (OK ↔ ALARM) shows here, and with it every `lastVerdict` shown from it.
    func assessmentProblems(of row: ReadRow, log: TemperatureLog, name: String) throws -> [String] {
        enum Column: Int, ArchiveColumns {
            case id, profile, zone, verdict, excursions

            var sqlName: String {
                switch self {
                case .id: return "assessment_id"
                case .profile: return "profile_json"
                case .zone: return "time_zone"
                case .verdict: return "verdict"
                case .excursions: return "excursions"
                }
            }
        }
        var kept: [(id: Int64, profile: String, zone: String, verdict: String, excursions: Int64)] = []
        try engine.query(
            "SELECT \(Column.selectList) FROM assessments WHERE logger_id = $1 AND read_id = $2 ORDER BY assessment_id",
            [.text(row.loggerID), .int(row.readID)]
        ) { kept.append(($0.int(Column.id), $0.text(Column.profile), $0.text(Column.zone), $0.text(Column.verdict), $0.int(Column.excursions))) }
        return kept.compactMap { assessment in
            guard let profile = try? Profile.fromJSON(Data(assessment.profile.utf8)) else {
                return "\(name): the profile kept with its assessment #\(assessment.id) no longer reads as a profile"
            }
            let again = Assessor.assess(log, profile: profile, timeZone: TimeZone(identifier: assessment.zone) ?? .gmt)
            guard again.verdict.rawValue != assessment.verdict || Int64(again.excursions.count) != assessment.excursions else { return nil }
            return
                "\(name): its assessment #\(assessment.id) says \(assessment.verdict) with \(assessment.excursions) excursion(s), but judging the read again with the profile kept gives \(again.verdict.rawValue) with \(again.excursions.count) — the assessment was edited, or the rules changed"
        }
    }

    /// Each profile registered for a site must still be the text it was added as (its kept
    /// SHA-256) and still read as a profile.
    func siteProfileProblems() throws -> [String] {
        guard try engine.tableExists("site_profiles") else { return [] }
        var problems: [String] = []
        try engine.query("SELECT \(SiteProfile.Column.selectList) FROM site_profiles ORDER BY site_id, name, version", []) { row in
            let profile = SiteProfile(row: row)
            let name = "site profile \(profile.name) v\(profile.version) of site #\(profile.siteID)"
            let json = profile.json
            if SHA256Digest.hex(text: json) != profile.sha256 {
                problems.append("\(name) was changed after it was added: its text no longer gives its SHA-256")
            } else if (try? Profile.fromJSON(Data(json.utf8))) == nil {
                problems.append("\(name) no longer reads as a profile")
            }
        }
        return problems
    }

    /// The digest of the samples and conflicts that `readID` added in `generation`, from the tables.
    func samplesDigest(loggerID: String, readID: Int64, generation: Int64) throws -> String {
        var digest = SamplesDigest()
        digest.addSamples(try samplesAdded(loggerID: loggerID, readID: readID, generation: generation))
        try engine.query(
            "SELECT \(ConflictRow.Column.selectList) FROM conflicts WHERE logger_id = $1 AND generation = $2 AND read_id = $3 ORDER BY time_ms",
            [.text(loggerID), .int(generation), .int(readID)]
        ) { row in
            let other = ConflictRow(row: row).other
            digest.addConflict(timeMilliseconds: other.time, temperature: other.temperature, humidity: other.humidity, flags: other.flags)
        }
        return digest.hex
    }

    /// `nil` when every sample of the decoded log is in the kept record at its (aligned)
    /// time with its value, as a stitched sample or as this read's conflict; else what differs.
    private func compare(_ log: TemperatureLog, with row: ReadRow) throws -> String? {
        guard Int64(log.samples.count) == row.sampleCount else {
            return "gives \(log.samples.count) samples, not the \(row.sampleCount) it gave when kept"
        }
        guard let low = log.samples.map({ $0.time.milliseconds + row.timeOffset }).min(),
            let high = log.samples.map({ $0.time.milliseconds + row.timeOffset }).max()
        else { return nil }
        var kept: [Int64: StoredSample] = [:]
        for sample in try storedSamples(loggerID: row.loggerID, generation: row.generation, from: low, to: high) { kept[sample.time] = sample }
        var conflicts: [Int64: StoredSample] = [:]
        try engine.query(
            "SELECT \(ConflictRow.Column.selectList) FROM conflicts WHERE logger_id = $1 AND generation = $2 AND read_id = $3",
            [.text(row.loggerID), .int(row.generation), .int(row.readID)]
        ) { item in
            let other = ConflictRow(row: item).other
            conflicts[other.time] = other
        }
        func matches(_ kept: StoredSample?, _ sample: TemperatureLog.Sample) -> Bool {
            guard let kept else { return false }
            return Archive.sameValue(kept.temperature, sample.temperature) && Archive.sameValue(kept.humidity, sample.humidity)
                && kept.flags == Archive.flagsText(sample.flags)
        }
        for sample in log.samples {
            let time = sample.time.milliseconds + row.timeOffset
            if matches(kept[time], sample) || matches(conflicts[time], sample) { continue }
            let value = sample.temperature.map { "\($0) °C" } ?? "no temperature"
            if let other = kept[time] {
                return
                    "gives \(value) at \(Date(milliseconds: time).isoUTCWholeSeconds), but the archive keeps \(other.temperature.map { "\($0) °C" } ?? "no temperature") there (read #\(other.readID)) — a sample was edited, or the decoder changed (then re-decode the archive)"
            }
            return "gives \(value) at \(Date(milliseconds: time).isoUTCWholeSeconds), which is not in the archive — a sample was removed"
        }
        return nil
    }

    // MARK: Redecode

    /// Decodes every kept read again into a new generation of samples, stitched in the
    /// order the reads were kept; the older generations stay as they were.
    /// - Returns: the new generation and, per read whose samples changed, what changed.
    public func redecode(decoder: ReadDecoder, now: Date = Date()) async throws -> RedecodeReport {
        // Decode first (outside the write lock), then write the new generation in one transaction.
        let reads = try engine.readTransaction { try storedReads() }
        var decoded: [(StoredRead, ReadRow, TemperatureLog)] = []
        for (stored, row) in reads {
            do {
                decoded.append((stored, row, try await decoder(stored)))
            } catch {
                throw ArchiveError(.verificationFailed, "read #\(row.readID) of \(row.loggerID) no longer decodes (\(error)); nothing was changed.")
            }
        }
        return try engine.writeTransaction { transaction in
            let previous = try currentGeneration()
            let generation = previous + 1
            try engine.execute(
                "INSERT INTO generations (generation, created_ms, coldtap_version, note) VALUES ($1, $2, $3, $4)",
                [
                    .int(Int64(generation)), .int(now.milliseconds), .text(ColdTapVersion.current),
                    .text("re-decoded from \(reads.count) kept read(s)"),
                ])
            try Archive.appendLeaf(
                .generation(
                    Int64(generation), created: now.milliseconds, coldTapVersion: ColdTapVersion.current,
                    note: "re-decoded from \(reads.count) kept read(s)"), in: transaction)
            var changes: [String] = []
            var total = 0
            for (_, row, log) in decoded {
                let before = try addedSamples(loggerID: row.loggerID, readID: row.readID, generation: Int64(previous))
                let stitched = try stitch(log, loggerID: row.loggerID, readID: row.readID, generation: generation, in: transaction)
                try keepDailySummaries(of: log, loggerID: row.loggerID, readID: row.readID, generation: generation, in: transaction)
                let after = try addedSamples(loggerID: row.loggerID, readID: row.readID, generation: Int64(generation))
                total += stitched.newSamples
                let changed =
                    Set(before.keys).symmetricDifference(after.keys).count
                    + before.filter { key, value in after[key].map { $0 != value } ?? false }.count
                if changed > 0 {
                    changes.append(
                        "read #\(row.readID) of \(row.loggerID): \(changed) sample(s) differ from generation \(previous) (\(before.count) → \(after.count) added)"
                    )
                }
            }
            for leaf in try Archive.readGenerationLeaves(engine, generation: Int64(generation)) { try Archive.appendLeaf(leaf, in: transaction) }
            return RedecodeReport(generation: generation, reads: decoded.count, changes: changes, samples: total)
        }
    }

    private func addedSamples(loggerID: String, readID: Int64, generation: Int64) throws -> [Int64: String] {
        var result: [Int64: String] = [:]
        for sample in try samplesAdded(loggerID: loggerID, readID: readID, generation: generation) {
            result[sample.time] = "\(HashChain.text(sample.temperature)) \(HashChain.text(sample.humidity)) \(sample.flags)"
        }
        return result
    }
}
