import Testing
import MotionGestures
@testable import MotionLua

/// Runs `source` after `local p = motion.property(first)`, writes `rest` into p, and returns
/// the output lines.
private func feed(_ operators: String, _ values: String) throws -> [String] {
    let (runtime, output) = try loadedRuntime("""
        local values = {\(values)}
        local p = motion.property(values[1])
        p\(operators):emit("o")
        for i = 2, #values do p:write(values[i]) end
        """)
    defer { runtime.close() }
    return output.lines.map { $0.replacingOccurrences(of: "0 o ", with: "") }
}

/// The value operator catalog (reference.md) as Lua stream methods, with the MM numbers.
@Suite struct LuaOperatorCatalogTests {
    @Test func dedupe() throws {
        #expect(try feed(":dedupe()", "20, 20, 80, 20") == ["20", "80", "20"])
    }

    @Test func distanceFromANumberOrAPoint() throws {
        #expect(try feed(":distance(25)", "10, 40") == ["15", "15"])
        #expect(try feed(":distance({x = 0, y = 0})", "{x = 3, y = 4}, {x = -6, y = 8}") == ["5", "10"])
    }

    @Test func ignoreUntil() throws {
        #expect(try feed(":ignoreUntil(3)", "1, 2, 3, 2, 5") == ["3", "2", "5"])
        #expect(try feed(":ignoreUntil('go')", "'wait', 'go', 'x'") == ["\"go\"", "\"x\""])
    }

    @Test func inverted() throws {
        #expect(try feed(":inverted()", "true, false") == ["false", "true"])
    }

    @Test func lowerAndUpperBound() throws {
        #expect(try feed(":lowerBound(0)", "-5, 5") == ["0", "5"])
        #expect(try feed(":upperBound(10)", "20, 5") == ["10", "5"])
        #expect(try feed(":lowerBound(0):upperBound(10)", "-1, 4, 11") == ["0", "4", "10"])
    }

    @Test func mergeEmitsEveryValueOfEveryStream() throws {
        let (runtime, output) = try loadedRuntime("""
            local a, b, c = motion.property(1), motion.property("b"), motion.property(true)
            a:merge(b, c):emit("m")
            b:write("bb"); a:write(2)
            """)
        defer { runtime.close() }
        #expect(output.lines == ["0 m 1", "0 m \"b\"", "0 m true", "0 m \"bb\"", "0 m 2"])
    }

    @Test func normalizedOffsetAndScaled() throws {
        #expect(try feed(":normalized(2)", "10") == ["5"])
        #expect(try feed(":normalized({x = 100, y = 50})", "{x = 50, y = 25}") == ["{\"x\":0.5,\"y\":0.5}"])
        #expect(try feed(":offset(5)", "10, -5") == ["15", "0"])
        #expect(try feed(":offset({x = 1, y = -1})", "{x = 10, y = 10}") == ["{\"x\":11,\"y\":9}"])
        #expect(try feed(":scaled(2)", "10, {x = 1, y = 2}") == ["20", "{\"x\":2,\"y\":4}"])
    }

