import ColdChain
import Foundation
import LoggerFormats

/// One read of a leg's logger, as the archive's hash chain keeps it: plain values the
/// caller fills in (TempChart does not know the archive).
public struct LotReportRead: Sendable, Equatable {
    public var id: Int64
    public var readTime: Date
    /// The read time's source, as the archive stores it (a code, or an English phrase of
    /// `DecodeOptions.ReadTimeSource`).
    public var readTimeSource: String
    /// SHA-256 of the read's raw bytes.
    public var sha256: String
    /// The read's row hash in the archive's chain.
    public var chainHash: String

    public init(id: Int64, readTime: Date, readTimeSource: String, sha256: String, chainHash: String) {
        self.id = id
        self.readTime = readTime
        self.readTimeSource = readTimeSource
        self.sha256 = sha256
        self.chainHash = chainHash
    }
}

/// One leg of the lot's journey as the report shows it: its logger, its period, the
/// logger's samples over it (for the curve) and the logger's reads that cover it.
public struct LotReportLeg: Sendable {
    /// `nil` for a leg nobody logged.
    public var logger: String?
    public var from: Date
    public var to: Date
    /// The logger's samples over the leg (samples outside `from..<to` are not drawn).
    public var log: TemperatureLog?
    /// The logger's chain of reads covering the leg, oldest first.
    public var reads: [LotReportRead]

    public init(logger: String?, from: Date, to: Date, log: TemperatureLog? = nil, reads: [LotReportRead] = []) {
        self.logger = logger
        self.from = from
        self.to = to
        self.log = log
        self.reads = reads
    }
}

/// Everything the lot report shows, as plain values the caller fills in: the lot, its
/// product, the status `LotEvaluation.status` gave, each leg (in the status's order) with
/// its logger's curve and reads, and the record it was made from.
public struct LotReportContent: Sendable {
    public var lot: String
    public var productName: String
    public var productSummary: String
    /// Where the product is stored, drawn as a band on the journey (`nil`: not drawn).
    public var storage: Band?
    /// The consumed fraction from which a lot needs review.
    public var reviewThreshold: Double
    /// "200 vials", as the caller words it.
    public var quantity: String?
    public var note: String?
    public var status: LotStatus
    /// One per `status.legs`, in the same order.
    public var legs: [LotReportLeg]
    /// The record's chain head the report was made from.
    public var chainHead: String
    /// A signed checkpoint of the record, as its text.
    public var checkpoint: String?
    public var generated: Date
    public var timeZone: TimeZone
    public var language: ReportLanguage

    public init(
        lot: String, productName: String, productSummary: String = "", storage: Band? = nil,
        reviewThreshold: Double = Product.defaultReviewThreshold, quantity: String? = nil, note: String? = nil, status: LotStatus,
        legs: [LotReportLeg], chainHead: String, checkpoint: String? = nil, generated: Date = Date(), timeZone: TimeZone,
        language: ReportLanguage
    ) {
        self.lot = lot
        self.productName = productName
        self.productSummary = productSummary
        self.storage = storage
        self.reviewThreshold = reviewThreshold
        self.quantity = quantity
        self.note = note
        self.status = status
        self.legs = legs
        self.chainHead = chainHead
        self.checkpoint = checkpoint
        self.generated = generated
        self.timeZone = timeZone
        self.language = language
    }

    /// The content for `product`: its name, summary, storage band and review threshold.
    public init(
        lot: String, product: Product, quantity: String? = nil, note: String? = nil, status: LotStatus, legs: [LotReportLeg],
        chainHead: String, checkpoint: String? = nil, generated: Date = Date(), timeZone: TimeZone, language: ReportLanguage
    ) {
        self.init(
            lot: lot, productName: product.name, productSummary: product.summary, storage: product.storage,
            reviewThreshold: product.reviewThreshold, quantity: quantity, note: note, status: status, legs: legs, chainHead: chainHead,
            checkpoint: checkpoint, generated: generated, timeZone: timeZone, language: language)
    }
}
