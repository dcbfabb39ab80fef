import XCTest
import Foundation
import MotionCheck

final class PluginCheckTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Fixtures/check"
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path + "/examples"

    func testEveryMistakeIsFoundWithItsPlace() throws {
        let plugins = try PluginCheck.plugins(in: [Self.fixtures])
        XCTAssertEqual(plugins.map { URL(fileURLWithPath: $0).lastPathComponent }, ["a.lua", "b.lua", "c.lua", "d.lua", "e.lua"])
        let report = PluginCheck.check(plugins)
        let f = Self.fixtures
        XCTAssertEqual(report.findings.map(\.description), [
            "\(f)/a.lua:3: error: motion.keys(\"ctlr+alt+Left\"): unknown key name 'ctlr'; did you mean calc, ctrl? (key names are those of linux/input-event-codes.h with or without KEY_, e.g. LEFTCTRL, Right, a, 1, F5, or ctrl, alt, shift, super)",
            "\(f)/a.lua:7: error: motion.mouse.button(\"lefty\"): unknown mouse button 'lefty' (buttons: left, right, middle, side, extra, forward, back)",
            "\(f)/a.lua:6: warning: motion.exec: 'no-such-program' is not found in PATH (it would fail when the gesture fires)",
            "\(f)/a.lua:5: warning: duration 500 is 500 seconds: durations are in seconds (for 500 ms write 0.5)",
            // The runtime's own warning (messages), said once with the text check's.
            "\(f)/b.lua:5: warning: delay is 300 s, over a minute: time options are in seconds (0.3 if you meant milliseconds)",
            "\(f)/b.lua:1: warning: swipe fingers=3 direction=left is also bound by \(f)/a.lua:1: both plugins act on the same gesture",
            "\(f)/c.lua:1: error: unexpected symbol near '='",
            "\(f)/d.lua:1: error: boom at setup",
            "\(f)/e.lua:1: warning: a stream built here is never subscribed: nothing flows until s:subscribe(…) or s:emit(name)",
        ])
        XCTAssertEqual(report.errors, 4)
        XCTAssertEqual(report.warnings, 5)
    }

    func testTheExamplesPass() throws {
        let report = PluginCheck.check(try PluginCheck.plugins(in: [Self.examples]))
        XCTAssertEqual(report.plugins.count, 10)  // examples/*.lua, per-app.lua and the proxy's two included
        XCTAssertEqual(report.errors, 0, report.findings.map(\.description).joined(separator: "\n"))
    }

    /// Bindings of one gesture for applications that cannot both have the focus (`apps =`) do
    /// not conflict; the same application, or a binding for every application, do.
    func testConflictsHonourApps() throws {
        let folder = NSTemporaryDirectory() + "check-apps-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plugins = [
            "p1": #"apps = "firefox""#, "p2": #"apps = { "kitty", "foot" }"#, "p3": "apps = 'Firefox'", "p4": "", "p5": #"apps = "!firefox""#,
        ]
        for (name, apps) in plugins {
            let options = ["fingers = 4", #"direction = "up""#, apps].filter { !$0.isEmpty }.joined(separator: ", ")
            try "motion.gesture(motion.swipe{ \(options) }):subscribe(function() end)\n"
                .write(toFile: "\(folder)/\(name).lua", atomically: true, encoding: .utf8)
        }
        let report = PluginCheck.check(try PluginCheck.plugins(in: [folder]))
        XCTAssertEqual(report.findings.map(\.description), [
            "\(folder)/p3.lua:1: warning: swipe fingers=4 direction=up is also bound by \(folder)/p1.lua:1: both plugins act on the same gesture",
            "\(folder)/p4.lua:1: warning: swipe fingers=4 direction=up is also bound by \(folder)/p1.lua:1: both plugins act on the same gesture",
            "\(folder)/p5.lua:1: warning: swipe fingers=4 direction=up is also bound by \(folder)/p2.lua:1: both plugins act on the same gesture",
        ])
    }
}
