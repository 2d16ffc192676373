import Archive
import ColdChain
import Foundation
import TempChart

extension LotReportContent {
    /// The lot report's content for a journey read from the archive: each leg's logger curve
    /// and the chain of its reads that cover the leg (read time, its source, raw SHA-256 and
    /// chain hash), the record's chain head and the newest checkpoint kept, if any.
    public static func fromArchive(
        _ journey: LotJourney, archive: Archive, timeZone: TimeZone, language: ReportLanguage, generated: Date = Date()
    ) throws -> LotReportContent {
        var legs: [LotReportLeg] = []
        for (index, leg) in journey.status.legs.enumerated() {
            let history = journey.histories[index]
            guard let history, let logger = leg.logger else {
                legs.append(LotReportLeg(logger: leg.logger, from: leg.from, to: leg.to))
                continue
            }
            let covering = history.reads(covering: leg.from, leg.to)
            let hashes = try archive.readChainHashes(loggerID: logger, readIDs: covering.map(\.id))
            legs.append(
                LotReportLeg(
                    logger: logger, from: leg.from, to: leg.to, log: journey.logs[index],
                    reads: covering.map {
                        LotReportRead(id: $0.id, readTime: $0.readTime, readTimeSource: $0.readTimeSource, sha256: $0.sha256, chainHash: hashes[$0.id] ?? "")
                    }))
        }
        let lot = journey.lot
        let product = lot.product ?? Product(name: lot.productName)
        return LotReportContent(
            lot: lot.id, product: product, quantity: lot.quantity.map { String($0) }, note: lot.note.isEmpty ? nil : lot.note, status: journey.status,
            legs: legs, chainHead: journey.chainHead, checkpoint: try archive.newestCheckpoint(), generated: generated, timeZone: timeZone,
            language: language)
    }
}
