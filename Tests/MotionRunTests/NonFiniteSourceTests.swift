import Foundation
import Testing
import MotionPluginHost
import MotionRun
import MotionLua
import MotionTestSupport

/// Springs and tweens never emit NaN or infinity: non-finite options are errors at the call,
/// and a value that overflows on the way stops the run with an error naming the source.
@Suite struct NonFiniteSourceTests {
    private func run(_ source: String) throws -> (lines: [String], error: String?) {
        let folder = makeTemporaryFolder("nonfinite")
        let script = writeFile("local s = \(source)\ns:subscribe(function(v) motion.emit('v', v) end)\n", "s.lua", in: folder)
        let events = writeFile(shortDragEvents, "drag.events.jsonl", in: folder)
        let output = CollectedOutput()
        do {
            try Runner.run(RunOptions(scriptPath: script, eventsPath: events, timeout: 30), output: output)
            return (output.lines, nil)
        } catch let error as ScriptError {
            return (output.lines, error.message)
        }
    }

    @Test(arguments: [
        ("motion.spring{to = 0, from = 10, velocity = 0/0}", "s.lua:1: motion.spring: velocity must be finite"),
        ("motion.spring{to = 1/0, from = 0}", "s.lua:1: motion.spring: to must be finite"),
        ("motion.spring{to = {x = 0, y = 0}, from = {x = -1/0, y = 0}}", "s.lua:1: motion.spring: from must be finite"),
        ("motion.spring{to = 1e308, from = -1e308}", "s.lua:1: motion.spring: from must be within a finite distance of 'to'"),
        ("motion.tween{values = {0, 0/0}, duration = 1}", "s.lua:1: motion.tween: values must be finite"),
        ("motion.tween{values = {0, 1}, duration = 1, timingFunction = {0.5, 1/0, 0.5, 1}}",
         "s.lua:1: motion.tween: timingFunction must be a cubic Bézier with x1 and x2 in 0…1, y1 and y2 finite"),
    ])
    func nonFiniteOptionsAreErrorsAtTheCall(source: String, message: String) throws {
        let result = try run(source)
        #expect(result.lines.isEmpty)
        #expect(result.error?.contains(message) == true, "\(result.error ?? "no error")")
    }

    /// Finite options whose arithmetic overflows: the values before are written, then the run
    /// stops at the first value that is not a number.
    @Test(arguments: [
        ("motion.spring{to = 0, from = 0, velocity = 1e308, stiffness = 1e-300, damping = 1e-300}",
         "s.lua:1: motion.spring: the spring's value is not finite"),
        ("motion.tween{values = {-1e308, 1e308}, duration = 1}", "s.lua:1: motion.tween: the tween's value is not finite"),
    ])
    func anOverflowingSourceStopsTheRunNamingIt(source: String, message: String) throws {
        let result = try run(source)
        #expect(result.error?.contains(message) == true, "\(result.error ?? "no error")")
        #expect(!result.lines.contains { $0.contains("null") })
        #expect(result.lines.count < 1000)
    }
}
