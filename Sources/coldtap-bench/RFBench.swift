import Foundation
import NFCTags
import NFCTagsEmulation

/// One row of the RF suite: a virtual tag filled with a full-size NDEF message.
struct RFBenchRow {
    var tag: String
    var bytes: Int
    var commands: Int
    var airTimeMs: Double
    var lowerBoundMs: Double
    var naiveCommands: Int
    var naiveAirTimeMs: Double

    var ratio: Double { airTimeMs / lowerBoundMs }
}

/// The physical floor of reading `bytes` of tag memory, from the frame timings alone: one
/// identification exchange (GET_VERSION / GET_SYSTEM_INFO — without it no reader may use the
/// larger commands), then the bytes in the fewest of the largest legal commands (Type 2:
/// FAST_READ of at most the link's answer size; Type 5: READ_MULTIPLE_BLOCKS of at most the
/// chip's count and never across its sectors, extended form past block 255), each paying its
/// request frame, delays, SOF/EOF, flags and CRC. On a Type 2 chip with sectors (NT3H2211)
/// no FAST_READ crosses a sector, pages outside the data (NT3H2211 0xE2–0xFF of sector 0) are
/// not read, and each sector the data reach beyond sector 0 adds the one unavoidable
/// SECTOR_SELECT (both packets, the second with its ≈ 1 ms passive-ACK wait); selecting
/// sector 0 again afterwards is not part of the bound.
func rfLowerBoundMicroseconds(chip: TagChip, firstUnit: Int, lastUnit: Int, limits: LinkLimits) -> Double {
    if let layout = chip.type2Layout {
        var total = AirTime.iso14443Exchange(commandBytes: 1, answerBytes: 8)
        let maxPages = min(limits.maxResponseBytes / 4, layout.readablePages)
        // Pages the data need: reachable, and not kept out of the data area by the chip.
        let wanted = { (page: Int) in layout.isReachable(page) && !(layout.reservedPages?.contains(page) ?? false) }
        var sector = firstUnit / 256
        var page = firstUnit
        while page <= lastUnit {
            guard wanted(page) else { page += 1; continue }
            if page / 256 != sector {
                sector = page / 256
                total += AirTime.type2SectorSelect
            }
            var count = 1
            while count < maxPages, page + count <= lastUnit, (page + count) % 256 != 0, wanted(page + count) { count += 1 }
            total += AirTime.iso14443Exchange(commandBytes: 3, answerBytes: count * 4)
            page += count
        }
        return total
    }
    guard let layout = chip.type5Layout else { return 0 }
    let twoByteCount = layout.blockCount > 256
    var total = AirTime.iso15693Exchange(commandBytes: 2, answerBytes: 14 + (twoByteCount ? 1 : 0))
    let linkBlocks = (limits.maxResponseBytes - 1) / layout.blockSize
    let maxBlocks = min(layout.maxBlocksPerRead ?? 256, linkBlocks, 256)
    var block = firstUnit
    while block <= lastUnit {
        var count = min(maxBlocks, lastUnit - block + 1)
        if let sector = layout.sectorBlocks { count = min(count, sector - block % sector) }
        let extended = block + count - 1 > 255
        total += AirTime.iso15693Exchange(commandBytes: extended ? 6 : 4, answerBytes: 1 + count * layout.blockSize)
        block += count
    }
    return total
}

