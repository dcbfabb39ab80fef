import Foundation
import MotionGestures
import MotionLua
import Testing

/// Issue 22: defaults that are safe on a touchpad, and mistakes that say so.
@Suite struct DesktopDefaultsTests {
    /// `r:on(state, fn)` calls fn at each value of that state, for every recognizer kind.
    @Test func onCallsBackAtTheState() throws {
        let (runtime, output) = try loadedRuntime("""
            local swipe = motion.swipe{fingers = 2}
            local sub = swipe:on("recognized", function(g) motion.emit("swipe", g.direction) end)
            swipe:on("failed", function(g) motion.emit("failed", g.pointers) end)
            local pan = motion.pan{fingers = 2}
            pan:on("began", function(g) motion.emit("began", g:translation().x) end)
            pan:on("ended", function(g) motion.emit("ended", g:translation().x) end)
            motion.emit("sub", type(sub.unsubscribe))
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 0, 0), (2, .down, 10, 0)))
        try runtime.handle(frame(0.05, (1, .move, 30, 0), (2, .move, 40, 0)))
        try runtime.handle(frame(0.1, (1, .up, 30, 0), (2, .up, 40, 0)))
        try runtime.handle(frame(1, (1, .down, 0, 0), (2, .down, 10, 0)))
        try runtime.handle(frame(1.1, (1, .up, 1, 0), (2, .up, 11, 0)))
        #expect(output.lines == [
            "0 sub \"function\"",
            "0.05 began 30", "0.1 swipe \"right\"", "0.1 ended 30",
            "1.1 failed 2",
        ])
    }

    /// Holds decide on time: `on("began")` is stamped with the time the hold fell due.
    @Test func onAHoldIsStampedWhenItFellDue() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.hold{fingers = 2, duration = 0.5}:on("began", function(g) motion.emit("hold", g.pointers) end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 0, 0), (2, .down, 10, 0)))
        try runtime.handle(frame(0.8, (1, .up, 0, 0), (2, .up, 10, 0)))
        #expect(output.lines == ["0.5 hold 2"])
    }

    @Test(arguments: [
        ("motion.swipe{fingers = 3}:on('ended', print)", "on: a swipe never reaches \"ended\": swipes reach recognized or failed"),
        ("motion.tap{}:on('began', print)", "on: a tap never reaches \"began\": taps reach recognized or failed"),
        ("motion.hold{}:on('recognized', print)", "on: a hold never reaches \"recognized\": holds reach began, changed, ended, cancelled or failed"),
        ("motion.pan{}:on('possible', print)", "on: a translation never reaches \"possible\": translations reach began, changed, ended, cancelled or failed"),
        ("motion.scale{}:on('Ended', print)", "on: a scale never reaches \"Ended\": scales reach began, changed, ended, cancelled or failed"),
        ("motion.rotation{}:on(3, print)", "bad argument #1 to 'on' (a state name expected: rotations reach began, changed, ended, cancelled or failed; got number)"),
    ])
    func onRejectsStatesTheRecognizerNeverReaches(source: String, message: String) throws {
        let runtime = try LuaRuntime(scriptPath: writeScript(source), output: TestOutput())
        defer { runtime.close() }
        do {
            try runtime.load()
            Issue.record("expected an error for \(source)")
        } catch let error as ScriptError {
            #expect(error.message.contains("script.lua:1: " + message), "\(error.message)")
        }
    }

    /// Without `fingers`, swipes and holds need two pointers: one finger on a touchpad is the
    /// pointer (moving it must not switch workspace). `fingers = 1` asks for one-finger gestures.
    @Test func swipesAndHoldsWithoutFingersIgnoreOneFinger() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.swipe{}:on("recognized", function(g) motion.emit("swipe", g.pointers) end)
            motion.hold{}:on("began", function(g) motion.emit("hold", g.pointers) end)
            motion.swipe{fingers = 1}:on("recognized", function(g) motion.emit("swipe1", g.pointers) end)
            motion.hold{fingers = 1}:on("began", function(g) motion.emit("hold1", g.pointers) end)
            """)
        defer { runtime.close() }
        // One finger moves the pointer 60 units left, then rests for a second.
        try runtime.handle(frame(0, (1, .down, 80, 20)))
        try runtime.handle(frame(0.1, (1, .move, 50, 20)))
        try runtime.handle(frame(0.2, (1, .up, 20, 20)))
        try runtime.handle(frame(1, (2, .down, 50, 50)))
        try runtime.handle(frame(2, (2, .up, 50, 50)))
        // Two fingers swipe, then rest.
        try runtime.handle(frame(3, (3, .down, 80, 20), (4, .down, 90, 20)))
        try runtime.handle(frame(3.1, (3, .move, 20, 20), (4, .move, 30, 20)))
        try runtime.handle(frame(3.2, (3, .up, 20, 20), (4, .up, 30, 20)))
        try runtime.handle(frame(4, (5, .down, 50, 50), (6, .down, 60, 50)))
        try runtime.handle(frame(5, (5, .up, 50, 50), (6, .up, 60, 50)))
        #expect(output.lines == ["0.2 swipe1 1", "1.5 hold1 1", "3.2 swipe 2", "4.5 hold 2"])
    }

