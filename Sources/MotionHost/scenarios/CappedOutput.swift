import MotionLua
import MotionStreams

/// Collects a scenario's output lines up to a limit. Lines live in Swift memory, outside the
/// Lua allocator's cap, so a script emitting in a loop would otherwise grow without bound
/// until its time limit; past the limit, lines are dropped and `onOverflow` stops the script.
final class CappedOutput: MotionOutput {
    private let collected = CollectedOutput()
    let maxLines: Int
    /// Bytes of lines kept at most (0 = no bound): a few huge lines are as bad as many.
    let maxBytes: Int
    private var bytes = 0
    private(set) var overflowed = false
    /// Whether it was the byte bound that was reached.
    private(set) var overflowedBytes = false
    var onOverflow: (() -> Void)?

    init(maxLines: Int, maxBytes: Int = 0) {
        self.maxLines = maxLines
        self.maxBytes = maxBytes
    }

    var lines: [String] { collected.lines }

    func emit(t: Double, name: String, value: MotionValue) {
        guard admit() else { return }
        collected.emit(t: t, name: name, value: value)
        bytes += collected.lines.last?.utf8.count ?? 0
    }

    func emit(t: Double, name: String, state: MotionState) {
        guard admit() else { return }
        collected.emit(t: t, name: name, state: state)
    }

    func emit(t: Double, action: String, fields: [(key: String, value: MotionValue)]) {
        guard admit() else { return }
        collected.emit(t: t, action: action, fields: fields)
    }

    func log(_ line: String) {}

    private func admit() -> Bool {
        if collected.lines.count < maxLines, maxBytes == 0 || bytes < maxBytes { return true }
        if !overflowed {
            overflowed = true
            overflowedBytes = collected.lines.count < maxLines
            onOverflow?()
        }
        return false
    }
}
