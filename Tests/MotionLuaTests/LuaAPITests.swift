import Testing
import MotionGestures
@testable import MotionLua

/// The Lua surface of API.md, with concrete numbers.
@Suite struct LuaAPITests {
    @Test func dragThroughLuaFollowsSeed001CacheSemantics() throws {
        let (runtime, output) = try loadedRuntime("""
            local box = motion.property({x = 100, y = 200})
            local pan = motion.pan{threshold = 0}
            motion.gesture(pan):translation(box):subscribe(box)
            box:emit("position")
            """)
        defer { runtime.close() }
        for f in dragFrames(moves: 2) { try runtime.handle(f) }
        // Second drag starts where the first left the box.
        try runtime.handle(frame(1, (2, .down, 500, 500)))
        try runtime.handle(frame(1.016, (2, .move, 500, 505)))
        try runtime.handle(frame(1.032, (2, .up, 500, 505)))
        #expect(output.lines == [
            "0 position {\"x\":100,\"y\":200}",
            "0.016 position {\"x\":110,\"y\":200}",
            "0.032 position {\"x\":120,\"y\":200}",
            "1.016 position {\"x\":120,\"y\":205}",
        ])
    }

    @Test func translatedFromIsTheSameOperator() throws {
        let (runtime, output) = try loadedRuntime("""
            local box = motion.property({x = 1, y = 2})
            motion.gesture(motion.translation{threshold = 0}):translated(box):emit("p")
            """)
        defer { runtime.close() }
        for f in dragFrames(moves: 1) { try runtime.handle(f) }
        #expect(output.lines == ["0 p state atRest", "0.016 p state active", "0.016 p {\"x\":11,\"y\":2}",
                                 "0.032 p state atRest"])
    }

    @Test func addedToAnyStreamUsesItsLatestValue() throws {
        let (runtime, output) = try loadedRuntime("""
            local anchor = motion.property({x = 5, y = 5})
            local shifted = anchor:map(function(p) return {x = p.x * 2, y = p.y * 2} end)
            motion.gesture(motion.pan{threshold = 0}):translation(shifted):emit("p")
            """)
        defer { runtime.close() }
        for f in dragFrames(moves: 1) { try runtime.handle(f) }
        #expect(output.lines == ["0 p state atRest", "0.016 p state active", "0.016 p {\"x\":20,\"y\":10}",
                                 "0.032 p state atRest"])
    }

    @Test func gestureValueFieldsAndMethodsInAnElement() throws {
        let (runtime, output) = try loadedRuntime("""
            local e = motion.element{x = 100, y = 0, width = 400, height = 400, rotation = math.pi / 2, scale = 2}
            motion.gesture(motion.pan{threshold = 0}):subscribe(function(g)
                if g.state == "changed" or g.state == "began" then
                    local l, tr = g:location(e), g:translation(e)
                    motion.emit("g", {g.state, g.pointers, g.kind, l.x, l.y, tr.x, tr.y})
                end
            end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 100, 0)))
        try runtime.handle(frame(0.016, (1, .move, 120, 0)))
        // R(-π/2)·(20, 0)/2 = (0, -10); the location likewise, from origin (100, 0).
        let expected = "0.016 g [\"began\",1,\"translation\",0,-10,0,-10]"
        #expect(output.lines.count == 1)
        #expect(output.lines[0].replacingOccurrences(of: "6.123233995736766e-16", with: "0")
                                .replacingOccurrences(of: "-6.123233995736766e-16", with: "0") == expected)
    }

    @Test func recognizerOnlyTakesPointersThatGoDownInsideItsElement() throws {
        let (runtime, output) = try loadedRuntime("""
            local e = motion.element{x = 0, y = 0, width = 50, height = 50}
            motion.gesture(motion.pan{element = e, threshold = 0}):subscribe(function(g)
                motion.emit("s", g.state)
            end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 60, 10)))
        try runtime.handle(frame(0.016, (1, .move, 10, 10)))
        try runtime.handle(frame(0.032, (1, .up, 10, 10)))
        #expect(output.lines == ["0 s \"possible\""])
    }

    @Test func rotationMethodOnATranslationGestureIsAClearLuaError() throws {
        let (runtime, _) = try loadedRuntime("""
            motion.gesture(motion.pan{threshold = 0}):subscribe(function(g)
                if g.state == "began" then return g:rotation() end
            end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 0, 0)))
        #expect(throws: ScriptError.self) { try runtime.handle(frame(0.016, (1, .move, 5, 0))) }
        #expect(runtime.pendingError!.message.contains(
            "script.lua:2: rotation() is for rotation gestures; this is a translation gesture"))
    }

    @Test(arguments: [
        ("motion.pan{threshold = -1}", "motion.pan: option 'threshold' must be >= 0, got -1"),
        ("motion.translation{threshold = 'far'}", "motion.translation: option 'threshold' must be a number, got string"),
        ("motion.pan{minPointers = 0}", "motion.pan: option 'minPointers' must be >= 1, got 0"),
        ("motion.pan{minPointers = 3, maxPointers = 2}", "motion.pan: option 'maxPointers' (2) must be >= 'minPointers' (3)"),
        ("motion.pan{treshold = 3}", "motion.pan: unknown option 'treshold'"),
        ("motion.pan{element = 3}", "motion.pan: option 'element' must be an element"),
        ("motion.element{x = 1}", "motion.element: options 'width' and 'height' are required"),
        ("motion.element{width = 1, height = 1, scale = 0}", "motion.element: option 'scale' must be > 0, got 0"),
    ])
    func badRecognizerOptionsNameTheOption(source: String, message: String) throws {
        let runtime = try LuaRuntime(scriptPath: writeScript(source), output: TestOutput())
        defer { runtime.close() }
        do {
            try runtime.load()
            Issue.record("expected an error for \(source)")
        } catch let error as ScriptError {
            #expect(error.message.contains("script.lua:1: " + message), "\(error.message)")
        }
    }

    @Test func recognizerFieldsAndEnabled() throws {
        let (runtime, output) = try loadedRuntime("""
            local pan = motion.pan{enabled = false}
            motion.emit("r", {pan.kind, pan.state, pan.enabled, pan.pointers})
            pan.enabled = true
            motion.emit("enabled", pan.enabled)
            local ok, err = pcall(function() pan.state = "began" end)
            motion.emit("err", err:match("only 'enabled'") ~= nil)
            """)
        defer { runtime.close() }
        #expect(output.lines == ["0 r [\"translation\",\"possible\",false,0]", "0 enabled true", "0 err true"])
    }

    @Test func disabledRecognizerIgnoresPointers() throws {
        let (runtime, output) = try loadedRuntime("""
            local pan = motion.pan{threshold = 0, enabled = false}
            motion.gesture(pan):subscribe(function(g) motion.emit("s", g.state) end)
            """)
        defer { runtime.close() }
        for f in dragFrames(moves: 2) { try runtime.handle(f) }
        #expect(output.lines == ["0 s \"possible\""])
    }

    @Test func mapFilterDedupeXYAndLogCompose() throws {
        let (runtime, output) = try loadedRuntime("""
            local p = motion.property({x = 1, y = 2})
            p:x():map(function(x) return x * 10 end):filter(function(x) return x ~= 30 end)
             :dedupe():log("x is"):emit("x")
            p:y():emit("y")
            for _, v in ipairs({{x = 1, y = 2}, {x = 3, y = 4}, {x = 2, y = 6}}) do p:write(v) end
            """)
        defer { runtime.close() }
        #expect(output.lines == ["0 x 10", "0 y 2", "0 y 2", "0 y 4", "0 x 20", "0 y 6"])
        #expect(output.logs == ["x is 10", "x is 20"])
    }

    @Test func subscribeWithStateCallbackSeesActiveThenAtRest() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.gesture(motion.pan{threshold = 0}):subscribe(
                function(g) motion.emit("next", g.state) end,
                function(s) motion.emit("state", s) end)
            """)
        defer { runtime.close() }
        for f in dragFrames(moves: 1) { try runtime.handle(f) }
        #expect(output.lines == ["0 next \"possible\"", "0 state \"atRest\"",
                                 "0.016 state \"active\"", "0.016 next \"began\"",
                                 "0.032 next \"ended\"", "0.032 state \"atRest\""])
    }

    @Test func pointersStreamAndTime() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.pointers():subscribe(function(p)
                motion.emit("p", {p.id, p.phase, p.x, p.y, motion.time()})
            end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0.5, (7, .down, 1.5, 2), (8, .down, 3, 4)))
        #expect(output.lines == ["0.5 p [7,\"down\",1.5,2,0.5]", "0.5 p [8,\"down\",3,4,0.5]"])
    }

    @Test func tablesAreOutputAsJSONWithSortedKeys() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.emit("t", {b = 1, a = {1, 2, {c = true}}, s = "q\\"uote"})
            motion.emit("n", 0.1 + 0.2)
            motion.emit("empty", {})
            """)
        defer { runtime.close() }
        #expect(output.lines == ["0 t {\"a\":[1,2,{\"c\":true}],\"b\":1,\"s\":\"q\\\"uote\"}",
                                 "0 n 0.30000000000000004", "0 empty []"])
    }

    @Test func aPropertyWrittenFromItsOwnSubscriptionIsStoppedWithAnError() throws {
        let runtime = try LuaRuntime(scriptPath: writeScript("""
            local p = motion.property(1)
            p:map(function(v) return v + 1 end):subscribe(p)
            """), output: TestOutput())
        defer { runtime.close() }
        #expect(throws: ScriptError.self) { try runtime.load() }
        #expect(runtime.pendingError?.message.contains("written from its own subscription in a loop") == true)
    }
}
