import Foundation
import Testing
import MotionGestures
@testable import MotionLua

/// The number at the end of an output line ("0.016 r 1.5" → 1.5).
private func number(_ line: String) -> Double? {
    line.split(separator: " ").last.flatMap { Double($0) }
}

/// Loads `source`; returns the message of its load error ("" if none).
func loadError(_ source: String) throws -> String {
    let runtime = try LuaRuntime(scriptPath: writeScript(source), output: TestOutput())
    defer { runtime.close() }
    do {
        try runtime.load()
    } catch let error as ScriptError {
        return error.message
    }
    return ""
}

/// Two pointers down at (0,0) and (100,100), then the second moves to `to`, then both lift.
private func pairFrames(to: (Double, Double)) -> [Frame] {
    [frame(0, (1, .down, 0, 0), (2, .down, 100, 100)),
     frame(0.016, (2, .move, to.0, to.1)),
     frame(0.032, (1, .up, 0, 0), (2, .up, to.0, to.1))]
}

/// motion.rotation and motion.scale through Lua, with the options of every recognizer.
@Suite struct LuaRecognizerTests {
    // MARK: Conformance numbers (reference.md)

    @Test func rotationConformanceTwoPointersTo105_607() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.gesture(motion.rotation{threshold = 0}):subscribe(function(g)
                if g.state == "began" then motion.emit("r", g:rotation()) end
            end)
            motion.gesture(motion.rotation{threshold = 0}):rotation(motion.property(0)):emit("added")
            """)
        defer { runtime.close() }
        for f in pairFrames(to: (105, 607)) { try runtime.handle(f) }
        let expected = atan2(607.0, 105.0) - atan2(100.0, 100.0)  // 0.614111319144933
        #expect(output.lines.count == 5)
        let r = try #require(output.lines.first { $0.hasPrefix("0.016 r ") }.flatMap(number))
        let added = try #require(output.lines.first { $0.hasPrefix("0.016 added ") && !$0.contains("state") }.flatMap(number))
        #expect(abs(r - expected) < 1e-12)
        #expect(abs(added - expected) < 1e-12)
    }

    @Test func scaleConformanceTwoPointersTo605_607() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.gesture(motion.scale{}):scale(motion.property(1)):emit("s")
            """)
        defer { runtime.close() }
        for f in pairFrames(to: (605, 607)) { try runtime.handle(f) }
        let current: Double = (605.0 * 605.0 + 607.0 * 607.0).squareRoot()
        let reference: Double = (100.0 * 100.0 + 100.0 * 100.0).squareRoot()
        let expected = current / reference  // 6.0600082508194655
        #expect(output.lines.count == 4)  // atRest, active, the value, atRest
        let s = try #require(output.lines.first { $0.hasPrefix("0.016 s ") && !$0.contains("state") }.flatMap(number))
        #expect(abs(s - expected) < 1e-12)
    }

    // MARK: rotation(addedTo) / scale(addedTo)

    @Test func rotationAddedToReadsThePropertyWhenTheGestureBeginsOnly() throws {
        let (runtime, output) = try loadedRuntime("""
            local angle = motion.property(10)
            local rotation = motion.gesture(motion.rotation{}):rotation(angle)
            rotation:subscribe(function(v) motion.emit("r", v) end)
            -- Writing the property mid-gesture does not move the cache (read on began only).
            rotation:subscribe(function(v) angle:write(0) end)
            """)
        defer { runtime.close() }
        let turn = [frame(0, (1, .down, 0, 0), (2, .down, 100, 0)),
                    frame(0.016, (2, .move, 0, 100)),   // π/2
                    frame(0.032, (2, .move, -100, 0)),  // π
                    frame(0.048, (1, .up, 0, 0), (2, .up, -100, 0))]
        for f in turn { try runtime.handle(f) }
        for f in turn { try runtime.handle(Frame(t: f.t + 1, events: f.events)) }
        #expect(output.lines == [
            "0.016 r 11.570796326794897",  // 10 + π/2
            "0.032 r 13.141592653589793",  // 10 + π: the cache still holds 10
            "1.016 r 1.5707963267948966",  // the next gesture reads 0
            "1.032 r 3.141592653589793",
        ])
    }

    @Test func scaleAddedToMultipliesAndTheNextPinchContinues() throws {
        let (runtime, output) = try loadedRuntime("""
            local size = motion.property(2)
            motion.gesture(motion.scale{}):scale(size):subscribe(size)
            size:emit("size")
            """)
        defer { runtime.close() }
        let pinch = [frame(0, (1, .down, 0, 0), (2, .down, 100, 0)),
                     frame(0.016, (2, .move, 150, 0)),
                     frame(0.032, (2, .move, 200, 0)),
                     frame(0.048, (1, .up, 0, 0), (2, .up, 200, 0))]
        for f in pinch { try runtime.handle(f) }
        for f in pinch { try runtime.handle(Frame(t: f.t + 1, events: f.events)) }
        #expect(output.lines == ["0 size 2", "0.016 size 3", "0.032 size 4", "1.016 size 6", "1.032 size 8"])
    }

    @Test func rotationAddedToAnyStreamUsesItsLatestValue() throws {
        let (runtime, output) = try loadedRuntime("""
            local base = motion.property(1):map(function(v) return v * 3 end)
            motion.gesture(motion.rotation{threshold = 0}):rotation(base):emit("r")
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
        try runtime.handle(frame(0.016, (2, .move, 0, 100)))
        #expect(output.lines == ["0 r state atRest", "0.016 r state active", "0.016 r 4.570796326794897"])
    }

    @Test func rotationMethodOnATranslationGestureStreamIsAClearLuaError() throws {
        #expect(try loadError("""
            local p = motion.property(0)
            motion.gesture(motion.pan{}):rotation(p):emit("r")
            """).contains("script.lua:2: rotation() expects a stream of rotation gestures, got a translation gesture"))
        #expect(try loadError("""
            motion.gesture(motion.rotation{}):scale(motion.property(1)):emit("s")
            """).contains("script.lua:1: scale() expects a stream of scale gestures, got a rotation gesture"))
        #expect(try loadError("""
            motion.property(3):rotation(motion.property(0)):emit("r")
            """).contains("script.lua:1: rotation() expects a stream of rotation gestures, got a number"))
        #expect(try loadError("""
            motion.gesture(motion.rotation{}):rotation(motion.property({x = 1, y = 2})):emit("r")
            """) == "")  // nothing is read until a gesture begins
    }

    @Test func aPointInitialValueForRotationFailsWhenTheGestureBegins() throws {
        let (runtime, _) = try loadedRuntime("""
            motion.gesture(motion.rotation{threshold = 0}):rotation(motion.property({x = 1, y = 2})):emit("r")
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
        #expect(throws: ScriptError.self) { try runtime.handle(frame(0.016, (2, .move, 0, 100))) }
        #expect(runtime.pendingError?.message.hasSuffix("/script.lua:1: the initial value is a point, expected a number") == true)
    }

    @Test func rotationAndScaleGestureValuesInLua() throws {
        let (runtime, output) = try loadedRuntime("""
            local r = motion.rotation{}
            motion.gesture(r):subscribe(function(g)
                if g.state == "began" then
                    motion.emit("g", {g.kind, g.state, g.pointers, g:rotation(), g:location().x, r.state, r.pointers})
                end
            end)
            motion.gesture(motion.scale{}):subscribe(function(g)
                if g.state == "began" then motion.emit("s", {g.kind, g:scale()}) end
            end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
        try runtime.handle(frame(0.016, (2, .move, 0, 200)))
        #expect(output.lines == ["0.016 g [\"rotation\",\"began\",2,1.5707963267948966,0,\"began\",2]",
                                 "0.016 s [\"scale\",2]"])
    }

    // MARK: Options

    @Test(arguments: [
        ("motion.rotation{threshold = -1}", "motion.rotation: option 'threshold' must be >= 0, got -1"),
        ("motion.rotation{threshold = 'x'}", "motion.rotation: option 'threshold' must be a number, got string"),
        ("motion.rotation{minPointers = 2}", "motion.rotation: unknown option 'minPointers' (known: element, threshold, enabled, fingers, requireToFail, devices, apps, consume)"),
        ("motion.rotation{element = 1}", "motion.rotation: option 'element' must be an element"),
        ("motion.rotation{enabled = 'yes'}", "motion.rotation: option 'enabled' must be a boolean, got string"),
        ("motion.rotation(5)", "bad argument #1 to 'motion.rotation' (table of options expected, got number)"),
        ("motion.scale{threshold = -0.5}", "motion.scale: option 'threshold' must be >= 0, got -0.5"),
        ("motion.scale{threshold = math.huge}", "motion.scale: option 'threshold' must be finite"),
        ("motion.scale{treshold = 0.1}", "motion.scale: unknown option 'treshold'"),
        ("motion.scale{element = {}}", "motion.scale: option 'element' must be an element"),
        ("motion.scale{enabled = 0}", "motion.scale: option 'enabled' must be a boolean, got number"),
        ("motion.tap{taps = 0}", "motion.tap: option 'taps' must be >= 1, got 0"),
        ("motion.tap{taps = 1.5}", "motion.tap: option 'taps' must be an integer, got 1.5"),
        ("motion.tap{maxDuration = 0}", "motion.tap: option 'maxDuration' must be > 0, got 0"),
        ("motion.tap{maxDuration = 'long'}", "motion.tap: option 'maxDuration' must be a number, got string"),
        ("motion.tap{maxMovement = -1}", "motion.tap: option 'maxMovement' must be >= 0, got -1"),
        ("motion.tap{interval = -0.1}", "motion.tap: option 'interval' must be >= 0, got -0.1"),
        ("motion.tap{requireToFail = 3}", "motion.tap: option 'requireToFail' must be a recognizer or a list of recognizers, got number"),
        ("motion.tap{requireToFail = {}}", "motion.tap: option 'requireToFail' must be a recognizer or a list of recognizers"),
        ("motion.tap{element = motion.pan{}}", "motion.tap: option 'element' must be an element"),
        ("motion.tap{enabled = 1}", "motion.tap: option 'enabled' must be a boolean, got number"),
        ("motion.tap{tap = 2}", "motion.tap: unknown option 'tap'"),
        ("motion.tapSource(motion.pan{})", "bad argument #1 to 'motion.tapSource' (tap recognizer expected, got a translation recognizer)"),
        ("motion.tapSource()", "bad argument #1 to 'motion.tapSource' (recognizer expected, got no value)"),
        ("local p = motion.pan{}; p:requireToFail(p)", "requireToFail: a recognizer cannot wait for itself to fail"),
        ("local t = motion.tap{}; t:requireToFail(t)", "requireToFail: a recognizer cannot wait for itself to fail"),
        ("motion.tap{}:requireToFail(3)", "bad argument #2 to 'requireToFail' (recognizer expected, got number)"),
    ])
    func badOptionsNameTheOption(source: String, message: String) throws {
        let error = try loadError(source)
        #expect(!error.isEmpty)
        #expect(error.contains("script.lua:1: " + message), "\(error)")
    }

    @Test func recognizerFieldsForRotationScaleAndTap() throws {
        let (runtime, output) = try loadedRuntime("""
            local e = motion.element{x = 1, y = 2, width = 3, height = 4}
            for _, r in ipairs{motion.rotation{element = e}, motion.scale{enabled = false}, motion.tap{}} do
                motion.emit("r", {r.kind, r.state, r.pointers, r.enabled, r.element.width})
            end
            """)
        defer { runtime.close() }
        #expect(output.lines == ["0 r [\"rotation\",\"possible\",0,true,3]",
                                 "0 r [\"scale\",\"possible\",0,false,null]",
                                 "0 r [\"tap\",\"possible\",0,true,null]"])
    }

    @Test func disabledRotationIgnoresPointersUntilEnabled() throws {
        let (runtime, output) = try loadedRuntime("""
            rot = motion.rotation{threshold = 0, enabled = false}
            motion.gesture(rot):subscribe(function(g) motion.emit("s", g.state) end)
            motion.pointers():subscribe(function(p) if p.id == 9 then rot.enabled = true end end)
            """)
        defer { runtime.close() }
        for f in pairFrames(to: (0, 100)) { try runtime.handle(f) }
        try runtime.handle(frame(1, (9, .down, 500, 500)))
        try runtime.handle(frame(1.5, (9, .up, 500, 500)))
        for f in pairFrames(to: (0, 100)) { try runtime.handle(Frame(t: f.t + 2, events: f.events)) }
        #expect(output.lines == ["0 s \"possible\"", "2.016 s \"began\"", "2.032 s \"ended\""])
    }

    @Test func disablingARecognizerFromACallbackCancelsItsGestureNow() throws {
        let (runtime, output) = try loadedRuntime("""
            pan = motion.pan{threshold = 0, element = motion.element{width = 100, height = 100}}
            motion.gesture(pan):subscribe(function(g) motion.emit("s", g.state) end)
            motion.pointers():subscribe(function(p) if p.id == 2 then pan.enabled = false end end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 10, 10)))
        try runtime.handle(frame(0.016, (1, .move, 20, 10)))
        try runtime.handle(frame(1, (2, .down, 500, 500)))  // outside the pan's element
        #expect(output.lines == ["0 s \"possible\"", "0.016 s \"began\"", "1 s \"cancelled\""])
    }
}
