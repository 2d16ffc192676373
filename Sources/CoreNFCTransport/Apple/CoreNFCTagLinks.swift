#if (canImport(CoreNFC) && os(iOS) && !targetEnvironment(macCatalyst)) || CORENFC_GLUE_CHECK
    #if CORENFC_GLUE_CHECK
        import CoreNFCStandIn  // Linux compile check only (Tests/CoreNFCStandIn)
    #else
        import CoreNFC
    #endif
    import Foundation

    // Apple's tag objects behind the transport's protocols. Core NFC calls its handlers on the
    // session's queue; each call is bridged to async with a checked continuation. Core NFC's
    // tag objects are not marked Sendable but may be used from any thread while the session
    // is valid, hence @unchecked.

    extension CoreNFCFailure {
        /// Reduces an error from Core NFC to its code and, for ISO 15693 tag errors, the tag's
        /// error byte.
        public init(nfcError error: Error) {
            let ns = error as NSError
            guard ns.domain == NFCErrorDomain else {
                self.init(code: -1, message: ns.localizedDescription)
                return
            }
            let isoValue = ns.userInfo[NFCISO15693TagResponseErrorKey] ?? ns.userInfo["ISO15693TagResponseErrorCode"]
            let iso = (isoValue as? NSNumber).map { UInt8(truncatingIfNeeded: $0.intValue) }
            self.init(code: ns.code, iso15693ErrorCode: iso, message: ns.localizedDescription)
        }
    }

    /// `NFCMiFareTag` (Ultralight family) as a `MiFareTagLink`.
    public struct CoreNFCMiFareLink: MiFareTagLink, @unchecked Sendable {
        public let tag: any NFCMiFareTag

        public init(tag: any NFCMiFareTag) { self.tag = tag }

        public var identifier: Data { tag.identifier }

        public func sendMiFareCommand(_ packet: Data) async throws -> Data {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, Error>) in
                tag.sendMiFareCommand(
                    commandPacket: packet,
                    completionHandler: { answer, error in
                        if let error {
                            continuation.resume(throwing: CoreNFCFailure(nfcError: error))
                        } else {
                            continuation.resume(returning: answer)
                        }
                    })
            }
        }
    }

    /// `NFCISO15693Tag` as an `ISO15693TagLink`.
    public struct CoreNFCISO15693Link: ISO15693TagLink, @unchecked Sendable {
        public let tag: any NFCISO15693Tag

        public init(tag: any NFCISO15693Tag) { self.tag = tag }

        public var identifier: Data { tag.identifier }

        private func nfcFlags(_ flags: ISO15693RequestFlags) -> NFCISO15693RequestFlag {
            NFCISO15693RequestFlag(rawValue: flags.rawValue)
        }

        private static func nsRange(_ blocks: Range<Int>) -> NSRange {
            NSRange(location: blocks.lowerBound, length: blocks.count)
        }

        public func sendRequest(requestFlags: UInt8, commandCode: UInt8, data: Data) async throws -> (responseFlags: UInt8, data: Data) {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(responseFlags: UInt8, data: Data), Error>) in
                tag.sendRequest(
                    requestFlags: Int(requestFlags), commandCode: Int(commandCode), data: data,
                    resultHandler: { result in
                        switch result {
                        case .success(let (flags, answer)):
                            continuation.resume(returning: (flags.rawValue, answer ?? Data()))
                        case .failure(let error):
                            continuation.resume(throwing: CoreNFCFailure(nfcError: error))
                        }
                    })
            }
        }

        public func systemInfo(requestFlags: ISO15693RequestFlags) async throws -> ISO15693SystemInfo {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ISO15693SystemInfo, Error>) in
                tag.getSystemInfo(
                    requestFlags: nfcFlags(requestFlags),
                    resultHandler: { result in
                        switch result {
                        case .success(let info):
                            continuation.resume(
                                returning: ISO15693SystemInfo(
                                    dataStorageFormatIdentifier: info.dataStorageFormatIdentifier,
                                    applicationFamilyIdentifier: info.applicationFamilyIdentifier,
                                    blockSize: info.blockSize, totalBlocks: info.totalBlocks, icReference: info.icReference))
                        case .failure(let error):
                            continuation.resume(throwing: CoreNFCFailure(nfcError: error))
                        }
                    })
            }
        }

        public func readSingleBlock(requestFlags: ISO15693RequestFlags, blockNumber: UInt8) async throws -> Data {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, Error>) in
                tag.readSingleBlock(
                    requestFlags: nfcFlags(requestFlags), blockNumber: blockNumber,
                    completionHandler: { data, error in
                        Self.finish(continuation, data, error)
                    })
            }
        }

        public func readMultipleBlocks(requestFlags: ISO15693RequestFlags, blocks: Range<Int>) async throws -> [Data] {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[Data], Error>) in
                tag.readMultipleBlocks(
                    requestFlags: nfcFlags(requestFlags), blockRange: Self.nsRange(blocks),
                    completionHandler: { data, error in
                        Self.finish(continuation, data, error)
                    })
            }
        }

        public func extendedReadSingleBlock(requestFlags: ISO15693RequestFlags, blockNumber: Int) async throws -> Data {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, Error>) in
                tag.extendedReadSingleBlock(
                    requestFlags: nfcFlags(requestFlags), blockNumber: blockNumber,
                    completionHandler: { data, error in
                        Self.finish(continuation, data, error)
                    })
            }
        }

        public func extendedReadMultipleBlocks(requestFlags: ISO15693RequestFlags, blocks: Range<Int>) async throws -> [Data] {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[Data], Error>) in
                tag.extendedReadMultipleBlocks(
                    requestFlags: nfcFlags(requestFlags), blockRange: Self.nsRange(blocks),
                    completionHandler: { data, error in
                        Self.finish(continuation, data, error)
                    })
            }
        }

        public func writeSingleBlock(requestFlags: ISO15693RequestFlags, blockNumber: UInt8, data: Data) async throws {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                tag.writeSingleBlock(
                    requestFlags: nfcFlags(requestFlags), blockNumber: blockNumber, dataBlock: data,
                    completionHandler: { error in
                        Self.finish(continuation, (), error)
                    })
            }
        }

        public func extendedWriteSingleBlock(requestFlags: ISO15693RequestFlags, blockNumber: Int, data: Data) async throws {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                tag.extendedWriteSingleBlock(
                    requestFlags: nfcFlags(requestFlags), blockNumber: blockNumber, dataBlock: data,
                    completionHandler: { error in
                        Self.finish(continuation, (), error)
                    })
            }
        }

        public func customCommand(requestFlags: ISO15693RequestFlags, code: UInt8, parameters: Data) async throws -> Data {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, Error>) in
                tag.customCommand(
                    requestFlags: nfcFlags(requestFlags), customCommandCode: Int(code),
                    customRequestParameters: parameters,
                    completionHandler: { data, error in
                        Self.finish(continuation, data, error)
                    })
            }
        }

        private static func finish<T: Sendable>(_ continuation: CheckedContinuation<T, Error>, _ value: T, _ error: Error?) {
            if let error {
                continuation.resume(throwing: CoreNFCFailure(nfcError: error))
            } else {
                continuation.resume(returning: value)
            }
        }
    }
#endif
