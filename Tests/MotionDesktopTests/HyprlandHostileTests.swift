import Foundation
import Testing
import MotionGestures
@testable import MotionDesktop
#if canImport(Glibc)
import Glibc
#endif

/// A Hyprland that misbehaves must not stall input (docs/desktop.md): an event socket that
/// closes at once, a request socket that is slow to answer, a flood of focus changes.
@Suite(.timeLimit(.minutes(2))) struct HyprlandHostileTests {
    func makeDirectory() throws -> String {
        let directory = "/tmp/ms-hypr-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The event socket accepts and closes at once, again and again: the retries back off (the
    /// connection never lasted) and the log says it once.
    @Test func aSocketThatClosesAtOnceBacksOffAndIsSaidOnce() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let events = try FakeSocketServer(path: directory + "/.socket2.sock")
        var clock = 0.0
        var warnings: [String] = []
        let tracker = FocusTracker(source: HyprlandFocusSource(directory: directory), diagnostics: { warnings.append($0) }, now: { clock })
        var delays: [Double] = []
        for _ in 0..<8 {
            _ = tracker.poll()
            #expect(tracker.isConnected)
            events.hangUp(events.accept())
            _ = tracker.poll()  // reads the end of the connection
            #expect(!tracker.isConnected)
            let next = try #require(tracker.nextWakeTime)
            delays.append(next - clock)
            clock = next
        }
        #expect(delays == [0.25, 0.5, 1, 2, 2, 2, 2, 2])
        #expect(warnings.count == 1, "\(warnings)")
        // A connection that lasts 5 s counts as back: its loss is said again, retried at once.
        _ = tracker.poll()
        let lasting = events.accept()
        #expect(tracker.nextWakeTime == clock + 5)
        clock += 5
        _ = tracker.poll()
        events.hangUp(lasting)
        _ = pollChanges { _ = tracker.poll(); return tracker.isConnected ? [] : [nil] }
        #expect(warnings.count == 2)
        #expect(tracker.nextWakeTime == clock + 0.25)
    }

    /// The focus at connection is asked on the request socket without waiting for the answer:
    /// the answer is read when it comes, whenever that is.
    @Test func theFocusAtConnectionIsReadWhenTheAnswerComes() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let events = try FakeSocketServer(path: directory + "/.socket2.sock")
        let requests = try FakeSocketServer(path: directory + "/.socket.sock")
        let tracker = FocusTracker(source: HyprlandFocusSource(directory: directory), diagnostics: { _ in }, now: { 0 })
        #expect(tracker.poll().isEmpty)
        #expect(tracker.isConnected)
        events.accept()
        // Hyprland answers now, after the tracker went back to its loop.
        let request = requests.accept()
        #expect(requests.read(request, count: 14) == Array("j/activewindow".utf8))
        requests.send(request, Array(#"{"class":"firefox","title":"Home"}"#.utf8))
        requests.hangUp(request)
        #expect(pollChanges { tracker.poll().map { $0?.id } } == ["firefox"])
    }

    /// 50,000 focus changes arrive at once: one wake-up reads a bounded amount and reports the
    /// last focus it read (the ones before it were already past); the rest comes at later wake-ups.
    @Test func aFloodOfFocusChangesIsReadABoundedAmountAtATime() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let events = try FakeSocketServer(path: directory + "/.socket2.sock")
        let tracker = FocusTracker(source: HyprlandFocusSource(directory: directory), diagnostics: { _ in }, now: { 0 })
        _ = tracker.poll()
        let client = events.accept()
        let finished = DispatchSemaphore(value: 0)
        let writer = Thread {
            var text = ""
            for i in 0..<50_000 { text += "activewindow>>app\(i),t\n" }
            let bytes = Array(text.utf8)
            var done = 0
            while done < bytes.count {
                let n = bytes.withUnsafeBytes { send(client, $0.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }
                done += n
            }
            events.hangUp(client)
            finished.signal()
        }
        writer.start()
        // The writer sends on `client` until it is done: the test ends only after it, never
        // leaving it to write into a descriptor the server's `stop` closed and someone reused.
        defer {
            events.shutDown(client)
            finished.wait()
        }
        var perWakeUp: [Int] = []
        var last: String?
        for _ in 0..<10_000 {
            var pfd = pollfd(fd: tracker.fileDescriptor ?? -1, events: Int16(POLLIN), revents: 0)
            guard tracker.isConnected, poll(&pfd, 1, 5000) > 0 else { break }
            let changes = tracker.poll()
            if !changes.isEmpty { last = changes.last!?.id }
            perWakeUp.append(changes.count)
        }
        #expect(perWakeUp.allSatisfy { $0 <= 1 }, "changes reported per wake-up: at most \(perWakeUp.max() ?? 0)")
        #expect(perWakeUp.count > 10, "the flood took several wake-ups")
        #expect(last == "app49999")
    }
}
