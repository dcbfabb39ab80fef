#if canImport(Glibc)
import Glibc
#endif
import MotionJSON
import MotionLua
import MotionStreams

/// A scenario's output lines, written as `run` writes them and sent to the batch as they come
/// (in chunks of `chunkSize` bytes, whole lines), up to a number of lines and of bytes: the
/// worker keeps one chunk, not the output. A script emitting in a loop would otherwise make
/// the batch hold lines without bound until its time limit; past a limit, lines are dropped and
/// `onOverflow` stops the script. `log` lines go to stderr, as in `run`, where the batch
/// captures them.
final class CappedOutput: MotionOutput {
    static let chunkSize = 64 * 1024
    private var writer = JSONWriter(capacity: chunkSize + 1024)
    /// Sends a chunk of whole lines; false when the batch is gone.
    private let send: (UnsafeBufferPointer<UInt8>) -> Bool
    let maxLines: Int
    let maxBytes: Int
    private var lines = 0
    private var bytes = 0
    private(set) var overflowed = false
    var onOverflow: (() -> Void)?

    init(maxLines: Int, maxBytes: Int, send: @escaping (UnsafeBufferPointer<UInt8>) -> Bool) {
        self.maxLines = maxLines
        self.maxBytes = maxBytes
        self.send = send
    }

    func emit(t: Double, name: String, value: MotionValue) {
        guard admit() else { return }
        let before = writer.count
        writer.valueLine(t: t, name: name, value: value)
        count(since: before)
    }

    func emit(t: Double, name: String, state: MotionState) {
        guard admit() else { return }
        let before = writer.count
        writer.stateLine(t: t, name: name, state: state)
        count(since: before)
    }

    func emit(t: Double, action: String, fields: [(key: String, value: MotionValue)]) {
        guard admit() else { return }
        let before = writer.count
        writer.actionLine(t: t, action: action, fields: fields)
        count(since: before)
    }

    func emit(t: Double, app: MotionValue) {
        guard admit() else { return }
        let before = writer.count
        writer.appLine(t: t, app: app)
        count(since: before)
    }

    /// Sends what is written and not sent yet.
    func flush() {
        guard writer.count > 0 else { return }
        // With the batch gone there is no one to run scenarios for.
        guard writer.withBytes(send) else { _exit(0) }
        writer.reset()
    }

    func log(_ line: String) {
        var text = Array((line + "\n").utf8)
        var done = 0
        while done < text.count {
            let n = text.withUnsafeMutableBytes { write(2, $0.baseAddress! + done, $0.count - done) }
            if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return }
        }
    }

    /// Counts the line written since `before` (its newline included) and sends a full chunk.
    private func count(since before: Int) {
        lines += 1
        bytes += writer.count - before
        if bytes > maxBytes { overflow() }
        if writer.count >= Self.chunkSize { flush() }
    }

    private func admit() -> Bool {
        if lines < maxLines && bytes <= maxBytes { return true }
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
