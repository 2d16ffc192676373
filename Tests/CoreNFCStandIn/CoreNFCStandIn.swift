// Stand-in declarations of exactly the Core NFC API that Sources/CoreNFCTransport/Apple/
// calls. They mirror Apple's documented Swift signatures and availability, for checking
// only: the CoreNFCGlueTests target compiles the real glue against them on Linux (the glue
// imports this module instead of CoreNFC when CORENFC_GLUE_CHECK is set), so a
// wrong label, type or closure shape in the glue fails `make test` instead of waiting for
// Xcode. Nothing here ships or talks to hardware; the bodies are just enough for tests to
// drive the glue. Differences that Linux forces: the delegate protocols' methods are
// required (Objective-C optional requirements do not exist here), and the tag protocols are
// plain class protocols rather than Objective-C ones. Apple's `NFCMiFareTag` and
// `NFCISO15693Tag` also refine `NFCNDEFTag`; the glue never relies on that, so the stand-in
// keeps them apart (and the test tags small). Keep this file in step with
// docs/apple-availability.md (the Core NFC table) when the glue calls something new.

import Dispatch
import Foundation
import NDEF

// MARK: Errors

/// The error domain of `NFCReaderError` (iOS 11).
@available(iOS 11.0, *)
public let NFCErrorDomain: String = "NFCError"

/// `userInfo` key of the ISO 15693 error code in a tag response error (iOS 14).
@available(iOS 14.0, *)
public let NFCISO15693TagResponseErrorKey: String = "ISO15693TagResponseErrorCode"

// MARK: Sessions

/// `NFCReaderSession` (iOS 11): the common base of the reader sessions.
@available(iOS 11.0, *)
open class NFCReaderSession: NSObject {
    /// Whether the device can read tags.
    open class var readingAvailable: Bool { false }
    /// The text on the system sheet.
    open var alertMessage: String = ""
    /// Shows the sheet and starts polling.
    open func begin() {}
    /// Ends the session, showing the success mark.
    open func invalidate() {}
    /// Ends the session, showing `errorMessage` (iOS 13).
    @available(iOS 13.0, *)
    open func invalidate(errorMessage: String) {}
}

/// `NFCTagReaderSessionDelegate` (iOS 13).
@available(iOS 13.0, *)
public protocol NFCTagReaderSessionDelegate: NSObjectProtocol {
    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession)
    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error)
    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag])
}

/// `NFCTagReaderSession` (iOS 13).
@available(iOS 13.0, *)
open class NFCTagReaderSession: NFCReaderSession {
    /// `NFCTagReaderSession.PollingOption`.
    public struct PollingOption: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let iso14443 = PollingOption(rawValue: 0x1)
        public static let iso15693 = PollingOption(rawValue: 0x2)
        public static let iso18092 = PollingOption(rawValue: 0x4)
    }

    public private(set) weak var delegate: (any NFCTagReaderSessionDelegate)?
    public let queue: DispatchQueue?
    public let pollingOption: PollingOption

    /// `init(pollingOption:delegate:queue:)` (iOS 13, deprecated in iOS 26.4).
    @available(iOS, introduced: 13.0, deprecated: 26.4)
    public convenience init?(pollingOption: PollingOption, delegate: any NFCTagReaderSessionDelegate, queue: DispatchQueue? = nil) {
        self.init(polling: pollingOption, delegate: delegate, queue: queue)
    }

    init(polling: PollingOption, delegate: any NFCTagReaderSessionDelegate, queue: DispatchQueue?) {
        self.pollingOption = polling
        self.delegate = delegate
        self.queue = queue
    }

    /// `restartPolling()`.
    open func restartPolling() {}

    /// `connect(to:completionHandler:)`.
    open func connect(to tag: NFCTag, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        completionHandler(nil)
    }
}

/// `NFCNDEFReaderSessionDelegate` (iOS 11).
@available(iOS 11.0, *)
public protocol NFCNDEFReaderSessionDelegate: NSObjectProtocol {
    func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession)
    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage])
    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error)
}

/// `NFCNDEFReaderSession` (iOS 11).
@available(iOS 11.0, *)
open class NFCNDEFReaderSession: NFCReaderSession {
    public private(set) weak var delegate: (any NFCNDEFReaderSessionDelegate)?
    public let invalidateAfterFirstRead: Bool

