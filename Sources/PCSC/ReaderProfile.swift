import NFCTags

/// How raw tag commands reach the tag through a reader.
public enum RawCommandPath: String, Sendable, Equatable {
    /// PC/SC 2.02 Part 3 transparent session: `FF C2 00 01 Lc 95 len <command>`, answer in a `97` TLV.
    case transparentSession = "transparent session"
    /// ACS ACR122U: `FF 00 00 00 Lc D4 42 <command>` (PN532 InCommunicateThru), answer `D5 43 00 <data>`.
    case directTransmit = "ACR122U direct transmit"
    /// No raw commands: READ BINARY / UPDATE BINARY only (`FF B0`, `FF D6`).
    case storageCommands = "READ/UPDATE BINARY"
}

/// What ColdTap knows about a reader model: which tags it can see, how raw commands get
/// through and how large a frame its buffers carry.
///
/// Written against the vendors' published command sets: ACS ACR122U (PN532, direct transmit,
/// FAST_READ of about 60 pages, no ISO 15693), ACS ACR1252U (Part 3 transparent session, no
/// ISO 15693), ACS ACR1552U, Identiv uTrust 3700 F / 3720 F and HID OMNIKEY 5022 / 5422
/// (Part 3 transparent session, ISO 14443-A and ISO 15693).
public struct ReaderProfile: Sendable, Equatable {
    public enum Family: String, Sendable, Equatable {
        case acr122u = "ACS ACR122U"
        case acr1252u = "ACS ACR1252U"
        case acr1552u = "ACS ACR1552U"
        case uTrust3700F = "Identiv uTrust 3700 F"
        case uTrust3720F = "Identiv uTrust 3720 F"
        case omnikey5022 = "HID OMNIKEY 5022"
        case omnikey5422 = "HID OMNIKEY 5422"
        /// vsmartcard's virtual reader; the card behind it is `coldtap emulate`.
        case virtualPCD = "vsmartcard Virtual PCD"
        case unknown = "unknown reader"
    }

    public var family: Family
    /// True when the reader sees ISO 15693 (Type 5) tags.
    public var readsISO15693: Bool
    /// The raw-command path to try first.
    public var preferredPath: RawCommandPath
    /// Largest tag answer (without CRC) the reader's buffers pass in one raw exchange.
    public var maxRawResponseBytes: Int
    /// Largest raw tag command (without CRC).
    public var maxRawCommandBytes: Int

    /// Readers ColdTap suggests when the one at hand cannot see ISO 15693 tags.
    public static let iso15693Readers = "an ACS ACR1552U, Identiv uTrust 3700 F or HID OMNIKEY 5022"

    /// The profile for a PC/SC reader name (e.g. `ACS ACR122U PICC Interface 00 00`).
    public init(readerName name: String) {
        let lower = name.lowercased()
        // A transparent exchange answer travels in a short response APDU: 256 bytes minus the
        // C0 status object (5) and the 97 TLV header (3).
        let shortAPDUAnswer = 248
        if lower.contains("acr122") {
            // The PN532 frame holds 262 bytes; with the D5 43 status header about 60 Type 2
            // pages (240 bytes) per FAST_READ are known to pass.
            self.init(
                family: .acr122u, readsISO15693: false, preferredPath: .directTransmit,
                maxRawResponseBytes: 240, maxRawCommandBytes: 250)
        } else if lower.contains("acr1252") {
            self.init(
                family: .acr1252u, readsISO15693: false, preferredPath: .transparentSession,
                maxRawResponseBytes: shortAPDUAnswer, maxRawCommandBytes: 250)
        } else if lower.contains("acr1552") {
            self.init(
                family: .acr1552u, readsISO15693: true, preferredPath: .transparentSession,
                maxRawResponseBytes: shortAPDUAnswer, maxRawCommandBytes: 250)
        } else if lower.contains("3700 f") || lower.contains("3700f") {
            self.init(
                family: .uTrust3700F, readsISO15693: true, preferredPath: .transparentSession,
                maxRawResponseBytes: shortAPDUAnswer, maxRawCommandBytes: 250)
        } else if lower.contains("3720 f") || lower.contains("3720f") {
            self.init(
                family: .uTrust3720F, readsISO15693: true, preferredPath: .transparentSession,
                maxRawResponseBytes: shortAPDUAnswer, maxRawCommandBytes: 250)
        } else if lower.contains("5022") {
            self.init(
                family: .omnikey5022, readsISO15693: true, preferredPath: .transparentSession,
                maxRawResponseBytes: shortAPDUAnswer, maxRawCommandBytes: 250)
        } else if lower.contains("5422") {
            self.init(
                family: .omnikey5422, readsISO15693: true, preferredPath: .transparentSession,
                maxRawResponseBytes: shortAPDUAnswer, maxRawCommandBytes: 250)
        } else if lower.contains("virtual pcd") {
            self.init(
                family: .virtualPCD, readsISO15693: true, preferredPath: .transparentSession,
                maxRawResponseBytes: shortAPDUAnswer, maxRawCommandBytes: 250)
        } else {
            self.init(
                family: .unknown, readsISO15693: true, preferredPath: .transparentSession,
                maxRawResponseBytes: shortAPDUAnswer, maxRawCommandBytes: 250)
        }
    }

    public init(
        family: Family, readsISO15693: Bool, preferredPath: RawCommandPath,
        maxRawResponseBytes: Int, maxRawCommandBytes: Int
    ) {
        self.family = family
        self.readsISO15693 = readsISO15693
        self.preferredPath = preferredPath
        self.maxRawResponseBytes = maxRawResponseBytes
        self.maxRawCommandBytes = maxRawCommandBytes
    }

    /// The limits a transport on this reader reports for `path` and `technology`.
    public func limits(for path: RawCommandPath, technology: TagTechnology) -> LinkLimits {
        switch path {
        case .transparentSession, .directTransmit:
            return LinkLimits(maxCommandBytes: maxRawCommandBytes, maxResponseBytes: maxRawResponseBytes)
        case .storageCommands:
            switch technology {
            case .iso14443A:
                // READ (16 bytes) and WRITE (one page), translated to READ/UPDATE BINARY.
                return LinkLimits(
                    maxCommandBytes: 6, maxResponseBytes: 16, supportedCommands: [Type2Command.Code.read.rawValue, Type2Command.Code.write.rawValue])
            case .iso15693:
                // Single-block read and write (also the 2-byte-address forms); blocks up to 32 bytes.
                return LinkLimits(
                    maxCommandBytes: 2 + 8 + 2 + 32, maxResponseBytes: 1 + 32,
                    supportedCommands: Set(
                        [
                            Type5Command.Code.readSingleBlock, .writeSingleBlock, .extendedReadSingleBlock,
                            .extendedWriteSingleBlock,
                        ].map(\.rawValue)))
            }
        }
    }
}
