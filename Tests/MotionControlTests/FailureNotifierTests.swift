import XCTest
import Foundation
import MotionActions
import MotionControl
import MotionDaemon
import MotionPluginHost
#if canImport(Glibc)
import Glibc
#endif

/// `daemon --notify`: notify-send (a fake one on PATH here) for a failing plugin, at most once
/// a plugin a minute; without notify-send, one warning in the log.
final class FailureNotifierTests: XCTestCase {
    func testAFailingPluginNotifiesAtMostOnceAMinute() throws {
        let dir = NSTemporaryDirectory() + "notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Each call writes a file of its own (calls run concurrently), whole: written aside and
        // renamed, so a call read while its shell is between two arguments is not taken as done.
        try "#!/bin/sh\nfor a in \"$@\"; do printf '%s|' \"$a\"; done > \"\(dir)/part-$$\" && mv \"\(dir)/part-$$\" \"\(dir)/call-$$\"\n"
            .write(toFile: dir + "/notify-send", atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(dir + "/notify-send", 0o755), 0)
        nonisolated(unsafe) var t = 100.0
        var log: [String] = []
        let notifier = FailureNotifier(searchPath: "/nonexistent:\(dir)", launcher: ProcessLauncher(), now: { t }) { log.append($0) }
        notifier.pluginFailed("swipe", "swipe.lua:3: boom\nstack traceback:\n\t[C]: in ?")
        t = 130
        notifier.pluginFailed("swipe", "swipe.lua:3: again")  // within the minute: none
        notifier.pluginFailed("tap", "tap.lua:1: bad")
        t = 161
        notifier.pluginFailed("swipe", "swipe.lua:4: later")
        XCTAssertEqual(notifier.sent, 3)
        XCTAssertEqual(log, [])
        // The children write as they run: wait for them (a bound, not an ordering).
        var calls: [String] = []
        for _ in 0..<1000 {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("call-") }) ?? []
            calls = names.compactMap { try? String(contentsOfFile: dir + "/" + $0, encoding: .utf8) }
            if calls.count == 3, calls.allSatisfy({ $0.hasSuffix("|") }) { break }
            usleep(10_000)
        }
        XCTAssertEqual(calls.sorted(), [
            "--app-name=motionscript|--urgency=critical|--|motionscript: the plugin swipe failed|swipe.lua:3: boom|",
            "--app-name=motionscript|--urgency=critical|--|motionscript: the plugin swipe failed|swipe.lua:4: later|",
            "--app-name=motionscript|--urgency=critical|--|motionscript: the plugin tap failed|tap.lua:1: bad|",
        ])
    }

    func testWithoutNotifySendTheLogSaysSoOnce() {
        var log: [String] = []
        let notifier = FailureNotifier(searchPath: "/nonexistent", launcher: ProcessLauncher(), now: { 0 }) { log.append($0) }
        notifier.pluginFailed("swipe", "boom")
        notifier.pluginFailed("tap", "bad")
        XCTAssertEqual(notifier.sent, 0)
        XCTAssertEqual(log, ["warning: --notify: notify-send is not found in PATH; no desktop notification (install libnotify-bin)"])
    }

    /// The router tells of a plugin that failed to load, with its error.
    func testTheRouterTellsOfAFailedPlugin() throws {
        let folder = NSTemporaryDirectory() + "notify-host-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "error('boom at setup')\n".write(toFile: folder + "/a.lua", atomically: true, encoding: .utf8)
        try "motion.pointers():subscribe(function() end)\n".write(toFile: folder + "/b.lua", atomically: true, encoding: .utf8)
        let router = OutputRouter(.memory)
        var failures: [String] = []
        router.onPluginFailure = { failures.append("\($0): \($1)") }
        router.diagnostics = { _ in }
        let host = PluginHost(folder: try ConfigFolder(folder), options: RunOptions(scriptPath: ""), router: router,
                              defaults: PluginLimits(timeout: 1, memoryMiB: 16))
        host.loadAll()
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.hasPrefix("a: ") == true && failures.first?.contains("a.lua:1: boom at setup") == true, "\(failures)")
    }
}
