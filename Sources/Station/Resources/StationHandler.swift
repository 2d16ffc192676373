import Archive
import ColdTapBase
import Foundation
import PDFSigning

/// A group of handlers over the station's one shared context: its archive's connections,
/// settings, counters, webhooks and the record's signing head. Each resource's handlers are a
/// small type of their own (`UploadRoutes`, `LoggerRoutes`, `LotRoutes`, …) that reads these
/// through `station`, so that no handler holds state of its own.
protocol StationHandler {
    var station: Station { get }
}

extension StationHandler {
    typealias Caller = Station.Caller

    var configuration: Station.Configuration { station.configuration }
    var pool: StorePool { station.pool }
    var metrics: StationMetrics { station.metrics }
    var webhooks: WebhookSender { station.webhooks }
    var batcher: WriteBatcher { station.batcher }
    var recordHead: LockedValue<RecordHead?> { station.recordHead }
    var reportSigner: LockedValue<PDFSigningIdentity?> { station.reportSigner }
    var signRecord: @Sendable (StationStore) -> Void { station.signRecord }
}
