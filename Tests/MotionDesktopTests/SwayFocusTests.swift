import Foundation
import Testing
import MotionGestures
@testable import MotionDesktop

private func frame(_ type: UInt32, _ json: String) -> [UInt8] { SwayIPC.message(type: type, payload: json) }

/// sway/i3 IPC (docs/desktop.md, "Per-application gestures").
@Suite struct SwayFocusTests {
    static let tree = """
        {"type":"root","focused":false,"nodes":[{"type":"output","nodes":[{"type":"workspace","focused":false,
        "nodes":[{"type":"con","focused":false,"app_id":"foot","name":"a"},
                 {"type":"con","focused":true,"app_id":null,"name":"Mozilla \\"Firefox\\"","pid":321,
                  "window_properties":{"class":"firefox","instance":"Navigator"}}],"floating_nodes":[]}]}]}
        """

    @Test func theDecoderTakesWholeMessagesHoweverTheBytesAreSplit() throws {
        let bytes = frame(SwayIPC.getTree, "{\"a\":1}") + frame(SwayIPC.windowEvent, "[2]")
        for split in 0...bytes.count {
            var decoder = SwayIPC.Decoder()
            var messages: [String] = []
            decoder.append(Array(bytes[..<split]))
            while let m = try decoder.next() { messages.append("\(m.type):\(String(decoding: m.payload, as: UTF8.self))") }
            decoder.append(Array(bytes[split...]))
            while let m = try decoder.next() { messages.append("\(m.type):\(String(decoding: m.payload, as: UTF8.self))") }
            #expect(messages == ["4:{\"a\":1}", "2147483651:[2]"], "split at \(split)")
        }
        var bad = SwayIPC.Decoder()
        bad.append(Array("i3-ipX".utf8) + [UInt8](repeating: 0, count: 8))
        #expect(throws: FocusError.self) { try bad.next() }
    }

    @Test func theTreeGivesTheFocusedWindowAnX11OneByItsClass() throws {
        let app = try SwayFocusSource.focus(in: (SwayIPC.getTree, Array(Self.tree.utf8)))
        #expect(app == .some(AppInfo(id: "firefox", className: "firefox", instance: "Navigator", title: "Mozilla \"Firefox\"", pid: 321)))
        // A focused workspace: no window.
        let empty = try SwayFocusSource.focus(in: (SwayIPC.getTree, Array(#"{"type":"root","nodes":[{"type":"workspace","focused":true,"nodes":[]}]}"#.utf8)))
        #expect(empty == .some(nil))
    }

    /// sway passes on a title's bytes as the client set them (an X11 window's may be Latin-1):
    /// the strict JSON reader would refuse the reply, so it is decoded with U+FFFD first, as the
    /// tree reader did itself before it shared the one grammar.
    @Test func aTitleThatIsNotUTF8ReadsWithTheReplacementCharacter() throws {
        let json = Array(#"{"change":"focus","container":{"app_id":"xterm","name":"caf"#.utf8) + [0xE9]
            + Array(#"","focused":true}}"#.utf8)
        #expect(try SwayFocusSource.focus(in: (SwayIPC.windowEvent, json)) == .some(AppInfo(id: "xterm", title: "caf\u{FFFD}")))
    }

    @Test func windowEventsTellFocusTitlesOfTheFocusedWindowAndItsClose() throws {
        func change(_ json: String) throws -> AppInfo?? { try SwayFocusSource.focus(in: (SwayIPC.windowEvent, Array(json.utf8))) }
        #expect(try change(#"{"change":"focus","container":{"app_id":"foot","name":"~","pid":9,"focused":true}}"#)
                == .some(AppInfo(id: "foot", title: "~", pid: 9)))
        #expect(try change(#"{"change":"title","container":{"app_id":"foot","name":"vim","focused":true}}"#)?.map(\.title) == .some("vim"))
        #expect(try change(#"{"change":"title","container":{"app_id":"foot","name":"vim","focused":false}}"#) == nil)
        #expect(try change(#"{"change":"close","container":{"app_id":"foot","focused":true}}"#) == .some(nil))
        #expect(try change(#"{"change":"new","container":{"app_id":"foot","focused":false}}"#) == nil)
        #expect(throws: FocusError.self) { try change("[1]") }
    }

    @Test func theTrackerAsksForTheTreeSubscribesAndReconnectsAfterARestart() throws {
        let server = try FakeSocketServer(path: temporarySocketPath("sway"))
        var clock = 0.0
        var warnings: [String] = []
        let tracker = FocusTracker(source: SwayFocusSource(path: server.path), diagnostics: { warnings.append($0) }, now: { clock })
        #expect(tracker.poll() == [])
        #expect(tracker.isConnected)
        let client = server.accept()
        let expected = frame(SwayIPC.getTree, "") + frame(SwayIPC.subscribe, #"["window"]"#)
        #expect(server.read(client, count: expected.count) == expected)
        server.send(client, frame(SwayIPC.getTree, Self.tree) + frame(SwayIPC.subscribe, #"{"success":true}"#))
        #expect(pollChanges { tracker.poll().map { $0?.id } } == ["firefox"])
        server.send(client, frame(SwayIPC.windowEvent, #"{"change":"focus","container":{"app_id":"foot","focused":true}}"#))
        #expect(pollChanges { tracker.poll().map { $0?.id } } == ["foot"])
        // The compositor exits: a warning, the last focus kept, retries while it is away.
        server.stop()
        _ = pollChanges { _ = tracker.poll(); return tracker.isConnected ? [] : [nil] }
        #expect(!tracker.isConnected)
        #expect(tracker.current?.id == "foot")
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("warning: sway: connection lost: ") == true)
        clock += 10
        #expect(tracker.poll() == [])  // still away: no second warning
        #expect(warnings.count == 1)
        #expect(tracker.nextWakeTime == 10.5)  // the delay doubled
        // It comes back: the next attempt connects and the new tree tells the focus.
        try server.listen()
        clock += 1
        _ = tracker.poll()
        #expect(tracker.isConnected)
        let again = server.accept()
        #expect(server.read(again, count: expected.count) == expected)
        server.send(again, frame(SwayIPC.getTree, #"{"type":"root","nodes":[{"type":"con","focused":true,"app_id":"kitty"}]}"#))
        #expect(pollChanges { tracker.poll().map { $0?.id } } == ["kitty"])
        #expect(warnings.last == "motionscript: sway: connected again; following the focused application")
    }

    @Test func noCompositorIsAWarningAndNoFocus() {
        var warnings: [String] = []
        let tracker = FocusTracker(source: SwayFocusSource(path: "/nonexistent/sway.sock"), diagnostics: { warnings.append($0) }, now: { 0 })
        #expect(tracker.poll() == [])
        #expect(!tracker.isKnown)
        #expect(warnings == ["warning: sway: cannot connect to /nonexistent/sway.sock: No such file or directory; retrying (recognizers with 'apps' keep the last focus known)"])
    }
}
