import Foundation
import MotionGestures
import MotionPluginHost
import Testing

/// What `ctl status` and the lifecycle say of a plugin's versions: a new version starts with
/// no errors of its own; a version `check` finds certain to fail does not replace one that works.
@Suite struct VersionStatusTests {
    @Test func aNewVersionStartsWithoutTheErrorsOfTheOneBefore() throws {
        let config = TestConfig(["a.lua": echoPlugin])
        let (host, _) = config.host()
        host.loadAll()
        config.write("a.lua", #"motion.pointers():subscribe(function(p) error("boom " .. p.phase) end)"#)
        host.filesChanged([config.file("a.lua")])
        host.run(taps(1), finish: false)
        let two = try #require(host.status().first)
        #expect(two.version == 2)
        #expect(two.errors == 2)
        #expect(two.lastError?.contains("boom up") == true)
        config.write("a.lua", echoPlugin + "\n-- fixed")
        host.filesChanged([config.file("a.lua")])
        let three = try #require(host.status().first)
        #expect(three.version == 3)
        #expect(three.state == .running)
        #expect(three.errors == 0)
        #expect(three.lastError == nil)
    }

    @Test func aVersionWithAnUnknownKeyNameDoesNotReplaceAWorkingOne() throws {
        let config = TestConfig(["a.lua": echoPlugin])
        let (host, diagnostics) = config.host()
        host.loadAll()
        config.write("a.lua", """
            motion.pointers():subscribe(function(p) motion.emit("v2", p.phase) end)
            motion.gesture(motion.tap{}):subscribe(function(g) if g.state == "ended" then motion.keys("ctrll+t") end end)
            """)
        host.filesChanged([config.file("a.lua")])
        host.run(taps(1), finish: false)
        let path = config.file("a.lua")
        let lines = host.lines(of: "a")
        #expect(lines.count == 4, "\(lines)")
        #expect(lines[1].hasPrefix(#"{"t":0,"plugin":"a","status":"failed","version":1,"error":"\#(path):2: motion.keys(\"ctrll+t\"): unknown key name 'ctrll'"#), "\(lines[1])")
        #expect(lines[1].hasSuffix(#"(check: this call would fail each time it runs)"}"#))
        // Version 1 runs on.
        #expect(Array(lines[2...]) == [#"{"t":0,"plugin":"a","name":"p","value":"down"}"#,
                                       #"{"t":0.05,"plugin":"a","name":"p","value":"up"}"#])
        #expect(diagnostics.lines.contains("a: the new version did not load; version 1 keeps running"))
        let status = try #require(host.status().first)
        #expect(status.state == .running)
        #expect(status.version == 1)
        #expect(status.errors == 1)
        #expect(status.lastError?.contains("unknown key name 'ctrll'") == true)
    }

    /// With no version running, such a version loads: its other gestures work.
    @Test func withNoVersionRunningAVersionWithAnUnknownKeyNameLoads() throws {
        let config = TestConfig(["a.lua": #"motion.gesture(motion.tap{}):subscribe(function(g) if g.state == "ended" then motion.keys("ctrll+t") end end)"#])
        let (host, _) = config.host()
        host.loadAll()
        #expect(host.status().first?.state == .running)
        #expect(host.status().first?.version == 1)
    }
}