    /// `init(delegate:queue:invalidateAfterFirstRead:)`.
    public init(delegate: any NFCNDEFReaderSessionDelegate, queue: DispatchQueue?, invalidateAfterFirstRead: Bool) {
        self.delegate = delegate
        self.invalidateAfterFirstRead = invalidateAfterFirstRead
    }
}

// MARK: NDEF

/// `NFCTypeNameFormat` (iOS 11).
@available(iOS 11.0, *)
public enum NFCTypeNameFormat: UInt8, Sendable {
    case empty = 0x00
    case nfcWellKnown = 0x01
    case media = 0x02
    case absoluteURI = 0x03
    case nfcExternal = 0x04
    case unknown = 0x05
    case unchanged = 0x06
}

/// `NFCNDEFPayload` (iOS 11).
@available(iOS 11.0, *)
open class NFCNDEFPayload: NSObject {
    open var typeNameFormat: NFCTypeNameFormat
    open var type: Data
    open var identifier: Data
    open var payload: Data

    /// `init(format:type:identifier:payload:)` (iOS 13).
    public init(format: NFCTypeNameFormat, type: Data, identifier: Data, payload: Data) {
        self.typeNameFormat = format
        self.type = type
        self.identifier = identifier
        self.payload = payload
    }
}

/// `NFCNDEFMessage` (iOS 11).
@available(iOS 11.0, *)
open class NFCNDEFMessage: NSObject {
    open var records: [NFCNDEFPayload]

    /// `init(records:)` (iOS 13).
    public init(records: [NFCNDEFPayload]) {
        self.records = records
    }
}

// MARK: Tags

/// `NFCTag` (iOS 13): the tag a tag reader session detected.
@available(iOS 13.0, *)
public enum NFCTag {
    case feliCa(any NFCFeliCaTag)
    case iso7816(any NFCISO7816Tag)
    case iso15693(any NFCISO15693Tag)
    case miFare(any NFCMiFareTag)
}

/// `NFCFeliCaTag` (iOS 13); the glue only recognises it.
@available(iOS 13.0, *)
public protocol NFCFeliCaTag: AnyObject {}

/// `NFCISO7816Tag` (iOS 13); the glue only recognises it.
@available(iOS 13.0, *)
public protocol NFCISO7816Tag: AnyObject {}

/// `NFCMiFareFamily` (iOS 13).
@available(iOS 13.0, *)
public enum NFCMiFareFamily: UInt, Sendable {
    case unknown = 1
    case ultralight = 2
    case plus = 3
    case desfire = 4
}

/// `NFCMiFareTag` (iOS 13).
@available(iOS 13.0, *)
public protocol NFCMiFareTag: AnyObject {
    var mifareFamily: NFCMiFareFamily { get }
    var identifier: Data { get }
    /// `sendMiFareCommand(commandPacket:completionHandler:)`.
    func sendMiFareCommand(commandPacket command: Data, completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void)
}

/// `NFCISO15693RequestFlag` (iOS 11): request flags, bit for bit as on the air.
@available(iOS 11.0, *)
public struct NFCISO15693RequestFlag: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
}

/// `NFCISO15693ResponseFlag` (iOS 14): response flags as the tag sent them.
@available(iOS 14.0, *)
public struct NFCISO15693ResponseFlag: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
}

/// `NFCISO15693SystemInfo` (iOS 14): the GET_SYSTEM_INFO answer, −1 where absent.
@available(iOS 14.0, *)
public struct NFCISO15693SystemInfo: Sendable {
    public var uniqueIdentifier: Data
    public var dataStorageFormatIdentifier: Int
    public var applicationFamilyIdentifier: Int
    public var blockSize: Int
    public var totalBlocks: Int
    public var icReference: Int

    public init(
        uniqueIdentifier: Data, dataStorageFormatIdentifier: Int, applicationFamilyIdentifier: Int,
        blockSize: Int, totalBlocks: Int, icReference: Int
    ) {
        self.uniqueIdentifier = uniqueIdentifier
        self.dataStorageFormatIdentifier = dataStorageFormatIdentifier
        self.applicationFamilyIdentifier = applicationFamilyIdentifier
        self.blockSize = blockSize
        self.totalBlocks = totalBlocks
        self.icReference = icReference
    }
}

