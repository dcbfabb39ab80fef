import Foundation
import Testing
import MotionGestures
@testable import MotionLua

/// The error a script's setup ends with ("" if none).
func setupError(_ source: String, memoryLimit: Int = 0, sandbox: Bool = false) -> ScriptError? {
    let runtime: LuaRuntime
    do {
        runtime = try LuaRuntime(scriptPath: writeScript(source), output: TestOutput(), memoryLimit: memoryLimit, sandbox: sandbox)
    } catch {
        return error as? ScriptError
    }
    defer { runtime.close() }
    do {
        try runtime.load()
        return nil
    } catch {
        return error as? ScriptError
    }
}

/// Values crossing the seam: any table a script hands over is read within bounds (depth,
/// cycles, size), strings and integers cross unchanged, and a table that JSON cannot hold is
/// an error at the script's line.
@Suite struct HostileValueTests {
    /// Every way a script hands a table to Swift, with `T` standing for the table.
    static let handOvers = [
        "motion.emit('x', T)",
        "motion.property(T)",
        "motion.property(0):write(T)",
        "local p = motion.property(0) p:map(function() return T end):subscribe(function() end) p:write(1)",
        "motion.property(0):startWith(T)",
        "motion.spring{to = T, from = 0}",
    ]

    @Test(arguments: handOvers)
    func aTableThatContainsItselfIsALuaErrorAtTheScriptsLine(handOver: String) throws {
        let source = "local T = {1, 2}\nT[3] = {T}\n" + handOver.replacingOccurrences(of: "T", with: "T")
        let error = try #require(setupError(source))
        #expect(error.kind == .runtime)
        #expect(error.message.contains("script.lua:3:"), "\(error.message)")
        #expect(error.message.contains("a table that contains itself (a cycle)"), "\(error.message)")
    }

    @Test(arguments: [65, 200, 250, 10_000, 100_000])
    func aTableNestedDeeperThan64IsALuaErrorAtAnyDepth(depth: Int) throws {
        for handOver in Self.handOvers {
            let source = "local T = {} for i = 1, \(depth) do T = {T} end\n" + handOver
            let error = try #require(setupError(source), "\(handOver)")
            #expect(error.message.contains("script.lua:2:"), "\(error.message)")
            #expect(error.message.contains("a table nested more than 64 deep"), "\(error.message)")
        }
    }

    /// 18 and 19 levels crashed the host once (no stack check while converting).
    @Test(arguments: [18, 19])
    func tablesWithinTheDepthBoundWorkEverywhere(depth: Int) throws {
        for handOver in Self.handOvers.dropLast() {  // (a spring takes numbers or points only)
            #expect(setupError("local T = {} for i = 1, \(depth) do T = {T} end\n" + handOver) == nil, "\(handOver)")
        }
    }

    @Test func aTable63DeepIsOutputWhole() throws {
        let (runtime, output) = try loadedRuntime("local T = 1 for i = 1, 63 do T = {T} end motion.emit('x', T)")
        defer { runtime.close() }
        #expect(output.lines == ["0 x " + String(repeating: "[", count: 63) + "1" + String(repeating: "]", count: 63)])
    }

    @Test func sharedSubtablesCannotExpandBeyondAHundredThousandParts() throws {
        // 2^40 leaves if expanded; each level holds the previous table twice.
        let error = try #require(setupError("local T = {} for i = 1, 40 do T = {T, T} end\nmotion.emit('x', T)"))
        #expect(error.message.contains("script.lua:2:"))
        #expect(error.message.contains("a value of more than 100000 parts"))
    }

    @Test func nulBytesSurviveInStringsAndNames() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.emit("na\\0me", "a\\0b")
            local p = motion.property("x\\0y")
            motion.emit("len", #p:read())
            """)
        defer { runtime.close() }
        #expect(output.lines == ["0 na\u{0}me \"a\\u0000b\"", "0 len 3"])
    }

    @Test func integersStayLuaIntegersAndPrintExactly() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.emit("max", math.maxinteger)
            motion.emit("min", math.mininteger)
            local p = motion.property(5)
            motion.emit("type", math.type(p:read()))
            motion.emit("big", motion.property((1 << 53) + 1):read())
            motion.pointers():subscribe(function(e) motion.emit("name", "finger" .. e.id) end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0.5, (1, .down, 0, 0)))
        #expect(output.lines == ["0 max 9223372036854775807", "0 min -9223372036854775808", "0 type \"integer\"",
                                 "0 big 9007199254740993", "0.5 name \"finger1\""])
    }

    @Test func integerFieldsOfGesturesAreIntegers() throws {
        let (runtime, output) = try loadedRuntime("""
            local pan = motion.pan{threshold = 0}
            motion.gesture(pan):subscribe(function(g) motion.emit("p", "n" .. g.pointers) end)
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 0, 0)))
        try runtime.handle(frame(0.016, (1, .move, 5, 0)))
        #expect(output.lines.last == "0.016 p \"n1\"")
    }

    @Test(arguments: [
        ("{[1] = 'a', ['1'] = 'b'}", "a table with both the key 1 and the key \"1\" (the same JSON key), which cannot be output"),
        ("{x = 1, [-3] = 2, ['-3'] = 4}", "a table with both the key -3 and the key \"-3\" (the same JSON key), which cannot be output"),
        ("{[true] = 1}", "a table with the boolean key true, which cannot be output (only string and integer keys can)"),
        ("{[1.5] = 1}", "a table with the non-integer number key 1.5, which cannot be output (only string and integer keys can)"),
        ("{[{}] = 1}", "a table with a table key, which cannot be output (only string and integer keys can)"),
    ])
    func tablesJSONCannotHoldAreErrorsNamingTheKey(table: String, message: String) throws {
        let error = try #require(setupError("local t = \(table)\nmotion.emit('x', t)"))
        #expect(error.message.contains("script.lua:2: bad argument #2 to 'motion.emit' (\(message))"), "\(error.message)")
    }

    @Test func invalidUTF8BecomesTheReplacementCharacter() throws {
        let (runtime, output) = try loadedRuntime("""
            motion.emit("n\\255", "a\\255b\\192")
            motion.emit("ok", "é")
            """)
        defer { runtime.close() }
        #expect(output.lines == ["0 n\u{FFFD} \"a\u{FFFD}b\u{FFFD}\"", "0 ok \"é\""])
    }
}
