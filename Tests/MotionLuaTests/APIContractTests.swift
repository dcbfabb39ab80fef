import Testing
@testable import MotionLua

/// Every name of the Lua surface in API.md exists (outside conformance checks use exactly these).
@Suite struct APIContractTests {
    @Test func everyNameInAPIMDExists() throws {
        let (runtime, output) = try loadedRuntime("""
            local m = require "motion"
            local missing = {}
            local function need(ok, name) if not ok then missing[#missing + 1] = name end end
            need(m == motion, "require 'motion'")
            for _, f in ipairs({"element", "tap", "translation", "pan", "rotation", "scale", "gesture",
                                "tapSource", "property", "pointers", "time", "emit"}) do
                need(type(motion[f]) == "function", "motion." .. f)
            end
            need(motion.screen ~= nil, "motion.screen")
            local p = motion.property({x = 0, y = 0})
            for _, f in ipairs({"read", "write", "subscribe", "emit"}) do need(p[f] ~= nil, "p:" .. f) end
            local s = motion.gesture(motion.pan{})
            for _, f in ipairs({"subscribe", "emit", "translation", "translated", "rotation", "scale", "map",
                                "filter", "dedupe", "log", "x", "y"}) do
                need(s[f] ~= nil, "s:" .. f)
            end
            local sub = s:subscribe(function(g)
                for _, f in ipairs({"location", "translation", "rotation", "scale", "velocity"}) do
                    need(g[f] ~= nil, "g:" .. f)
                end
                need(g.state == "possible", "g.state")
                need(g.pointers == 0, "g.pointers")
            end)
            need(sub.unsubscribe ~= nil, "sub:unsubscribe")
            sub:unsubscribe()
            for _, r in ipairs({motion.tap{}, motion.translation{}, motion.rotation{}, motion.scale{}}) do
                need(r.state == "possible", r.kind .. ".state")
            end
            motion.emit("missing", missing)
            """)
        defer { runtime.close() }
        #expect(output.lines == ["0 missing []"])
    }
}
