import CLua
import MotionGestures
@testable import MotionLua
import MotionStreams
import Testing

/// The per-event bridge: pointer events handed to Lua as tables without a Swift array, and
/// `{x, y}` read back as a point without the general table reader. Both must be exactly what
/// the general path made.
@Suite struct EventBridgeTests {
    @Test func aPointerEventIsTheTableIdPhaseXY() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.pointers():subscribe(function(e)
                local keys = {}
                for k in pairs(e) do keys[#keys + 1] = k end
                table.sort(keys)
                e.extra = 1 -- a fresh table the script may change
                motion.emit("e", {table.concat(keys, ","), math.type(e.id), e.phase, e.x, e.y, math.type(e.x)})
            end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0.5, (7, .down, 1.5, 2)))
        try runtime.handle(frame(0.6, (7, .move, -0.0, 1e300)))
        try runtime.handle(frame(0.7, (7, .up, 3, 4)))
        try runtime.handle(frame(0.8, (9, .cancel, 3, 4)))
        #expect(output.lines == [
            "0.5 e [\"id,phase,x,y\",\"integer\",\"down\",1.5,2,\"float\"]",
            "0.6 e [\"id,phase,x,y\",\"integer\",\"move\",0,1e+300,\"float\"]",
            "0.7 e [\"id,phase,x,y\",\"integer\",\"up\",3,4,\"float\"]",
            "0.8 e [\"id,phase,x,y\",\"integer\",\"cancel\",3,4,\"float\"]",
        ])
    }

    /// The keys come from the bottom of the state's stack while its mark is there, else from the
    /// registry (here after a top-level `lua_settop(L, 0)` took them): the same fresh table either
    /// way, a live device's included.
    @Test func aPointerEventIsTheSameTableWhereverItsKeysComeFrom() throws {
        let (runtime, output) = try loadedRuntime("""
            local last
            motion.pointers():subscribe(function(e)
                local keys = {}
                for k in pairs(e) do keys[#keys + 1] = k end
                table.sort(keys)
                local fresh = e ~= last
                last = e
                motion.emit("e", {table.concat(keys, ","), e.id, e.phase, e.x, e.y, e.device and e.device.kind or "none", fresh})
            end)
            """)
        defer { runtime.close() }
        let pad = PointerDevice(name: "pad", kind: "touchpad")
        func events() throws {
            try runtime.handle(Frame(t: 1, events: [PointerEvent(t: 1, id: 4, phase: .down, x: 1, y: 2, device: pad)]))
            try runtime.handle(Frame(t: 2, events: [PointerEvent(t: 2, id: 4, phase: .up, x: 3, y: 4, device: pad)]))
            try runtime.handle(frame(3, (5, .cancel, 5, 6)))
        }
        try events()
        lua_settop(runtime.mainState, 0)
        try events()
        let once = [
            "[\"device,id,phase,x,y\",4,\"down\",1,2,\"touchpad\",true]",
            "[\"device,id,phase,x,y\",4,\"up\",3,4,\"touchpad\",true]",
            "[\"id,phase,x,y\",5,\"cancel\",5,6,\"none\",true]",
        ]
        #expect(output.lines.map { String($0.drop(while: { $0 != "[" })) } == once + once)
    }

    @Test func aPointerEventIsOutputAsItsTable() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.pointers():subscribe(function(e) motion.emit("t", e) end)
            motion.pointers():map(function(e) return e end):subscribe(function(e) motion.emit("same", e) end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(1, (3, .down, 0.25, -2)))
        #expect(output.lines == [
            "1 t {\"id\":3,\"phase\":\"down\",\"x\":0.25,\"y\":-2}",
            "1 same {\"id\":3,\"phase\":\"down\",\"x\":0.25,\"y\":-2}",
        ])
    }

    @Test func aPointerEventEqualsTheObjectItStandsFor() {
        let event = PointerEvent(t: 9, id: 2, phase: .move, x: 1, y: 2)
        let object = MotionValue.object([("id", .integer(2)), ("phase", .string("move")),
                                         ("x", .number(1)), ("y", .number(2))])
        #expect(MotionValue.pointerEvent(event) == object)
        #expect(object == MotionValue.pointerEvent(event))
        #expect(MotionValue.pointerEvent(event) != .object([("id", .integer(2))]))
        #expect(MotionValue.pointerEvent(event) == .pointerEvent(PointerEvent(t: 0, id: 2, phase: .move, x: 1, y: 2)))
        #expect(MotionValue.pointerEvent(event).kindName == "table")
    }

    /// Only a table of exactly the numbers x and y is a point; anything more or less keeps
    /// every field it has.
    @Test func mapResultsReadAsPointsOnlyWhenExactlyXAndY() throws {
        let (runtime, output) = try loadedRuntime("""
            local results = {
                function(e) return {x = e.x, y = 2} end,
                function(e) return {x = 1, y = 2, z = 3} end,
                function(e) return {x = "1", y = 2} end,
                function(e) return {x = 1} end,
                function(e) return {x = 1, [1] = 2} end,
                function(e) return {x = 1, y = 2, [1] = 5} end,
                function(e) return {X = 1, y = 2} end,
                function(e) return {xx = 1, y = 2} end,
                function(e) return setmetatable({x = 1, y = 2}, {__index = function() return 0 end}) end,
            }
            for i, f in ipairs(results) do
                motion.pointers():map(f):subscribe(function(v) motion.emit(tostring(i), v) end)
            end
            """)
        defer { runtime.close() }
        try runtime.handle(frame(1, (1, .down, 5, 6)))
        #expect(output.lines == [
            "1 1 {\"x\":5,\"y\":2}",
            "1 2 {\"x\":1,\"y\":2,\"z\":3}",
            "1 3 {\"x\":\"1\",\"y\":2}",
            "1 4 {\"x\":1}",
            "1 5 {\"1\":2,\"x\":1}",
            "1 6 {\"1\":5,\"x\":1,\"y\":2}",
            "1 7 {\"X\":1,\"y\":2}",
            "1 8 {\"xx\":1,\"y\":2}",
            "1 9 {\"x\":1,\"y\":2}",
        ])
    }

    @Test func aMappedPointIsAPointDownstream() throws {
        let (runtime, _) = try loadedRuntime("""
            box = motion.property({x = 0, y = 0})
            motion.pointers():map(function(e) return {x = e.x * 2, y = e.y} end):subscribe(box)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(1, (1, .down, 5, 6)))
        #expect(runtime.global("box")?.point == Point(x: 10, y: 6))
    }

    /// Every event gets a table of its own: one a script keeps, or changes, never changes
    /// with later events.
    @Test func aKeptEventTableNeverChangesLater() throws {
        let (runtime, output) = try loadedRuntime("""
            local kept = {}
            motion.pointers():subscribe(function(e)
                kept[#kept + 1] = e
                e.seen = #kept
                if #kept == 4 then
                    for i, k in ipairs(kept) do
                        motion.emit("k", {i, k.id, k.phase, k.x, k.y, k.seen, k == kept[i % 4 + 1]})
                    end
                end
            end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(1, (1, .down, 10, 20)))
        try runtime.handle(frame(2, (1, .move, 11, 21), (2, .down, 30, 40)))
        try runtime.handle(frame(3, (2, .up, 31, 41)))
        #expect(output.lines == [
            "3 k [1,1,\"down\",10,20,1,false]",
            "3 k [2,1,\"move\",11,21,2,false]",
            "3 k [3,2,\"down\",30,40,3,false]",
            "3 k [4,2,\"up\",31,41,4,false]",
        ])
    }

    /// The gesture value a gesture stream hands a callback: fields and methods work (methods
    /// are looked up first; `velocity` is a method but for swipes, where it is a field).
    @Test func aGestureValueReachesACallbackWithItsMethods() throws {
        let (runtime, output) = try loadedRuntime("""
            local pan = motion.pan()
            motion.gesture(pan):subscribe(function(g)
                local t = g:translation()
                motion.emit("g", {g.state, g.kind, t.x, t.y, type(g.velocity), g.direction == nil, g.pointers})
            end)
            """)
        defer { runtime.close() }
        for f in dragFrames(moves: 2) { try runtime.handle(f) }
        #expect(output.lines == [
            "0 g [\"possible\",\"translation\",0,0,\"function\",true,0]",
            "0.016 g [\"began\",\"translation\",10,0,\"function\",true,1]",
            "0.032 g [\"changed\",\"translation\",20,0,\"function\",true,1]",
            "0.048 g [\"ended\",\"translation\",20,0,\"function\",true,1]",
        ])
    }

    /// A Lua function subscribed to `motion.pointers()` is called straight from the dispatcher:
    /// still in input order among the other subscriptions, and gone once unsubscribed.
    @Test func aDirectPointerCallbackKeepsOrderAndUnsubscribes() throws {
        let (runtime, output) = try loadedRuntime("""
            local n = 0
            local sub
            sub = motion.pointers():subscribe(function(e)
                n = n + 1
                motion.emit("a", e.x)
                if n == 2 then sub:unsubscribe() end
            end)
            motion.pointers():map(function(e) return e.x * 10 end):subscribe(function(v) motion.emit("b", v) end)
            motion.pointers():subscribe(function(e) motion.emit("c", e.phase) end, function(s) motion.emit("state", s) end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(1, (1, .down, 1, 0), (2, .down, 2, 0)))
        try runtime.handle(frame(2, (1, .up, 3, 0)))
        #expect(output.lines == [
            "1 a 1", "1 b 10", "1 c \"down\"",
            "1 a 2", "1 b 20", "1 c \"down\"",
            "2 b 30", "2 c \"up\"",
        ])
        #expect(runtime.subscriptionCount == 2)
    }
}
