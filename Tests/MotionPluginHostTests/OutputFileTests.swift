import Foundation
import Testing
@testable import MotionPluginHost
@testable import MotionRun
import MotionTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The output-file rule (`plot -o`, `run --plot`, `test --junit`, `test --update`): a regular
/// file is replaced whole by a rename; a device, FIFO or symlink is written through and stays
/// what it is.
@Suite(.timeLimit(.minutes(5))) struct OutputFileTests {
    private func kind(_ path: String, follow: Bool = false) -> mode_t {
        var info = stat()
        guard (follow ? stat(path, &info) : lstat(path, &info)) == 0 else { return 0 }
        return info.st_mode & S_IFMT
    }

    private func inode(_ path: String) -> UInt {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt(info.st_ino) : 0
    }

    @Test func aRegularFileIsReplacedByARenameAndKeepsItsMode() throws {
        let folder = makeTemporaryFolder("out")
        let path = writeFile("old and longer\n", "report.xml", in: folder)
        chmod(path, 0o640)
        let before = inode(path)
        try OutputFile.write(Array("new\n".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
        #expect(inode(path) != before)
        var info = stat()
        stat(path, &info)
        #expect(info.st_mode & 0o777 == 0o640)
        // No temporary file left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["report.xml"])
    }

    @Test func aNewFileIsCreated() throws {
        let folder = makeTemporaryFolder("out")
        let path = folder.appendingPathComponent("new.svg").path
        try OutputFile.write(Array("<svg/>".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "<svg/>")
        #expect(kind(path) == S_IFREG)
    }

    /// `plot -o /dev/stdout` must not replace the link with a file.
    @Test func aSymlinkStaysALinkAndItsTargetGetsTheBytes() throws {
        let folder = makeTemporaryFolder("out")
        let target = writeFile("old contents, longer than the new\n", "target.txt", in: folder)
        let link = folder.appendingPathComponent("link").path
        #expect(symlink(target, link) == 0)
        try OutputFile.write(Array("new\n".utf8), to: link)
        #expect(kind(link) == S_IFLNK)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new\n")
        // A dangling link creates its target.
        let dangling = folder.appendingPathComponent("dangling").path
        let missing = folder.appendingPathComponent("made.txt").path
        #expect(symlink(missing, dangling) == 0)
        try OutputFile.write(Array("x".utf8), to: dangling)
        #expect(kind(dangling) == S_IFLNK)
        #expect(try String(contentsOfFile: missing, encoding: .utf8) == "x")
    }

    /// As root, the rename used to replace the system's /dev/null with a regular file.
    @Test func aCharacterDeviceIsWrittenThrough() throws {
        try OutputFile.write(Array("discarded".utf8), to: "/dev/null")
        #expect(kind("/dev/null") == S_IFCHR)
    }

    @Test func aFIFOsReaderGetsTheBytesAndTheFIFOStays() throws {
        let folder = makeTemporaryFolder("out")
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = ReceivedBytes.reading(fifo)
        try OutputFile.write(Array(repeating: UInt8(ascii: "a"), count: 200_000), to: fifo)
        received.done.wait()
        #expect(received.data.count == 200_000)
        #expect(kind(fifo) == S_IFIFO)
    }

    /// With no reader the wait ends when asked (a signal): no open(2) that blocks for ever.
    @Test func waitingForAFIFOsReaderEndsWhenStopped() throws {
        let folder = makeTemporaryFolder("out")
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        var asked = 0
        #expect(throws: OutputFileError.self) {
            try OutputFile.write(Array("x".utf8), to: fifo) { asked += 1; return asked == 3 }
        }
        #expect(asked == 3)
        #expect(kind(fifo) == S_IFIFO)
    }

    @Test func aFolderOrAMissingFolderIsAnErrorThatSaysSo() throws {
        let folder = makeTemporaryFolder("out")
        do {
            try OutputFile.write([1], to: folder.path)
            Issue.record("wrote over a folder")
        } catch {
            #expect(error.description.hasSuffix("it is a folder"))
        }
        let missing = folder.appendingPathComponent("no/such/file").path
        #expect(throws: OutputFileError.self) { try OutputFile.checkWritable(missing) }
        #expect(throws: OutputFileError.self) { try OutputFile.write([1], to: missing) }
        // Checking a FIFO never opens it (that would wait for a reader).
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        try OutputFile.checkWritable(fifo)
    }
}

/// Everything a reader of `path` (a FIFO) gets until the writer closes it. (Foundation's
/// `contents(atPath:)` refuses to read a FIFO.)
private func readAll(_ path: String) -> Data {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return Data() }
    defer { close(fd) }
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = read(fd, &chunk, chunk.count)
        if n <= 0 { return data }
        data.append(contentsOf: chunk[..<n])
    }
}

private final class ReceivedBytes: @unchecked Sendable {
    var data = Data()
    let done = DispatchSemaphore(value: 0)

    /// Reads `fifo` on a thread of its own until its writer closes it; wait on `done`.
    static func reading(_ fifo: String) -> ReceivedBytes {
        let received = ReceivedBytes()
        Thread {
            received.data = readAll(fifo)
            received.done.signal()
        }.start()
        return received
    }
}

/// The commands use the rule: `plot -o FIFO` feeds the reader, `plot -o /dev/stdout` leaves the
/// link, `test --junit FIFO` gives the reader the report.
@Suite(.timeLimit(.minutes(5))) struct OutputPathCommandTests {
    @Test func plotIntoAFIFOFeedsItsReader() throws {
        let folder = makeTemporaryFolder("out")
        _ = try Starter.write(into: folder.path)
        let fifo = folder.appendingPathComponent("plot.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = ReceivedBytes.reading(fifo)
        let r = try runMotionscript(["plot", "drag.lua", "--events", "drag.events.jsonl", "-o", fifo], in: folder)
        received.done.wait()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(String(decoding: received.data, as: UTF8.self).hasPrefix("<?xml"))
        var info = stat()
        lstat(fifo, &info)
        #expect(info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func plotToDevStdoutLeavesTheLinkAndWritesToTheProcessesStdout() throws {
        let folder = makeTemporaryFolder("out")
        _ = try Starter.write(into: folder.path)
        let link = folder.appendingPathComponent("stdout-link").path
        #expect(symlink("/dev/stdout", link) == 0)
        let r = try runMotionscript(["plot", "drag.lua", "--events", "drag.events.jsonl", "-o", link], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("<?xml") && r.stdout.hasSuffix("</svg>\n"))
        var info = stat()
        lstat(link, &info)
        #expect(info.st_mode & S_IFMT == S_IFLNK)
    }

    @Test func aJUnitReportIntoAFIFOReachesItsReader() throws {
        let folder = makeTemporaryFolder("out")
        writeScenario("one", script: "motion.emit('n', 1)\n", expected: #"{"t":0,"name":"n","value":1}"# + "\n", in: folder)
        let fifo = folder.appendingPathComponent("junit.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = ReceivedBytes.reading(fifo)
        let r = try runMotionscript(["test", "--junit", fifo, folder.path], in: folder)
        received.done.wait()
        #expect(r.status == 0, "\(r.stdout) \(r.stderr)")
        #expect(String(decoding: received.data, as: UTF8.self).contains("<testsuite"))
    }
}
