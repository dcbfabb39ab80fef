import MotionLua
import MotionStreams

/// What a check's load of a plugin keeps: the runtime's notes and warnings (its lines are not
/// wanted: a check feeds no input).
final class LoadNotes: MotionOutput {
    private(set) var logLines: [String] = []

    func emit(t: Double, name: String, value: MotionValue) {}
    func emit(t: Double, name: String, state: MotionState) {}
    func emit(t: Double, action: String, fields: [(key: String, value: MotionValue)]) {}
    func emit(t: Double, app: MotionValue) {}
    func log(_ line: String) { logLines.append(line) }
}
