#if canImport(Glibc)
import Glibc
#endif
import MotionLua
import MotionStreams

/// Collects a scenario's output lines up to a number of lines and of bytes. Lines live in Swift
/// memory, outside the Lua allocator's cap, so a script emitting in a loop would otherwise grow
/// without bound until its time limit; past a limit, lines are dropped and `onOverflow` stops
/// the script. `log` lines go to stderr, as in `run`, where the batch captures them.
final class CappedOutput: MotionOutput {
    private let collected = CollectedOutput()
    let maxLines: Int
    let maxBytes: Int
    private var bytes = 0
    private(set) var overflowed = false
    var onOverflow: (() -> Void)?

    init(maxLines: Int, maxBytes: Int) {
        self.maxLines = maxLines
        self.maxBytes = maxBytes
    }

    var lines: [String] { collected.lines }

    func emit(t: Double, name: String, value: MotionValue) {
        guard admit() else { return }
        collected.emit(t: t, name: name, value: value)
        count()
    }

    func emit(t: Double, name: String, state: MotionState) {
        guard admit() else { return }
        collected.emit(t: t, name: name, state: state)
        count()
    }

    func emit(t: Double, action: String, fields: [(key: String, value: MotionValue)]) {
        guard admit() else { return }
        collected.emit(t: t, action: action, fields: fields)
        count()
    }

    func log(_ line: String) {
        var text = Array((line + "\n").utf8)
        var done = 0
        while done < text.count {
            let n = text.withUnsafeMutableBytes { write(2, $0.baseAddress! + done, $0.count - done) }
            if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return }
        }
    }

    private func count() {
        bytes += (collected.lines.last?.utf8.count ?? 0) + 1
        if bytes > maxBytes { overflow() }
    }

    private func admit() -> Bool {
        if collected.lines.count < maxLines && bytes <= maxBytes { return true }
        overflow()
        return false
    }

    /// Which limit was passed, for the error message.
    var overflowReason: String {
        bytes > maxBytes ? "the output exceeded \(maxBytes) bytes" : "the output exceeded \(maxLines) lines"
    }

    private func overflow() {
        if !overflowed {
            overflowed = true
            onOverflow?()
        }
    }
}
