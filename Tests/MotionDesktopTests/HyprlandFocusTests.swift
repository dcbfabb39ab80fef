import Foundation
import Testing
import MotionGestures
@testable import MotionDesktop

/// Hyprland's event socket (docs/desktop.md, "Per-application gestures"): no Hyprland runs
/// headless here, so its parser and reconnection are checked against a fake socket.
@Suite struct HyprlandFocusTests {
    @Test func activeWindowLinesSplitAtTheFirstCommaWhateverTheReads() throws {
        let text = "workspace>>2\nactivewindow>>kitty,~/src, the code\nactivewindowv2>>5a3e\nactivewindow>>,\n"
        let bytes = Array(text.utf8)
        for split in 0...bytes.count {
            var events = HyprlandEvents()
            try events.append(Array(bytes[..<split]))
            var changes = events.focusChanges()
            try events.append(Array(bytes[split...]))
            changes += events.focusChanges()
            #expect(changes.map { $0.map { "\($0.id)|\($0.title ?? "")" } } == ["kitty|~/src, the code", nil], "split at \(split)")
        }
    }

    @Test func theActiveWindowReplyGivesTheFocusAtConnection() throws {
        let app = try HyprlandFocusSource.parseActiveWindow(Array(#"{"address":"0x1","class":"firefox","title":"Home","pid":77}"#.utf8))
        #expect(app == AppInfo(id: "firefox", className: "firefox", title: "Home", pid: 77))
        #expect(try HyprlandFocusSource.parseActiveWindow(Array("{}".utf8)) == nil)
        #expect(throws: FocusError.self) { try HyprlandFocusSource.parseActiveWindow(Array("Invalid".utf8)) }
    }

    @Test func theTrackerFollowsTheEventSocketAndReconnects() throws {
        let directory = "/tmp/ms-hypr-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let events = try FakeSocketServer(path: directory + "/.socket2.sock")
        var clock = 0.0
        var warnings: [String] = []
        let tracker = FocusTracker(source: HyprlandFocusSource(directory: directory), diagnostics: { warnings.append($0) }, now: { clock })
        _ = tracker.poll()  // no request socket: the focus at connection stays unknown
        #expect(tracker.isConnected)
        let client = events.accept()
        events.send(client, Array("activewindow>>foot,~\n".utf8))
        #expect(pollChanges { tracker.poll().map { $0?.id } } == ["foot"])
        events.stop()
        _ = pollChanges { _ = tracker.poll(); return tracker.isConnected ? [] : [nil] }
        #expect(warnings.count == 1)
        try events.listen()
        clock += 1
        _ = tracker.poll()
        let again = events.accept()
        events.send(again, Array("activewindow>>firefox,Home\n".utf8))
        #expect(pollChanges { tracker.poll().map { $0?.id } } == ["firefox"])
    }
}
