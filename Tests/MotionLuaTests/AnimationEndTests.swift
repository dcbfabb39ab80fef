import Foundation
import MotionGestures
import MotionLua
import Testing

/// Issue 19 item 7: a script that starts a spring per touch stays flat. A spring or tween that
/// came to rest ends its subscription (docs/reference.md, "The Lua API": a finished animation's subscription ends).
@Suite struct AnimationEndTests {
    /// One tap a second for `touches` seconds; each lift starts a spring (in a callback) that
    /// rests well within the second.
    private func touches(_ runtime: LuaRuntime, _ count: Int, from start: Int = 0) throws {
        for k in start..<(start + count) {
            let t = Double(k)
            try runtime.handle(frame(t, (1, .down, 10, 10)))
            try runtime.handle(frame(t + 0.05, (1, .up, 10, 10)))
        }
        // Time goes on: the last springs come to rest.
        try runtime.handle(frame(Double(start + count) + 0.5, (2, .down, 0, 0)))
        try runtime.handle(frame(Double(start + count) + 0.6, (2, .cancel, 0, 0)))
    }

    @Test func aSpringPerTouchDoesNotGrowTheSubscriptions() throws {
        let (runtime, output) = try loadedRuntime("""
            local box = motion.property(0)
            local n = 0
            motion.tap{}:on("recognized", function()
              n = n + 1
              motion.spring{from = 0, to = 100}:subscribe(box)
              motion.spring{from = 0, to = 1}:map(function(v) return v * 2 end):subscribe(function(v) end)
              if n == 1 then motion.tween{values = {0, 1}, duration = 0.2}:emit("tween") end
            end)
            """)
        defer { runtime.close() }
        let before = runtime.subscriptionCount  // the tap's
        try touches(runtime, 300)
        #expect(before == 1)
        // Before: 1 + 2 per touch (601 after 300 touches), each with its callback.
        #expect(runtime.subscriptionCount == 1)
        // What is left is garbage the collector has not reached yet (the streams' map functions),
        // not a count that grows with the touches: 300 touches more change nothing. A minor
        // collection comes every 40% of heap growth (docs/performance.md), so some 30 may wait for the next
        // (26 here; under 20 when it came every 20%).
        let callbacks = runtime.liveCallbacks
        #expect(callbacks < 40)
        try touches(runtime, 300, from: 301)
        #expect(runtime.subscriptionCount == 1)
        #expect(runtime.liveCallbacks < 40)
        // The ended animation still said it came to rest.
        #expect(output.lines.filter { $0.contains("tween state") } == ["0.05 tween state active", "0.25 tween state atRest"])
    }

    /// What does not end: a spring through `delay` (its values come after the rest), one merged
    /// with another stream, and every other source.
    @Test func onlyFiniteAnimationsEnd() throws {
        let (runtime, _) = try loadedRuntime("""
            local p = motion.property(0)
            motion.tap{}:on("recognized", function()
              motion.spring{from = 0, to = 1}:delay(0.1):subscribe(function() end)
              motion.spring{from = 0, to = 1}:merge(p):subscribe(function() end)
            end)
            """)
        defer { runtime.close() }
        try touches(runtime, 10)
        #expect(runtime.subscriptionCount == 1 + 2 * 10)
    }

    /// Unsubscribing an ended subscription is harmless.
    @Test func unsubscribingAnEndedAnimationDoesNothing() throws {
        let (runtime, output) = try loadedRuntime("""
            local sub = motion.spring{from = 0, to = 0}:emit("s")
            sub:unsubscribe()
            motion.emit("after", true)
            """)
        defer { runtime.close() }
        #expect(runtime.subscriptionCount == 0)
        #expect(output.lines == ["0 s state active", "0 s 0", "0 s 0", "0 s state atRest", "0 after true"])
    }
}
