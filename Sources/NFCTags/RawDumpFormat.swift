import Foundation

/// Raw binary dumps (nfc-mfultralight, Proxmark, plain Type 5 block images).
extension MemoryDump {
    private static func bccValid(_ bytes: [UInt8], at base: Int) -> Bool {
        guard bytes.count >= base + 9 else { return false }
        let bcc0 = 0x88 ^ bytes[base] ^ bytes[base + 1] ^ bytes[base + 2]
        let bcc1 = bytes[base + 4] ^ bytes[base + 5] ^ bytes[base + 6] ^ bytes[base + 7]
        return bytes[base + 3] == bcc0 && bytes[base + 8] == bcc1
    }

    static func parseRaw(_ bytes: [UInt8], hint: DumpHint) throws -> MemoryDump {
        guard !bytes.isEmpty else { throw MemoryDumpError("the dump is empty", offset: 0) }
        let proxmarkHeader = 56
        let isProxmark =
            bytes.count >= proxmarkHeader + 16 && (bytes.count - proxmarkHeader) % 4 == 0
            && bccValid(bytes, at: proxmarkHeader) && !bccValid(bytes, at: 0)
        var technology: TagTechnology
        var blockSize = 4
        var chip: TagChip?
        switch hint {
        case .type2: technology = .iso14443A
        case .type5(let size): technology = .iso15693; blockSize = size
        case .chip(let hinted):
            technology = hinted.technology
            chip = hinted
            blockSize = hinted.type5Layout?.blockSize ?? 4
        case .auto:
            let type2 = bccValid(bytes, at: 0) && bytes.count % 4 == 0
            let type5 = (bytes[0] == 0xE1 || bytes[0] == 0xE2) && bytes.count >= 4 && bytes[1] >> 6 == 1
            if isProxmark || (type2 && bytes.count >= 16 && bytes[12] == 0xE1) {
                technology = .iso14443A
            } else if type5 {
                technology = .iso15693
            } else if type2 {
                technology = .iso14443A
            } else {
                throw MemoryDumpError(
                    "cannot tell a Type 2 from a Type 5 dump: byte 3 is not the UID check byte "
                        + "(BCC0) of a Type 2 tag and byte 0 is not a Type 5 capability container (E1/E2)", offset: 0,
                    hint: .wrongInputKind(suggested: [.type2TagDump, .type5TagDump]))
            }
        }
        guard blockSize >= 1 && blockSize <= 32 else {
            throw MemoryDumpError("a block size of \(blockSize) bytes is outside 1…32")
        }
        if technology == .iso14443A {
            var version: Data?
            var pages = bytes
            var format = Format.raw
            if isProxmark {
                version = Data(bytes[0..<8])
                if version?.allSatisfy({ $0 == 0 }) == true { version = nil }
                pages = Array(bytes[proxmarkHeader...])
                format = .proxmark
            }
            guard pages.count % 4 == 0 else {
                let end = pages.count - pages.count % 4
                throw MemoryDumpError(
                    "the dump ends inside page \(end / 4) (\(pages.count) bytes is not a whole number of 4-byte pages)",
                    offset: end + (isProxmark ? proxmarkHeader : 0))
            }
            guard pages.count >= 16 else {
                throw MemoryDumpError("a Type 2 dump needs pages 0–3 (16 bytes); this one has \(pages.count)", offset: pages.count)
            }
            if chip == nil, let version { chip = Type2Layout.identify(version: Array(version)) }
            if chip == nil {
                // Without a stored GET_VERSION answer, a dump of exactly one known chip's size is that chip.
                let sized = TagChip.allCases.filter { $0.type2Layout?.readablePages == pages.count / 4 }
                if sized.count == 1 { chip = sized[0] }
            }
            let uid = Data(pages[0..<3] + pages[4..<8])
            return MemoryDump(
                technology: .iso14443A, memory: Data(pages), unitSize: 4, uid: uid, chip: chip,
                version: version, format: format)
        }
        guard bytes.count % blockSize == 0 else {
            let end = bytes.count - bytes.count % blockSize
            throw MemoryDumpError(
                "the dump ends inside block \(end / blockSize) (\(bytes.count) bytes is not a whole number of \(blockSize)-byte blocks)", offset: end)
        }
        return MemoryDump(
            technology: .iso15693, memory: Data(bytes), unitSize: blockSize, uid: nil, chip: chip,
            format: .raw)
    }
}