    /// `g:translation(E)` on holds (hold-then-drag) and pinches, as on drags: the centroid's
    /// movement since the pointers went down.
    @Test func holdsAndPinchesHaveATranslation() throws {
        let (runtime, output) = try loadedRuntime("""
            local hold = motion.hold{fingers = 2, duration = 0.5}
            motion.gesture(hold):subscribe(function(g)
              if g.state ~= "possible" then motion.emit("hold " .. g.state, g:translation()) end
            end)
            local pinch = motion.scale{}
            pinch:on("changed", function(g) motion.emit("pinch", g:translation()) end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 0, 0), (2, .down, 10, 0)))
        try runtime.handle(frame(0.6, (1, .move, 20, 5), (2, .move, 30, 5)))
        try runtime.handle(frame(0.7, (1, .move, 40, 5), (2, .move, 50, 5)))
        try runtime.handle(frame(0.8, (1, .up, 40, 5), (2, .up, 50, 5)))
        #expect(output.lines == [
            "0.5 hold began {\"x\":0,\"y\":0}",
            "0.6 hold changed {\"x\":20,\"y\":5}",
            "0.7 hold changed {\"x\":40,\"y\":5}",
            "0.8 hold ended {\"x\":40,\"y\":5}",
        ])
        output.lines.removeAll()
        try runtime.handle(frame(1, (3, .down, 0, 0), (4, .down, 10, 0)))
        try runtime.handle(frame(1.1, (3, .move, -5, 3), (4, .move, 25, 3)))   // spread: began
        try runtime.handle(frame(1.2, (3, .move, -4, 6), (4, .move, 26, 6)))   // and moved
        #expect(output.lines == ["1.1 hold failed {\"x\":5,\"y\":3}", "1.2 pinch {\"x\":6,\"y\":6}"])
    }

    /// A swipe's `g.velocity` is its mean speed (a number, the contract's field) and
    /// `g:velocity(E)` still gives its mean velocity as a point; `g.speed` is the number too.
    @Test func aSwipesVelocityIsANumberAndAMethod() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.swipe{fingers = 2}:on("recognized", function(g)
              motion.emit("swipe", {type(g.velocity), g.velocity, g.speed, g:velocity(), g.velocity > 100})
            end)
            local ok, err = pcall(function() local n = 3; return n() end)
            motion.emit("call", tostring(err):match("attempt to call a number value") ~= nil)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 0, 0), (2, .down, 10, 0)))
        try runtime.handle(frame(0.1, (1, .move, 30, 40), (2, .move, 40, 40)))
        try runtime.handle(frame(0.2, (1, .up, 30, 40), (2, .up, 40, 40)))
        #expect(output.lines == [
            "0 call true",
            "0.2 swipe [\"number\",250,250,{\"x\":150,\"y\":200},true]",
        ])
    }
}

