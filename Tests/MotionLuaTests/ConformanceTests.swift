import MotionGestures
import MotionStreams
import Testing
@testable import MotionLua
import MotionJSON

/// Material Motion's own numbers for `startWith`, `distance(from:)` and `addedTo` streams.
@Suite struct ConformanceTests {
    @Test func startWithOnAPropertyIsRemembered() throws {
        let (runtime, output) = try loadedRuntime("""
            local p = motion.property(0)
            local s = p:startWith(10)
            s:emit("first")
            p:write(-10)
            p:write(50)
            s:emit("second")
            """)
        defer { runtime.close() }
        #expect(output.lines == ["0 first 0", "0 first -10", "0 first 50", "0 second 50"])
    }

    @Test func distanceFromAPropertyOrStreamUsesItsLatestValue() throws {
        let (runtime, output) = try loadedRuntime("""
            local origin = motion.property(4)
            local values = motion.property(10)
            values:distance(origin):emit("d")
            origin:write(20)
            values:write(12)
            local point = motion.property({x = 0, y = 0})
            motion.property({x = 3, y = 4}):distance(point:map(function(p) return p end)):emit("e")
            """)
        defer { runtime.close() }
        #expect(output.lines == ["0 d 6", "0 d 10", "0 d 8", "0 e 5"])
    }

    /// Issue 22: Material Motion's `distance(from:)` re-emits when `from` changes: 0, 10, 5
    /// (it gave 0, 10: the move of `from` was read only at the next value).
    @Test func distanceReEmitsWhenItsOriginChanges() throws {
        let (runtime, output) = try loadedRuntime("""
            local from = motion.property(10)
            local values = motion.property(10)
            values:distance(from):emit("d")
            values:write(20)
            from:write(15)
            """)
        defer { runtime.close() }
        #expect(output.lines == ["0 d 0", "0 d 10", "0 d 5"])
    }

    @Test func distanceOfMixedKindsNamesTheCall() throws {
        let output = TestOutput()
        let runtime = try LuaRuntime(scriptPath: writeScript("""
            motion.property(1):distance(motion.property({x = 0, y = 0})):emit("d")
            """), output: output)
        defer { runtime.close() }
        do {
            try runtime.load()
            Issue.record("expected a script error")
        } catch let error as ScriptError {
            #expect(error.message.contains("script.lua:1: distance() needs values and location of one kind"), "\(error.message)")
        }
    }

    @Test func anAddedToStreamIsFollowedOnlyOnceSubscribed() throws {
        let (runtime, output) = try loadedRuntime("""
            local calls = 0
            local anchor = motion.property({x = 5, y = 5})
            local followed = anchor:map(function(p) calls = calls + 1 return p end)
            local unused = motion.gesture(motion.pan{threshold = 0}):translation(followed)
            motion.emit("calls", calls)
            unused:emit("p")
            motion.emit("calls", calls)
            """)
        defer { runtime.close() }
        #expect(output.lines == ["0 calls 0", "0 p state atRest", "0 calls 1"])
    }

    @Test func anAddedToStreamGivesTheSameNumbersInSwiftAndLua() throws {
        // The anchor moves after the pipeline is subscribed and before the drag: its latest
        // value (30, 30) doubled is the start, in both.
        let (runtime, output) = try loadedRuntime("""
            local anchor = motion.property({x = 5, y = 5})
            local doubled = anchor:map(function(p) return {x = p.x * 2, y = p.y * 2} end)
            motion.gesture(motion.pan{threshold = 0}):translation(doubled):emit("p")
            anchor:write({x = 15, y = 15})
            """)
        defer { runtime.close() }
        for f in dragFrames(moves: 2) { try runtime.handle(f) }
        let lua = output.lines.filter { !$0.contains("state") }

        let pan = try TranslationGestureRecognizer(threshold: 0)
        let anchor = ReactiveProperty(Point(x: 5, y: 5))
        var swift: [String] = []
        let subscription = gestureSource(pan).translation(addedTo: anchor.stream._map { $0 * 2 })
            .subscribe(next: { swift.append("\(JSONText.point($0))") })
        anchor.write(Point(x: 15, y: 15))
        for f in dragFrames(moves: 2) { pan.handle(f) }
        subscription.unsubscribe()

        #expect(lua == ["0.016 p {\"x\":40,\"y\":30}", "0.032 p {\"x\":50,\"y\":30}"])
        #expect(lua.map { String($0.split(separator: " ")[2]) } == swift)
    }

    @Test func emitWritesStateLinesOnChangeOnly() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.gesture(motion.pan{threshold = 0}):subscribe(function() end, function(s) motion.emit("s", s) end)
            motion.gesture(motion.pan{threshold = 0}):emit("g")
            """)
        defer { runtime.close() }
        for f in dragFrames(moves: 2) { try runtime.handle(f) }
        let states = output.lines.filter { $0.contains(" s ") }
        let emitted = output.lines.filter { $0.contains(" g state") }
        #expect(states == ["0 s \"atRest\"", "0.016 s \"active\"", "0.032 s \"active\"", "0.048 s \"atRest\""])
        #expect(emitted == ["0 g state atRest", "0.016 g state active", "0.048 g state atRest"])
    }
}
