import Foundation
import Testing
import MotionActions
import MotionGestures
@testable import MotionLua

/// A runtime whose actions are performed into memory: what the uinput device would be sent.
private func performingRuntime(_ source: String) throws -> (LuaRuntime, TestOutput, RecordingSink) {
    let output = TestOutput()
    let sink = RecordingSink()
    let runtime = try LuaRuntime(scriptPath: writeScript(source), output: output)
    runtime.actions = ActionSession(host: ActionHost(performs: true, device: sink, launcher: ProcessLauncher(report: { _ in })))
    try runtime.load()
    return (runtime, output, sink)
}

@Suite struct LuaActionTests {
    @Test func everyActionIsAnOutputLine() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.keys("ctrl+alt+Right")
            motion.keyDown("alt")
            motion.keyUp("alt")
            motion.exec("notify-send hi")
            motion.exec{"xdotool", "key", "1"}
            motion.mouse.move(3, -2.5)
            motion.mouse.scroll(0, 1)
            motion.mouse.button("right")
            motion.mouse.button("left", "down")
            motion.mouse.button("left", "up")
            """)
        runtime.close()
        #expect(output.lines == [
            #"0 action {"action":"keys","keys":"ctrl+alt+Right"}"#,
            #"0 action {"action":"keyDown","key":"alt"}"#,
            #"0 action {"action":"keyUp","key":"alt"}"#,
            #"0 action {"action":"exec","argv":["sh","-c","notify-send hi"]}"#,
            #"0 action {"action":"exec","argv":["xdotool","key","1"]}"#,
            #"0 action {"action":"mouse","move":{"x":3,"y":-2.5}}"#,
            #"0 action {"action":"mouse","scroll":{"x":0,"y":1}}"#,
            #"0 action {"action":"mouse","button":"right","press":"click"}"#,
            #"0 action {"action":"mouse","button":"left","press":"down"}"#,
            #"0 action {"action":"mouse","button":"left","press":"up"}"#,
        ])
    }

    /// A command repeated reuses the last one's argv only when every byte is the same: each
    /// line is the command of its own call, whatever came before (a prefix, a longer list, the
    /// string form against the same argv, bytes that are not UTF-8, a wrong type after a good call).
    @Test func repeatedCommandsAreEachTheirOwn() throws {
        let (runtime, output) = try loadedRuntime(#"""
            local function try(f) local ok, e = pcall(f); if not ok then motion.emit("error", e) end end
            motion.exec{"a", "b"}
            motion.exec{"a", "b"}
            motion.exec{"a", "c"}
            motion.exec{"a", "c", ""}
            motion.exec{"a", "c"}
            motion.exec{"a"}
            motion.exec("x y")
            motion.exec{"sh", "-c", "x y"}
            motion.exec("x z")
            motion.exec{"\xff"}
            motion.exec{"\xef\xbf\xbd"}
            motion.exec{"\xff"}
            try(function() motion.exec{"\xff", 5} end)
            try(function() motion.exec{"a\0"} end)
            motion.exec{"a"}
            """#)
        runtime.close()
        #expect(output.lines.filter { $0.hasPrefix("0 action") } == [
            #"0 action {"action":"exec","argv":["a","b"]}"#,
            #"0 action {"action":"exec","argv":["a","b"]}"#,
            #"0 action {"action":"exec","argv":["a","c"]}"#,
            #"0 action {"action":"exec","argv":["a","c",""]}"#,
            #"0 action {"action":"exec","argv":["a","c"]}"#,
            #"0 action {"action":"exec","argv":["a"]}"#,
            #"0 action {"action":"exec","argv":["sh","-c","x y"]}"#,
            #"0 action {"action":"exec","argv":["sh","-c","x y"]}"#,
            #"0 action {"action":"exec","argv":["sh","-c","x z"]}"#,
            "0 action {\"action\":\"exec\",\"argv\":[\"\u{FFFD}\"]}",
            "0 action {\"action\":\"exec\",\"argv\":[\"\u{FFFD}\"]}",
            "0 action {\"action\":\"exec\",\"argv\":[\"\u{FFFD}\"]}",
            #"0 action {"action":"exec","argv":["a"]}"#,
        ])
        let errors = output.lines.filter { $0.hasPrefix("0 error") }
        #expect(errors.count == 2)
        #expect(errors.first?.contains("script.lua:14: motion.exec: argument 2 must be a string, got number") == true)
        #expect(errors.last?.contains("script.lua:15: motion.exec: argument 1 contains a NUL byte") == true)
        #expect(output.lines.count == 15 && output.lines[12].hasPrefix("0 error") && output.lines[13].hasPrefix("0 error"))
    }

    /// Float noise reached action lines: `"move":{"x":10,"y":7.599999999999966}`. Shown
    /// rounded to a millionth of a unit; the values a script means stay exact.
    @Test func mouseMovementIsShownWithoutFloatNoise() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.mouse.move(10, 107.6 - 100)
            motion.mouse.scroll(0.1 + 0.2, -1 / 3)
            motion.mouse.move(-0.0000001, 2.5e-6)
            motion.mouse.move(1e12 + 0.5, -123456.789)
            """)
        runtime.close()
        #expect(output.lines == [
            #"0 action {"action":"mouse","move":{"x":10,"y":7.6}}"#,
            #"0 action {"action":"mouse","scroll":{"x":0.3,"y":-0.333333}}"#,
            #"0 action {"action":"mouse","move":{"x":0,"y":3e-06}}"#,
            #"0 action {"action":"mouse","move":{"x":1000000000000.5,"y":-123456.789}}"#,
        ])
    }

    @Test func keysHeldWhenTheScriptEndsAreReleasedWithALine() throws {
        let (runtime, output, sink) = try performingRuntime("""
            motion.keyDown("super")
            motion.mouse.button("left", "down")
            motion.keyDown("KEY_LEFTALT")
            """)
        sink.clear()
        runtime.close()
        #expect(output.lines.suffix(3) == [
            #"0 action {"action":"keyUp","key":"KEY_LEFTALT","auto":true}"#,
            #"0 action {"action":"mouse","button":"left","press":"up","auto":true}"#,
            #"0 action {"action":"keyUp","key":"super","auto":true}"#,
        ])
        #expect(sink.batches == [[.key(56, 0), .key(0x110, 0), .key(125, 0), .synReport]])
    }

    @Test func keysHeldWhenACallbackFailsAreReleased() throws {
        let (runtime, output, sink) = try performingRuntime("""
            motion.gesture(motion.pan{threshold = 0}):subscribe(function(g)
              if g.state == "began" then motion.keyDown("alt") end
              if g.state == "changed" then error("boom") end
            end)
            """)
        try runtime.handle(frame(0, (1, .down, 0, 0)))
        try runtime.handle(frame(0.1, (1, .move, 10, 0)))
        #expect(throws: ScriptError.self) { try runtime.handle(frame(0.2, (1, .move, 20, 0))) }
        // Released when the error surfaced, before the runtime closes.
        #expect(sink.batches == [[.key(56, 1), .synReport], [.key(56, 0), .synReport]])
        runtime.close()
        #expect(output.lines.last == #"0.2 action {"action":"keyUp","key":"alt","auto":true}"#)
        #expect(sink.batches == [[.key(56, 1), .synReport], [.key(56, 0), .synReport]])
    }

    @Test func aCallbackSwitchedOffOnLiveInputReleasesHeldKeys() throws {
        let (runtime, output, sink) = try performingRuntime("""
            motion.gesture(motion.pan{threshold = 0}):subscribe(function(g)
              if g.state == "began" then motion.keyDown("alt") end
              if g.state == "changed" then error("boom") end
              if g.state == "ended" then motion.keyUp("alt") end
            end)
            """)
        var reported: [String] = []
        runtime.onCallbackError = { reported.append($0.message) }
        try runtime.handle(frame(0, (1, .down, 0, 0)))
        try runtime.handle(frame(0.1, (1, .move, 10, 0)))
        try runtime.handle(frame(0.2, (1, .move, 20, 0)))  // raises: switched off, the run goes on
        #expect(reported.count == 1)
        #expect(sink.batches == [[.key(56, 1), .synReport], [.key(56, 0), .synReport]])
        #expect(output.lines.last == #"0.2 action {"action":"keyUp","key":"alt","auto":true}"#)
        try runtime.handle(frame(0.3, (1, .up, 20, 0)))
        runtime.close()
        #expect(sink.batches.count == 2)
    }

    @Test func actionsAreStampedWithInputTime() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.gesture(motion.tap{}):subscribe(function(g)
              if g.state == "recognized" then motion.keys("ctrl+w") end
            end)
            """)
        try runtime.handle(frame(1.25, (1, .down, 0, 0)))
        try runtime.handle(frame(1.5, (1, .up, 0, 0)))
        runtime.close()
        #expect(output.lines == [#"1.5 action {"action":"keys","keys":"ctrl+w"}"#])
    }

    @Test(arguments: [
        ("motion.keys('ctrll+c')", "script.lua:1: motion.keys: unknown key name 'ctrll'; did you mean ctrl, lctrl, rctrl?"),
        ("motion.keys('ctrl++')", "script.lua:1: motion.keys: the chord 'ctrl++' cannot be typed: it has an empty key name"),
        ("motion.keys('shift+lshift')", "script.lua:1: motion.keys: the chord 'shift+lshift' cannot be typed: it presses KEY_LEFTSHIFT twice ('lshift')"),
        ("motion.keyDown('hyper')", "script.lua:1: motion.keyDown: unknown key name 'hyper'"),
        ("motion.keys()", "script.lua:1: bad argument #1 to 'motion.keys' (string expected, got no value)"),
        ("motion.exec{}", "script.lua:1: motion.exec: the argument list is empty"),
        ("motion.exec{'a', {}}", "script.lua:1: motion.exec: argument 2 must be a string, got table"),
        ("motion.exec(true)", "script.lua:1: bad argument #1 to 'motion.exec' (command string or table of arguments expected, got boolean)"),
        // Numbers are not converted; a wrong type is found before a NUL byte, and the first
        // argument with a NUL byte is named.
        ("motion.exec{'a', 5}", "script.lua:1: motion.exec: argument 2 must be a string, got number"),
        ("motion.exec(5)", "script.lua:1: bad argument #1 to 'motion.exec' (command string or table of arguments expected, got number)"),
        ("motion.exec{'a\\0', {}}", "script.lua:1: motion.exec: argument 2 must be a string, got table"),
        ("motion.exec{'a', 'b\\0', 'c\\0'}", "script.lua:1: motion.exec: argument 2 contains a NUL byte (\\0), which a command line cannot carry"),
        ("motion.exec('echo \\0')", "script.lua:1: motion.exec: the command contains a NUL byte (\\0), which a command line cannot carry"),
        ("motion.mouse.move(1/0, 0)", "script.lua:1: bad argument #1 to 'motion.mouse.move' (finite number expected)"),
        ("motion.mouse.button('left', 'press')", "script.lua:1: motion.mouse.button: the second argument must be \"down\", \"up\" or \"click\", got 'press'"),
        ("motion.mouse.button('wheel')", "script.lua:1: motion.mouse.button: unknown mouse button 'wheel' (buttons: left, right, middle, side, extra, forward, back)"),
    ])
    func badActionsNameTheirPlace(source: String, message: String) throws {
        let error = try loadError(source)
        #expect(error.contains(message), "\(error)")
    }

    @Test func aDeviceThatCannotBeOpenedIsAScriptErrorWithItsPlace() throws {
        let output = TestOutput()
        let runtime = try LuaRuntime(scriptPath: writeScript("motion.keys('a')"), output: output)
        defer { runtime.close() }
        runtime.actions = ActionSession(host: ActionHost(performs: true, device: UinputDevice(path: "/nonexistent-motionscript/uinput")))
        #expect {
            try runtime.load()
        } throws: { error in
            let message = (error as? ScriptError)?.message ?? ""
            return message.contains("script.lua:1: motion.keys: cannot open /nonexistent-motionscript/uinput for the virtual keyboard and mouse: No such file or directory")
        }
    }
}

@Suite struct LuaDesktopRecognizerTests {
    @Test func aSwipeHasDirectionDistanceAndVelocity() throws {
        let (runtime, output) = try loadedRuntime("""
            local swipe = motion.swipe{fingers = 1}
            motion.gesture(swipe):subscribe(function(g)
              if g.state == "possible" then return end
              motion.emit("swipe", {state = g.state, direction = g.direction, distance = g.distance,
                                    velocity = g.velocity, pointers = g.pointers, kind = swipe.kind})
            end)
            """)
        try runtime.handle(frame(0, (1, .down, 100, 100)))
        try runtime.handle(frame(0.1, (1, .move, 250, 100)))
        try runtime.handle(frame(0.2, (1, .up, 400, 100)))
        try runtime.finish()
        runtime.close()
        #expect(output.lines == [#"0.2 swipe {"direction":"right","distance":300,"kind":"swipe","pointers":1,"state":"recognized","velocity":1500}"#])
    }

    @Test func anEdgeSwipeFromTheRightUsesTheSurfaceSize() throws {
        let output = TestOutput()
        let runtime = try LuaRuntime(scriptPath: writeScript("""
            local fromRight = motion.swipe{fingers = 1, from = "right", edge = 50}
            motion.gesture(fromRight):map(function(g) return g.state end)
              :filter(function(s) return s ~= "possible" end):emit("fromRight")
            """), output: output)
        defer { runtime.close() }
        runtime.setScreenSize(width: 1000, height: 800)
        try runtime.load()
        try runtime.handle(frame(0, (1, .down, 960, 400)))
        try runtime.handle(frame(0.2, (1, .up, 660, 400)))
        try runtime.handle(frame(1, (1, .down, 940, 400)))  // 60 from the edge: outside the zone
        try runtime.handle(frame(1.2, (1, .up, 640, 400)))
        #expect(output.lines == ["0 fromRight state atRest", #"0.2 fromRight "recognized""#, #"1.2 fromRight "failed""#])
    }

    @Test func aHoldIsStampedWhenItFellDue() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.gesture(motion.hold{fingers = 1, duration = 0.5}):subscribe(function(g)
              if g.state == "possible" then return end
              motion.emit("hold", g.state)
              if g.state == "began" then motion.exec{"true"} end
            end)
            """)
        try runtime.handle(frame(1, (1, .down, 100, 100)))
        try runtime.handle(frame(2, (1, .up, 100, 100)))
        runtime.close()
        #expect(output.lines == [
            #"1.5 hold "began""#, #"1.5 action {"action":"exec","argv":["true"]}"#, #"2 hold "ended""#,
        ])
    }

    @Test func throttleAndDebounceOnInputTime() throws {
        let (runtime, output) = try loadedRuntime("""
            local xs = motion.pointers():map(function(p) return p.x end)
            xs:throttle(0.5):emit("throttled")
            xs:debounce(0.25):emit("debounced")
            """)
        for (t, x) in [(0.0, 1.0), (0.125, 2), (0.5, 3), (0.625, 4), (1.25, 5)] {
            try runtime.handle(frame(t, (1, t == 0 ? .down : .move, x, 0)))
        }
        try runtime.finish()
        runtime.close()
        #expect(output.lines == [
            "0 throttled 1", "0.375 debounced 2", "0.5 throttled 3", "0.875 debounced 4", "1.25 throttled 5", "1.5 debounced 5",
        ])
    }

    @Test func requireToFailOnAnyKindAndFingersEverywhere() throws {
        let (runtime, output) = try loadedRuntime("""
            local pinch = motion.scale{fingers = 2}
            local swipe = motion.swipe{fingers = 2, requireToFail = pinch}
            local three = motion.pan{fingers = 3}:requireToFail(motion.hold{fingers = 3})
            motion.gesture(pinch):map(function(g) return g.state end):filter(function(s) return s ~= "possible" end):emit("pinch")
            motion.gesture(swipe):map(function(g) return g.state end):filter(function(s) return s ~= "possible" end):emit("swipe")
            motion.emit("kinds", {pinch.kind, swipe.kind, three.kind})
            """)
        try runtime.handle(frame(0, (1, .down, 100, 100), (2, .down, 200, 100)))
        try runtime.handle(frame(0.1, (1, .move, 250, 100), (2, .move, 350, 100)))
        try runtime.handle(frame(0.2, (1, .up, 400, 100), (2, .up, 500, 100)))
        runtime.close()
        #expect(output.lines == [
            "0 pinch state atRest", "0 swipe state atRest", #"0 kinds ["scale","swipe","translation"]"#, #"0.2 pinch "failed""#, #"0.2 swipe "recognized""#,
        ])
    }

    @Test(arguments: [
        ("motion.swipe{fingers = 0}", "motion.swipe: option 'fingers' must be >= 1, got 0"),
        ("motion.swipe{direction = 'north'}", "motion.swipe: option 'direction' must be one of left, right, up, down, upLeft, upRight, downLeft, downRight, got 'north'"),
        ("motion.swipe{from = 'right'}", "motion.swipe: from = \"right\" needs to know where the right edge is: run with --surface WxH"),
        ("motion.swipe{from = 3}", "motion.swipe: option 'from' must be \"left\", \"right\", \"top\", \"bottom\" or an element, got number"),
        ("motion.hold{duration = 0}", "motion.hold: option 'duration' must be > 0, got 0"),
        ("motion.hold{fingers = 2, minPointers = 1}", "motion.hold: unknown option 'minPointers'"),
        ("motion.scale{fingers = 1}", "motion.scale: option 'fingers' must be >= 2 (a scale needs two pointers), got 1"),
        ("motion.pan{fingers = 3, maxPointers = 2}", "motion.pan: option 'fingers' (3) must be <= 'maxPointers' (2)"),
        ("motion.pointers():throttle(-1)", "throttle: seconds must be >= 0 and finite, got -1"),
        ("motion.pointers():debounce(0/0)", "debounce: seconds must be >= 0 and finite"),
    ])
    func badOptionsNameTheOption(source: String, message: String) throws {
        let error = try loadError(source)
        #expect(error.contains("script.lua:1: " + message), "\(error)")
    }
}