func measureRF(chip: TagChip) async throws -> RFBenchRow {
    let message = TagImage.sampleMessage(totalBytes: try TagImage.capacity(for: chip))
    let fast = try VirtualTag.make(chip: chip, ndefMessage: message)
    let result = try await TagReader.read(from: fast)
    guard result.ndefMessageBytes == message else { throw BenchError.reference("\(chip.displayName) read back wrong") }
    let naive = try VirtualTag.make(chip: chip, ndefMessage: message)
    let naiveResult = try await TagReader.read(from: naive, options: TagReadOptions(strategy: .naive))
    guard naiveResult.ndefMessageBytes == message else { throw BenchError.reference("\(chip.displayName) naive read back wrong") }
    // Memory the read must cover: the CC through the last byte of the NDEF TLV.
    guard let ndef = result.tlvs.first(where: { $0.kind == .ndef }) else { throw BenchError.reference("no NDEF TLV") }
    let unit = result.unitSize
    let firstUnit = chip.technology == .iso14443A ? 3 : 0
    // The NDEF value skips bytes the chip keeps out of the data area (NT3H2211 0xE2–0xFF).
    var lastByte = ndef.valueOffset + ndef.length - 1
    if let reserved = chip.type2Layout?.reservedBytes, lastByte >= reserved.lowerBound { lastByte += reserved.count }
    let lastUnit = lastByte / unit
    // NT3H2211: the pages between its sectors lie inside the span but are never read.
    let skippedPages = chip.type2Layout?.reservedPages?.clamped(to: firstUnit..<(lastUnit + 1)).count ?? 0
    let lowerBound = rfLowerBoundMicroseconds(chip: chip, firstUnit: firstUnit, lastUnit: lastUnit, limits: fast.limits)
    let name: String
    switch chip {
    case .nt3h2111: name = "NT3H2111"
    case .nt3h2211: name = "NT3H2211"
    default: name = chip.displayName
    }
    return RFBenchRow(
        tag: name,
        bytes: (lastUnit - firstUnit + 1 - skippedPages) * unit,
        commands: await fast.commandCount, airTimeMs: await fast.airTimeMicroseconds / 1000,
        lowerBoundMs: lowerBound / 1000, naiveCommands: await naive.commandCount,
        naiveAirTimeMs: await naive.airTimeMicroseconds / 1000)
}

func runRFBench(json: Bool) async throws {
    var rows: [RFBenchRow] = []
    for chip in TagChip.emulated { rows.append(try await measureRF(chip: chip)) }
    // A logger that writes the whole memory itself: its log, not an NDEF message, is the data.
    rows.append(try await measureSmarTagRF())
    func round(_ value: Double, _ places: Double) -> Double { (value * places).rounded() / places }
    let nhs = try await measureNHSRF()
    if json {
        let tags = rows.map { row in
            "{\"tag\": \"\(row.tag)\", \"bytes\": \(row.bytes), \"commands\": \(row.commands), "
                + "\"airTimeMs\": \(round(row.airTimeMs, 10)), \"lowerBoundMs\": \(round(row.lowerBoundMs, 10)), "
                + "\"ratio\": \(round(row.ratio, 100)), \"naiveCommands\": \(row.naiveCommands), "
                + "\"naiveAirTimeMs\": \(round(row.naiveAirTimeMs, 10))}"
        }
        let logger =
            "{\"tag\": \"\(nhs.tag)\", \"samples\": \(nhs.bytes / 2), \"exchanges\": \(nhs.commands), "
            + "\"tagCommands\": \(nhs.naiveCommands), \"airTimeMs\": \(round(nhs.airTimeMs, 10)), "
            + "\"lowerBoundMs\": \(round(nhs.lowerBoundMs, 10)), \"ratio\": \(round(nhs.ratio, 100))}"
        print("{\"tags\": [" + tags.joined(separator: ", ") + "], \"loggers\": [" + logger + "]}")
        return
    }
    print("RF: full-size NDEF message, modeled air time (ISO 14443-A 106 kbit/s, ISO 15693 high data rate), link ≤ 256-byte answers")
    print(
        "lower bound = one identification exchange + the bytes in the fewest largest legal commands (frame timings only)"
            + " + one SECTOR_SELECT where the data cross into sector 1 (NT3H2211)")
    print(
        "tag".padding(toLength: 12, withPad: " ", startingAt: 0)
            + "  bytes  cmds   air ms  bound ms  ratio   naive cmds  naive ms  naive/ours   held ms at 5 ms/cmd: ours / naive")
    for row in rows {
        let line =
            row.tag.padding(toLength: 12, withPad: " ", startingAt: 0)
            + String(
                format: " %6d %5d %8.1f %9.1f %6.3f %12d %9.1f %10.1f×   %10.0f / %.0f", row.bytes, row.commands,
                row.airTimeMs, row.lowerBoundMs, row.ratio, row.naiveCommands, row.naiveAirTimeMs,
                row.naiveAirTimeMs / row.airTimeMs, row.airTimeMs + 5 * Double(row.commands),
                row.naiveAirTimeMs + 5 * Double(row.naiveCommands))
        print(line)
    }
    let worst = rows.map(\.ratio).max() ?? 0
    print(String(format: "worst ratio %.3f (target ≤ 1.15): %@", worst, worst <= 1.15 ? "met" : "NOT met"))
    printNHSRFRow(nhs)
}
