import MotionLua
import Testing

/// The state's allocator keeps small blocks in size classes and moves a block between its
/// pools and malloc as Lua grows and shrinks it: every value must come through unchanged,
/// and the state's memory count must go back down when the values are gone.
@Suite struct StateAllocatorTests {
    @Test func valuesOfEverySizeSurviveGrowingAndShrinking() throws {
        let (runtime, output) = try loadedRuntime("""
            -- Arrays grow through every size class and past the small sizes, strings of every
            -- length are made and joined, then the tables shrink again (rehash on insert).
            local t, sum = {}, 0
            for i = 1, 1000 do t[i] = i * i end
            for i = 1, 1000 do sum = sum + t[i] end
            local parts = {}
            for n = 1, 600 do parts[n] = string.rep(string.char(97 + n % 26), n) end
            local joined = table.concat(parts)
            local letters = 0
            for n = 1, 600 do if parts[n]:sub(n, n) == string.char(97 + n % 26) then letters = letters + 1 end end
            for i = 1000, 9, -1 do t[i] = nil end
            collectgarbage()
            t.key = "after shrinking"
            local h = {}
            for i = 1, 300 do h["k" .. i] = i end
            for i = 1, 300 do h["k" .. i] = nil end
            h.last = 1
            collectgarbage()
            motion.emit("r", {sum, #joined, letters, #t, t[8], t.key, h.last, next(h)})
            """)
        defer { runtime.close() }
        #expect(output.lines == ["0 r [333833500,180300,600,8,64,\"after shrinking\",1,\"last\",1]"])
    }

    @Test func memoryComesBackWhenValuesAreGone() throws {
        let (runtime, output) = try loadedRuntime("""
            collectgarbage()
            motion.pointers():subscribe(function(e)
                local kept = {}
                for i = 1, 20000 do kept[i] = {x = i, y = e.x, name = "n" .. i} end
                motion.emit("made", #kept)
                kept = nil
                collectgarbage()
                collectgarbage()
            end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 0, 0)))
        let before = runtime.memoryUsed
        try runtime.handle(frame(1, (1, .move, 1, 0)))
        try runtime.handle(frame(2, (1, .up, 2, 0)))
        #expect(output.lines == ["0 made 20000", "1 made 20000", "2 made 20000"])
        // 20,000 tables of three fields take megabytes; once collected, the count is back
        // within a few kilobytes of where it was.
        #expect(runtime.memoryUsed < before + 64 << 10, "\(before) -> \(runtime.memoryUsed)")
    }
}
