import Testing
import Foundation
import MotionTestSupport
#if canImport(Glibc)
import Glibc
#endif
@testable import MotionInput

/// The input hub's wait on the kernel's ready list keeps what `ppoll` did: ready entries in the
/// order given, regular files always ready, a closed descriptor named when the wait is set up,
/// and a wait with nothing ready ends at its timeout.
@Suite(.timeLimit(.minutes(5))) struct ReadySetTests {
    private func pipe() -> [Int32] {
        var fds: [Int32] = [-1, -1]
        #expect(pipeClosingOnExec(&fds) == 0)
        return fds
    }

    @Test func readyEntriesComeInTheOrderGivenAndRegularFilesAreAlwaysReady() throws {
        let a = pipe(), b = pipe()
        defer { for fd in a + b { close(fd) } }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ready-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        defer { unlink(path) }
        let file = open(path, O_RDONLY | O_CLOEXEC)
        #expect(file >= 0)
        defer { close(file) }
        let set = ReadySet(capacity: 1)  // grows to the entries given
        defer { set.close() }
        let closed = try set.reset([(a[0], Int16(POLLIN), 0), (file, Int16(POLLIN), 1), (b[0], Int16(POLLIN), 2)])
        #expect(closed.isEmpty)
        // Only the file: ready at once, though the wait may last 5 s.
        #expect(set.wait(seconds: 5) == 1)
        #expect(set.ready.map(\.data) == [1])
        var byte: UInt8 = 7
        #expect(write(b[1], &byte, 1) == 1)
        #expect(write(a[1], &byte, 1) == 1)
        #expect(set.wait(seconds: 5) == 3)
        #expect(set.ready.map(\.data) == [0, 1, 2])
        #expect(set.ready.allSatisfy { $0.events & Int16(POLLIN) != 0 })
        // Level-triggered: what is not read is ready again.
        #expect(set.wait(seconds: 0) == 3)
        #expect(read(a[0], &byte, 1) == 1)
        #expect(set.wait(seconds: 0) == 2)
        #expect(set.ready.map(\.data) == [1, 2])
    }

    @Test func aClosedDescriptorIsNamedWhenTheWaitIsSetUpAndNothingReadyWaitsItsTimeout() throws {
        let a = pipe()
        defer { close(a[0]); close(a[1]) }
        // A high number, closed: tests running meanwhile open the lowest free ones, and the
        // suite's other high number starts at 900, so it is never this one reopened.
        let gone = fcntl(a[0], F_DUPFD_CLOEXEC, 950)
        #expect(gone >= 950)
        close(gone)
        let set = ReadySet()
        defer { set.close() }
        #expect(try set.reset([(a[0], Int16(POLLIN), 4), (gone, Int16(POLLIN), 9)]) == [9])
        let start = Date()
        #expect(set.wait(seconds: 0.05) == 0)
        #expect(Date().timeIntervalSince(start) >= 0.05)
        #expect(set.ready.isEmpty)
    }

    /// A watched descriptor closed without `unwatch` is dropped with a diagnostic when the set's
    /// wait is next set up (the kernel forgets a closed descriptor without a word).
    @Test func aWatchedDescriptorClosedWithoutUnwatchIsSaid() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ready-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("events").path
        #expect(mkfifo(fifo, 0o600) == 0)
        var said: [String] = []
        let set = try LiveDeviceSet(selectors: [.path(fifo)]) { said.append($0) }
        defer { set.close() }
        let ends = pipe()
        defer { close(ends[0]); close(ends[1]) }
        // A high number: tests running meanwhile open the lowest free ones, not this one once closed.
        let watched = fcntl(ends[0], F_DUPFD_CLOEXEC, 900)
        #expect(watched >= 900)
        set.loop.register(fd: watched) {}
        #expect(try set.nextFrame(timeout: 0) == .timeout)
        let other = pipe()
        defer { close(other[0]); close(other[1]) }
        close(watched)
        set.loop.register(fd: other[0]) {}  // the set changes: its wait is set up again
        #expect(try set.nextFrame(timeout: 0) == .timeout)
        #expect(said == ["motionscript: descriptor \(watched) was closed without being unwatched; no longer waited on"])
        #expect(set.loop.registeredDescriptors == [other[0]])
    }
}
