import Foundation

/// An NFC Forum Type 2 tag (NTAG21x, NTAG I2C plus, or any tag that speaks READ/WRITE)
/// behind a transport: the `NFCForumTag` verbs over Type 2 commands (`Type2Engine`):
/// identify with GET_VERSION (a tag that does not answer it is a generic Type 2 tag); read
/// the capability container, the TLVs and the first NDEF message in the largest FAST_READ
/// ranges the chip and link allow; write with WRITE, the length as 0 first and set last.
public struct Type2Tag: EngineBackedTag {
    public static let technology = TagTechnology.iso14443A
    typealias Engine = Type2Engine
    public let transport: any TagTransport
    public var options: TagReadOptions

    public init(transport: any TagTransport, options: TagReadOptions = TagReadOptions()) {
        self.transport = transport
        self.options = options
    }
}