    @Test func rewriteRewriteToAndRewriteRange() throws {
        // Unmapped values emit nothing; 1 and 1.0 are one key, "1" is another.
        #expect(try feed(":rewrite{[1] = 'one', [2] = 'two', ['1'] = 'string one'}", "1, 3, 2.0, '1'")
                == ["\"one\"", "\"two\"", "\"string one\""])
        #expect(try feed(":rewrite{[true] = 'open', [false] = 'closed'}", "false, true") == ["\"closed\"", "\"open\""])
        #expect(try feed(":rewriteTo('tapped')", "1, {x = 1, y = 1}") == ["\"tapped\"", "\"tapped\""])
        // Linear, not clamped: 50 of 0…100 → 0.5 of 0…1, 150 → 1.5; a == b → c.
        #expect(try feed(":rewriteRange(0, 100, 0, 1)", "50, 150, -100") == ["0.5", "1.5", "-1"])
        #expect(try feed(":rewriteRange(5, 5, 7, 9)", "1, 100") == ["7", "7"])
    }

    @Test func rubberBanded() throws {
        // 150 is 50 past 100: 100 + 50·(1 − 1/(50·0.55/50 + 1)) = 117.74193548387098;
        // −50 is 50 below 0: −17.741935483870968; inside the range unchanged.
        #expect(try feed(":rubberBanded(0, 100, 50)", "50, 150, -50") == ["50", "117.74193548387098", "-17.741935483870968"])
        #expect(try feed(":rubberBanded(0, 100, 0)", "150") == ["0"])  // L ≤ 0 → below
        #expect(try feed(":rubberBanded({x = 0, y = 0}, {x = 100, y = 100}, 50)", "{x = 150, y = 50}")
                == ["{\"x\":117.74193548387098,\"y\":50}"])
    }

    @Test func slopEmitsOnExitAndOnReturn() throws {
        #expect(try feed(":slop(10)", "0, 5, 15, 20, 5, -15") == ["\"onExit\"", "\"onReturn\"", "\"onExit\""])
    }

    @Test func startWith() throws {
        // Remembered: the property's value replaces the start value while connecting.
        #expect(try feed(":startWith('first')", "1, 2") == ["1", "2"])
    }

    @Test func thresholdAndThresholdRange() throws {
        #expect(try feed(":threshold(5)", "4, 5, 6") == ["\"below\"", "\"within\"", "\"above\""])
        #expect(try feed(":thresholdRange(0, 10)", "-1, 0, 10, 11") == ["\"below\"", "\"within\"", "\"within\"", "\"above\""])
    }

    @Test func valveLetsValuesThroughWhileOpen() throws {
        let (runtime, output) = try loadedRuntime("""
            local open = motion.property(false)
            local p = motion.property(1)
            p:valve(open):emit("v")
            p:write(2)
            open:write(true)   -- subscribes p, which emits its current value
            p:write(3)
            open:write(false)
            p:write(4)
            """)
        defer { runtime.close() }
        #expect(output.lines == ["0 v 2", "0 v 3"])
    }

    @Test func xLockedYLockedXAndY() throws {
        #expect(try feed(":xLocked(5)", "{x = 1, y = 2}") == ["{\"x\":5,\"y\":2}"])
        #expect(try feed(":yLocked(7)", "{x = 1, y = 2}") == ["{\"x\":1,\"y\":7}"])
        #expect(try feed(":xLocked(5):x()", "{x = 1, y = 2}") == ["5"])
    }

    @Test func toString() throws {
        #expect(try feed(":toString()", "20, 0.5, 'text', true, {x = 1, y = 2}")
                == ["\"20\"", "\"0.5\"", "\"text\"", "\"true\"", "\"{\\\"x\\\":1,\\\"y\\\":2}\""])
    }

    @Test func delayRunsOnInputTimeAndStampsTheTimeItFellDue() throws {
        let (runtime, output) = try loadedRuntime("""
            local p = motion.property(1)
            p:delay(0.5):emit("late")
            motion.pointers():subscribe(function(e) p:write(e.x) end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0.2, (1, .down, 7, 0)))   // 7 due at 0.7
        try runtime.handle(frame(1, (1, .up, 8, 0)))        // 1 (from 0) and 7 come out first; 8 due at 1.5
        #expect(output.lines == ["0.5 late 1", "0.7 late 7"])
        try runtime.finish()
        #expect(output.lines == ["0.5 late 1", "0.7 late 7", "1.5 late 8"])
    }

    @Test func delayAndTapDecisionsInterleaveInTimeOrder() throws {
        let (runtime, output) = try loadedRuntime("""
            local single = motion.tap{}
            single:requireToFail(motion.tap{taps = 2})
            motion.tapSource(single):subscribe(function(p) motion.emit("tap", p.x) end)
            local p = motion.property(0)
            p:delay(0.3):emit("d")
            p:delay(0.5):emit("d")
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 4, 0)))
        try runtime.handle(frame(0.1, (1, .up, 4, 0)))  // the double tap fails at 0.4
        try runtime.finish()
        #expect(output.lines == ["0.3 d 0", "0.4 tap 4", "0.5 d 0"])
    }

    @Test func gestureOperatorsCentroidVelocityAndRecognitionStates() throws {
        let (runtime, output) = try loadedRuntime("""
            local e = motion.element{x = 100, y = 0, width = 500, height = 500, scale = 2}
            local g = motion.gesture(motion.pan{threshold = 0})
            g:whenRecognitionState("began"):centroid(e):emit("began at")
            g:whenRecognitionStateIsAnyOf("began", "ended"):velocity():x():emit("vx")
            g:whenRecognitionState{"changed"}:velocity(e):emit("v in e")
            """)
        defer { runtime.close() }
        // 10 units every 16 ms along x: 625 units/s, 312.5 in e (scale 2).
        try runtime.handle(frame(0, (1, .down, 100, 0)))
        try runtime.handle(frame(0.016, (1, .move, 110, 0)))
        try runtime.handle(frame(0.032, (1, .move, 120, 0)))
        try runtime.handle(frame(0.048, (1, .up, 120, 0)))
        let lines = output.lines.filter { !$0.contains("state") }
        #expect(lines.count == 4)
        #expect(lines[0] == "0.016 began at {\"x\":5,\"y\":0}")
        #expect(lines[1].hasPrefix("0.016 vx 625"))
        #expect(lines[2].hasPrefix("0.032 v in e {\"x\":312.") || lines[2].hasPrefix("0.032 v in e {\"x\":312.5"))
        #expect(lines[3].hasPrefix("0.048 vx 625"))
    }

    @Test func translationWithoutAddedToIsTranslationIn() throws {
        let (runtime, output) = try loadedRuntime("""
            local e = motion.element{x = 50, y = 50, width = 100, height = 100, scale = 2}
            local g = motion.gesture(motion.pan{threshold = 0}):whenRecognitionState("changed")
            g:translation():emit("screen")
            g:translation(e):emit("in e")
            """)
        defer { runtime.close() }
        for f in dragFrames(moves: 2) { try runtime.handle(f) }
        // Changed at the second move: (20, 0) on screen, (10, 0) in e (scale 2).
        #expect(output.lines.filter { !$0.contains("state") }
                == ["0.032 screen {\"x\":20,\"y\":0}", "0.032 in e {\"x\":10,\"y\":0}"])
    }

    @Test func velocityOfRotationIsANumber() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.gesture(motion.rotation{threshold = 0}):whenRecognitionState("changed"):velocity():emit("w")
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
        try runtime.handle(frame(0.016, (2, .move, 0, 100)))   // π/2 in 16 ms
        try runtime.handle(frame(0.032, (2, .move, -100, 0)))  // π
        let w = output.lines.last.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
        // Samples 0, π/2, π at 0, 16, 32 ms: a slope of (π/2)/0.016 = 98.17477042468103 rad/s.
        #expect(abs(try #require(w) - Double.pi / 2 / 0.016) < 1e-9)
    }

    @Test(arguments: [
        ("motion.property('a'):offset(1):emit('o')", "script.lua:1: offset() expects a stream of numbers, got a string"),
        ("motion.property(1):xLocked(1):emit('o')", "script.lua:1: xLocked() expects a stream of points, got a number"),
        ("motion.property(1):inverted():emit('o')", "script.lua:1: inverted() expects a stream of booleans, got a number"),
        ("motion.property(true):scaled(2):emit('o')", "script.lua:1: scaled() expects a stream of numbers or points, got a boolean"),
        ("motion.property(1):valve(motion.property(1)):emit('o')",
         "script.lua:1: valve() expects a stream of booleans (the valve's open stream), got a number"),
        ("motion.property(1):centroid():emit('o')", "script.lua:1: centroid() expects a stream of gesture values, got a number"),
        ("motion.property(1):whenRecognitionState('ended'):emit('o')",
         "script.lua:1: whenRecognitionState() expects a stream of gesture values, got a number"),
        ("motion.property(1):offset('x')", "script.lua:1: bad argument #2 to 'offset' (number or point {x=, y=} expected, got string)"),
        ("motion.property(1):threshold()", "script.lua:1: bad argument #2 to 'threshold' (number expected, got no value)"),
        ("motion.property(1):thresholdRange(5, 1)", "script.lua:1: thresholdRange: min (5) must be <= max (1)"),
        ("motion.property(1):rubberBanded(0, {x = 1, y = 1}, 5)",
         "script.lua:1: rubberBanded: 'below' and 'above' must both be numbers or both be points"),
        ("motion.property(1):merge()", "script.lua:1: bad argument #2 to 'merge' (stream expected, got no value)"),
        ("motion.property(1):rewrite(3)", "script.lua:1: bad argument #2 to 'rewrite' (table expected, got number)"),
        ("motion.property(1):delay(-1)", "script.lua:1: delay: seconds must be >= 0 and finite, got -1"),
        ("motion.gesture(motion.pan{}):whenRecognitionState('done')",
         "script.lua:1: whenRecognitionState: unknown recognition state 'done' (states: possible, began, changed, ended, cancelled, failed, recognized)"),
        ("motion.gesture(motion.pan{}):whenRecognitionStateIsAnyOf()",
         "script.lua:1: whenRecognitionStateIsAnyOf needs at least one state"),
        ("motion.gesture(motion.pan{}):whenRecognitionStateIsAnyOf{'began', 'later'}",
         "script.lua:1: whenRecognitionStateIsAnyOf: unknown recognition state 'later'"),
    ])
    func typeMismatchesAndBadArgumentsNameTheCallSite(source: String, message: String) throws {
        let error = try loadError(source)
        #expect(error.contains(message), "\(error)")
    }

    @Test func springAndTweenSourcesRunOnInputTime() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.tween{values = {0, 10}, duration = 0.05, timingFunction = "linear"}:emit("tween")
            motion.spring{to = {x = 1, y = 1}, from = {x = 1, y = 1}}:emit("spring")
            """)
        defer { runtime.close() }
        try runtime.finish()
        // Linear tween at 60 frames/s: 10·(1/60)/0.05 = 3.33…, 6.66…, then 10 at 0.05 exactly.
        #expect(output.lines.count == 10)
        #expect(Array(output.lines[0...1]) == ["0 tween state active", "0 tween 0"])
        #expect(output.lines[2].hasPrefix("0 spring state active"))
        #expect(output.lines[3...5] == ["0 spring {\"x\":1,\"y\":1}", "0 spring {\"x\":1,\"y\":1}", "0 spring state atRest"])
        #expect(output.lines[6].hasPrefix("0.016666666666666666 tween 3.33333333333333"))
        #expect(output.lines[7].hasPrefix("0.03333333333333333 tween 6.6666666666666"))
        #expect(Array(output.lines[8...9]) == ["0.05 tween 10", "0.05 tween state atRest"])
    }

    @Test(arguments: [
        ("motion.spring{to = 1}", "motion.spring: options 'to' and 'from' are required"),
        ("motion.spring{to = 1, from = 0, stiffness = 0}", "motion.spring: option 'stiffness' must be > 0, got 0"),
        ("motion.spring{to = 1, from = {x = 0, y = 0}}", "motion.spring: options 'to', 'from' and 'velocity' must all be numbers or all be points"),
        ("motion.spring{to = 1, from = 0, bounce = 2}", "motion.spring: unknown option 'bounce'"),
        ("motion.tween{values = {1, 2}}", "motion.tween: option 'duration' is required"),
        ("motion.tween{values = {}, duration = 1}", "motion.tween: option 'values' must be a non-empty list"),
        ("motion.tween{values = {1, 2}, duration = 1, timingFunction = 'bouncy'}", "motion.tween: option 'timingFunction' must be"),
        ("motion.tween{values = {1, 2}, duration = 1, offsets = {0, 0.5}}", "motion.tween: offsets must be one per value"),
    ])
    func sourceOptionErrors(source: String, message: String) throws {
        let error = try loadError(source)
        #expect(error.contains("script.lua:1: " + message), "\(error)")
    }
}

@Suite struct LuaEndOfInputTests {
    @Test func aDelayThatFeedsItselfForeverIsStoppedByTheTimeLimitAtTheEndOfInput() throws {
        let (runtime, _) = try loadedRuntime("""
            local p = motion.property(0)
            p:delay(0.000001):offset(1):subscribe(p)
            """)
        defer { runtime.close() }
        runtime.setTimeout(0.2)
        #expect(throws: ScriptError.self) { try runtime.finish() }
        #expect(runtime.pendingError?.kind == .timeout)
        #expect(runtime.pendingError?.message.contains("timeout: the script ran past its time limit (input time ") == true)
    }
}
