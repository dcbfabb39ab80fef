import MotionLua
import MotionStreams

/// Collects a scenario's output lines up to a limit. Lines live in Swift memory, outside the
/// Lua allocator's cap, so a script emitting in a loop would otherwise grow without bound
/// until its time limit; past the limit, lines are dropped and `onOverflow` stops the script.
final class CappedOutput: MotionOutput {
    private let collected = CollectedOutput()
    let maxLines: Int
    private(set) var overflowed = false
    var onOverflow: (() -> Void)?

    init(maxLines: Int) { self.maxLines = maxLines }

    var lines: [String] { collected.lines }

    func emit(t: Double, name: String, value: MotionValue) {
        guard admit() else { return }
        collected.emit(t: t, name: name, value: value)
    }

    func emit(t: Double, name: String, state: MotionState) {
        guard admit() else { return }
        collected.emit(t: t, name: name, state: state)
    }

    func log(_ line: String) {}

    private func admit() -> Bool {
        if collected.lines.count < maxLines { return true }
        if !overflowed {
            overflowed = true
            onOverflow?()
        }
        return false
    }
}
