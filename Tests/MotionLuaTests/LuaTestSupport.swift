import Foundation
import MotionGestures
import MotionJSON
import MotionLua
import MotionStreams

/// Output collected in memory, as lines of JSON.
final class TestOutput: MotionOutput {
    var lines: [String] = []
    var logs: [String] = []

    func emit(t: Double, name: String, value: MotionValue) {
        lines.append("\(JSONText.number(t)) \(name) \(JSONText.value(value))")
    }

    func emit(t: Double, name: String, state: MotionState) {
        lines.append("\(JSONText.number(t)) \(name) state \(state.name)")
    }

    func log(_ line: String) { logs.append(line) }
}

/// Writes `source` to a fresh temporary folder as `name` and returns its path.
func writeScript(_ source: String, name: String = "script.lua", in directory: URL? = nil) -> String {
    let folder = directory ?? FileManager.default.temporaryDirectory
        .appendingPathComponent("motionscript-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent(name)
    try! source.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}

/// A runtime with the script loaded.
func loadedRuntime(_ source: String, memoryLimit: Int = 0) throws -> (LuaRuntime, TestOutput) {
    let output = TestOutput()
    let runtime = try LuaRuntime(scriptPath: writeScript(source), output: output, memoryLimit: memoryLimit)
    try runtime.load()
    return (runtime, output)
}

func frame(_ t: Double, _ events: (Int, PointerPhase, Double, Double)...) -> Frame {
    Frame(t: t, events: events.map { PointerEvent(t: t, id: $0.0, phase: $0.1, x: $0.2, y: $0.3) })
}

/// A one-finger drag from (0,0) along x, 10 units a frame, lifted after `moves` moves.
func dragFrames(moves: Int) -> [Frame] {
    var frames = [frame(0, (1, .down, 0, 0))]
    for i in 1...moves { frames.append(frame(Double(i) * 0.016, (1, .move, Double(i) * 10, 0))) }
    frames.append(frame(Double(moves + 1) * 0.016, (1, .up, Double(moves) * 10, 0)))
    return frames
}
