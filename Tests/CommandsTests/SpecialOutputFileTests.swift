import ColdTapBase
import Foundation
import Testing

@testable import ColdTapCommands

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 43 item 10: a file a command writes is written all or nothing over a regular file or
/// a new path, into a FIFO or device as it is (a rename would replace the special file: run
/// as root, `--out /dev/null` once turned /dev/null into a regular file), and never through a
/// symbolic link. A FIFO stands in for /dev/null here, so that a regression cannot damage the
/// machine that runs the test.
@Suite struct SpecialOutputFileTests {
    let message = ["ndef", "encode", "--text", "4.2 °C", "--lang", "en"]

    @Test func aFIFOIsWrittenIntoAndStaysAFIFO() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let fifo = files.directory.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // The reader opens the pipe on a thread of its own: opening a FIFO to write waits for one.
        let received = LockedValue<Data?>(nil)
        let reader = Thread {
            let data = FileHandle(forReadingAtPath: fifo).map { $0.readDataToEndOfFile() }
            received.withLock { $0 = data }
        }
        reader.start()
        let result = await runColdTap(message + ["-o", fifo])
        #expect(result.status == 0, "\(result.err)")
        let deadline = Date().addingTimeInterval(10)
        while received.current == nil, Date() < deadline { usleep(10_000) }
        #expect(OutputFile.kind(of: fifo) == .special, "the FIFO was replaced by a file")
        let expected = await runColdTap(message + ["-o", files.directory.appendingPathComponent("plain.ndef").path])
        #expect(expected.status == 0)
        #expect(received.current == (try Data(contentsOf: files.directory.appendingPathComponent("plain.ndef"))))
    }

    @Test func aSymbolicLinkIsRefusedAndItsTargetLeftAlone() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let target = files.directory.appendingPathComponent("target.txt")
        try Data("keep me".utf8).write(to: target)
        let link = files.directory.appendingPathComponent("link.ndef").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target.path)
        let result = await runColdTap(message + ["-o", link])
        #expect(result.status == 65)
        #expect(result.err.contains("is a symbolic link"), "\(result.err)")
        #expect(OutputFile.kind(of: link) == .symbolicLink)
        #expect(try Data(contentsOf: target) == Data("keep me".utf8))
    }

    @Test func aRegularFileIsReplacedWholeAndAFolderRefused() async throws {
        let files = try TemporaryFiles()
        defer { files.cleanUp() }
        let file = files.directory.appendingPathComponent("message.ndef")
        try Data(repeating: 0xAA, count: 4096).write(to: file)
        #expect(await runColdTap(message + ["-o", file.path]).status == 0)
        let written = try Data(contentsOf: file)
        #expect(written.count < 4096 && written.first == 0xD1, "the old bytes were not replaced whole: \(written.count) bytes")
        let folder = await runColdTap(message + ["-o", files.directory.path])
        #expect(folder.status == 65)
        #expect(folder.err.contains("is a folder"), "\(folder.err)")
    }
}
