import Foundation
import NDEF

/// Builds the public result from what a read found (shared by both tag types).
enum TagReading {
    static func result(
        technology: TagTechnology, identity: TagIdentity, unitSize: Int, cc: CapabilityContainer?,
        area: Range<Int>?, outcome: TLVWalker.Outcome, anomalies: [TagAnomaly],
        session: TagExchange
    ) -> TagReadResult {
        var all = anomalies + outcome.anomalies
        var message: NDEFMessage?
        var ndefError: NDEFError?
        if let bytes = outcome.ndefBytes, !bytes.isEmpty {
            do {
                message = try NDEFParser.parse(bytes, mode: .strict).message
            } catch let error as NDEFError {
                ndefError = error
                let tlv = outcome.tlvs.first { $0.kind == .ndef }
                all.append(TagAnomaly(offset: tlv?.valueOffset, message: "the NDEF message does not parse: \(error)"))
            } catch {
                all.append(TagAnomaly(offset: nil, message: "the NDEF message does not parse: \(error)"))
            }
        } else if cc != nil && !outcome.tlvs.contains(where: { $0.kind == .ndef }) {
            all.append(TagAnomaly(offset: area?.lowerBound, message: "no NDEF TLV in the data area"))
        }
        return TagReadResult(
            technology: technology, chip: identity.chip, uid: identity.uid, version: identity.version,
            systemInfo: identity.systemInfo, unitSize: unitSize, capabilityContainer: cc,
            dataArea: area, tlvs: outcome.tlvs, ndefMessageBytes: outcome.ndefBytes,
            ndefMessage: message, ndefError: ndefError, anomalies: all,
            commandCount: session.commandCount, bytesRead: session.memory.knownBytes)
    }
}
