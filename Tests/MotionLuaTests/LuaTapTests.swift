import Testing
import MotionGestures
@testable import MotionLua

/// motion.tap, motion.tapSource and require-to-fail through Lua (seed 003, reference.md).
@Suite struct LuaTapTests {
    @Test func tapGestureValuesAndTapSourceLocationInAnElement() throws {
        let (runtime, output) = try loadedRuntime("""
            local e = motion.element{x = 100, y = 100, width = 100, height = 100}
            local tap = motion.tap{element = e, maxMovement = 10}
            motion.gesture(tap):subscribe(function(g)
                if g.state == "recognized" then motion.emit("g", {g.kind, g.taps, g:location(e)}) end
            end)
            motion.tapSource(tap):emit("tap")
            motion.tapSource(tap, motion.screen):emit("screen")
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 110, 120)))
        try runtime.handle(frame(0.1, (1, .up, 113, 124)))  // moved 5: within 10
        try runtime.handle(frame(0.5, (2, .down, 50, 50)))  // outside the element
        try runtime.handle(frame(0.6, (2, .up, 50, 50)))
        #expect(output.lines == [
            "0.1 g [\"tap\",1,{\"x\":13,\"y\":24}]",
            "0.1 tap state active", "0.1 tap {\"x\":13,\"y\":24}", "0.1 tap state atRest",
            "0.1 screen state active", "0.1 screen {\"x\":113,\"y\":124}", "0.1 screen state atRest",
        ])
    }

    @Test func tapFailsWhenHeldTooLongOrMovedTooFar() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.gesture(motion.tap{maxDuration = 0.2, maxMovement = 5}):subscribe(function(g)
                if g.state ~= "possible" then motion.emit("s", {g.state, g.t}) end
            end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 0, 0)))
        try runtime.handle(frame(0.5, (1, .up, 0, 0)))      // held 0.5 > 0.2: failed at 0.2
        try runtime.handle(frame(1, (2, .down, 0, 0)))
        try runtime.handle(frame(1.05, (2, .move, 6, 0)))   // moved 6 > 5
        try runtime.handle(frame(1.1, (2, .up, 6, 0)))
        try runtime.handle(frame(2, (3, .down, 0, 0)))
        try runtime.handle(frame(2.2, (3, .up, 3, 4)))      // 0.2 and 5: both bounds inclusive
        #expect(output.lines == ["0.2 s [\"failed\",0.2]", "1.05 s [\"failed\",1.05]", "2.2 s [\"recognized\",2.2]"])
    }

    @Test(arguments: ["single:requireToFail(double)", "-- the option", "single:requireToFail(double):requireToFail(double)"])
    func singleTapWaitsForTheDoubleTapToFail(spelling: String) throws {
        let option = spelling == "-- the option" ? "requireToFail = double" : ""
        let (runtime, output) = try loadedRuntime("""
            double = motion.tap{taps = 2, interval = 0.25}
            single = motion.tap{\(option)}
            \(spelling)
            motion.tapSource(single):subscribe(function(p) motion.emit("single", p) end)
            motion.tapSource(double):subscribe(function(p) motion.emit("double", p) end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 10, 10)))
        try runtime.handle(frame(0.1, (1, .up, 10, 10)))
        try runtime.handle(frame(1, (2, .down, 20, 20)))   // the double tap failed at 0.35
        try runtime.handle(frame(1.1, (2, .up, 20, 20)))
        try runtime.handle(frame(1.2, (3, .down, 22, 20)))
        try runtime.handle(frame(1.3, (3, .up, 22, 20)))   // double tap: the single one fails
        try runtime.handle(frame(2, (4, .down, 30, 30)))
        try runtime.handle(frame(2.1, (4, .up, 30, 30)))
        #expect(output.lines == ["0.35 single {\"x\":10,\"y\":10}", "1.3 double {\"x\":22,\"y\":20}"])
        // The end of input settles the last tap: the double tap fails at 2.1 + 0.25.
        try runtime.finish()
        #expect(output.lines.last == "2.35 single {\"x\":30,\"y\":30}")
    }

    @Test func withoutRequireToFailBothRecognizeIndependently() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.tapSource(motion.tap{taps = 2}):subscribe(function(p) motion.emit("double", p.x) end)
            motion.tapSource(motion.tap{}):subscribe(function(p) motion.emit("single", p.x) end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 10, 10)))
        try runtime.handle(frame(0.1, (1, .up, 10, 10)))
        try runtime.handle(frame(0.2, (2, .down, 12, 10)))
        try runtime.handle(frame(0.3, (2, .up, 12, 10)))
        try runtime.finish()
        #expect(output.lines == ["0.1 single 10", "0.3 double 12", "0.3 single 12"])
    }

    @Test func finishReportsAnErrorRaisedWhileSettling() throws {
        let (runtime, _) = try loadedRuntime("""
            motion.tapSource(motion.tap{}):subscribe(function(p) error("boom at " .. p.x) end)
            motion.tap{taps = 2}
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 7, 7)))
        #expect(throws: ScriptError.self) { try runtime.handle(frame(0.1, (1, .up, 7, 7))) }
        #expect(runtime.pendingError?.message.contains("script.lua:1: boom at 7") == true)
        #expect(throws: ScriptError.self) { try runtime.finish() }
    }
}
