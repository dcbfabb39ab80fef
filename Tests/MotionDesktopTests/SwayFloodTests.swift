import Foundation
import Testing
import MotionGestures
@testable import MotionDesktop
#if canImport(Glibc)
import Glibc
#endif

/// sway sends focus changes faster than the loop wakes: one wake-up reads a bounded amount and
/// hands on the last focus among what it read, so input is read in between.
@Suite(.timeLimit(.minutes(2))) struct SwayFloodTests {
    @Test func aFullSocketOfFocusChangesIsReadABoundedAmountAtATime() throws {
        let server = try FakeSocketServer(path: temporarySocketPath("sway-flood"))
        let tracker = FocusTracker(source: SwayFocusSource(path: server.path), diagnostics: { _ in }, now: { 0 })
        _ = tracker.poll()
        let client = server.accept()
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        // The socket filled with focus events before the loop wakes.
        var written = 0
        while true {
            // 50 messages a send (the kernel counts its buffer per send as well as per byte).
            let batch = (written..<written + 50).flatMap {
                SwayIPC.message(type: SwayIPC.windowEvent, payload: #"{"change":"focus","container":{"app_id":"app\#($0)","focused":true}}"#)
            }
            let n = batch.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            guard n == batch.count else {
                #expect(n <= 0, "a send is all or nothing here")
                break
            }
            written += 50
        }
        #expect(written > 1000)
        var perWakeUp: [Int] = []
        var last: String?
        for _ in 0..<10_000 {
            var pfd = pollfd(fd: tracker.fileDescriptor ?? -1, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 0) > 0 else { break }
            let changes = tracker.poll()
            if let change = changes.last { last = change?.id }
            perWakeUp.append(changes.count)
        }
        #expect(perWakeUp.allSatisfy { $0 <= 1 }, "changes per wake-up: at most \(perWakeUp.max() ?? 0)")
        #expect(perWakeUp.count > 3)
        #expect(last == "app\(written - 1)")
    }
}
