#if canImport(CCrypto)
    import CCrypto
    import Foundation

    /// Small pieces every libcrypto call here needs: its error queue as text, memory BIOs,
    /// DER out of an `i2d_` function. Each caller frees what it is given.
    enum Libcrypto {
        /// libcrypto's queued errors for this thread as one line (then the queue is empty).
        static func errors() -> String {
            var messages: [String] = []
            while true {
                let code = ERR_get_error()
                if code == 0 { break }
                var buffer = [CChar](repeating: 0, count: 256)
                ERR_error_string_n(code, &buffer, buffer.count)
                // The reason is the part after the last colon of libcrypto's "error:...:reason".
                let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                messages.append(text.split(separator: ":").last.map(String.init) ?? text)
            }
            return messages.joined(separator: "; ")
        }

        /// A `crypto` error for `operation`, with what libcrypto queued.
        static func failure(_ operation: String) -> PDFSigningError { .crypto(operation: operation, detail: errors()) }

        /// A read-only memory BIO over a copy of `bytes` held by `body`'s call.
        static func withReadBIO<T>(_ bytes: [UInt8], _ body: (OpaquePointer) throws(PDFSigningError) -> T) throws(PDFSigningError) -> T {
            let result: Result<T, PDFSigningError> = bytes.withUnsafeBytes { buffer in
                guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return .failure(failure("make a memory buffer")) }
                defer { BIO_free(bio) }
                do throws(PDFSigningError) {
                    return .success(try body(bio))
                } catch {
                    return .failure(error)
                }
            }
            return try result.get()
        }

        /// What `body` writes into a fresh memory BIO.
        static func writtenBytes(_ operation: String, _ body: (OpaquePointer) -> Int32) throws(PDFSigningError) -> [UInt8] {
            guard let bio = BIO_new(BIO_s_mem()) else { throw failure(operation) }
            defer { BIO_free(bio) }
            guard body(bio) == 1 else { throw failure(operation) }
            var pointer: UnsafeMutablePointer<CChar>?
            // BIO_get_mem_data is a macro over BIO_ctrl(BIO_CTRL_INFO).
            let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &pointer)
            guard length >= 0, let pointer else { return [] }
            return pointer.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
        }

        /// The DER that an `i2d_` function writes for a value (allocated by libcrypto, freed here).
        static func der(_ operation: String, _ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>) -> Int32) throws(PDFSigningError) -> [UInt8] {
            var output: UnsafeMutablePointer<UInt8>?
            let length = encode(&output)
            guard length > 0, let output else { throw failure(operation) }
            defer { CRYPTO_free(output, nil, 0) }
            return Array(UnsafeBufferPointer(start: output, count: Int(length)))
        }

        /// SHA-256 of `bytes`, or the digest libcrypto names by `nid` (what a signature said it used).
        static func digest(_ bytes: [UInt8], nid: Int32 = NID_sha256) throws(PDFSigningError) -> [UInt8] {
            guard let algorithm = EVP_get_digestbyname(OBJ_nid2sn(nid)) else {
                throw .crypto(operation: "find the digest algorithm \(String(cString: OBJ_nid2sn(nid)))", detail: errors())
            }
            var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            let done = bytes.withUnsafeBufferPointer { EVP_Digest($0.baseAddress, $0.count, &digest, &length, algorithm, nil) }
            guard done == 1 else { throw failure("compute a digest") }
            return Array(digest.prefix(Int(length)))
        }

        /// A time of an X.509 certificate (`ASN1_TIME`) as a `Date`.
        static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
            guard let time else { return nil }
            var parts = tm()
            guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
            return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
        }

        /// The first common name of an X.509 name, if any.
        static func commonName(_ name: OpaquePointer?) -> String? {
            guard let name else { return nil }
            let index = X509_NAME_get_index_by_NID(name, NID_commonName, -1)
            guard index >= 0, let entry = X509_NAME_get_entry(name, index), let data = X509_NAME_ENTRY_get_data(entry) else { return nil }
            var utf8: UnsafeMutablePointer<UInt8>?
            let length = ASN1_STRING_to_UTF8(&utf8, data)
            guard length >= 0, let utf8 else { return nil }
            defer { CRYPTO_free(utf8, nil, 0) }
            return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
        }
    }
#endif