/// `NFCISO15693Tag` (iOS 13), the calls the glue makes.
@available(iOS 13.0, *)
public protocol NFCISO15693Tag: AnyObject {
    var identifier: Data { get }
    /// `sendRequest(requestFlags:commandCode:data:resultHandler:)` (iOS 14).
    @available(iOS 14.0, *)
    func sendRequest(
        requestFlags flags: Int, commandCode: Int, data: Data?,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data?), any Error>) -> Void)
    /// `getSystemInfo(requestFlags:resultHandler:)` (iOS 14).
    @available(iOS 14.0, *)
    func getSystemInfo(
        requestFlags flags: NFCISO15693RequestFlag,
        resultHandler: @escaping @Sendable (Result<NFCISO15693SystemInfo, any Error>) -> Void)
    func readSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8,
        completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void)
    func readMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void)
    func extendedReadSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int,
        completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void)
    func extendedReadMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void)
    func writeSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, dataBlock: Data,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    func extendedWriteSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, dataBlock: Data,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    func customCommand(
        requestFlags flags: NFCISO15693RequestFlag, customCommandCode: Int, customRequestParameters: Data,
        completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void)
}

// MARK: NDEF tags (read and write in one session)

/// `NFCReaderError` (iOS 11): the error Core NFC reports, with its `Code` (the numbers
/// `ReaderErrorCode` lists). Only the codes the glue names are declared.
@available(iOS 11.0, *)
public struct NFCReaderError: Error, Sendable {
    public enum Code: Int, Sendable {
        case readerTransceiveErrorTagConnectionLost = 100
        case readerTransceiveErrorTagNotConnected = 104
        case readerSessionInvalidationErrorUserCanceled = 200
        case readerSessionInvalidationErrorSessionTimeout = 201
        case ndefReaderSessionErrorTagNotWritable = 400
        case ndefReaderSessionErrorZeroLengthMessage = 403
    }
    public let code: Code
    /// The bridged-error initialiser Swift gives Core NFC's error struct.
    public init(_ code: Code, userInfo: [String: Any] = [:]) { self.code = code }
}

extension NFCNDEFMessage {
    /// `init?(data:)` (iOS 13): parses a serialized NDEF message; nil when it is not one.
    @available(iOS 13.0, *)
    public convenience init?(data: Data) {
        guard let parsed = try? NDEFParser.message(from: data) else { return nil }
        self.init(
            records: parsed.records.map { record in
                NFCNDEFPayload(
                    format: NFCTypeNameFormat(rawValue: record.tnf.rawValue) ?? .unknown,
                    type: record.type, identifier: record.id, payload: record.payload)
            })
    }
}

/// `NFCNDEFTag` (iOS 13): reading and writing the tag's NDEF message. Apple declares the
/// completion-handler forms; Swift imports each also as the `async throws` form the glue
/// calls (declared in the extension below, as the importer would give them).
@available(iOS 13.0, *)
public protocol NFCNDEFTag: AnyObject {
    var isAvailable: Bool { get }
    /// `readNDEF(completionHandler:)`.
    func readNDEF(completionHandler: @escaping @Sendable (NFCNDEFMessage?, (any Error)?) -> Void)
    /// `writeNDEF(_:completionHandler:)`.
    func writeNDEF(_ ndefMessage: NFCNDEFMessage, completionHandler: @escaping @Sendable ((any Error)?) -> Void)
}

@available(iOS 13.0, *)
extension NFCNDEFTag {
    /// `readNDEF() async throws -> NFCNDEFMessage`.
    public func readNDEF() async throws -> NFCNDEFMessage {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<UncheckedMessage, any Error>) in
            readNDEF { message, error in
                if let message {
                    continuation.resume(returning: UncheckedMessage(message: message))
                } else {
                    continuation.resume(throwing: error ?? NFCReaderError(.ndefReaderSessionErrorZeroLengthMessage))
                }
            }
        }.message
    }

    /// `writeNDEF(_:) async throws`.
    public func writeNDEF(_ ndefMessage: NFCNDEFMessage) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            writeNDEF(ndefMessage) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }
}

/// Carries a message object across the continuation (the stand-in's classes are not Sendable).
private struct UncheckedMessage: @unchecked Sendable {
    let message: NFCNDEFMessage
}
