import MotionGestures

/// `run --explain`: every recognizer's state changes with the reason, one readable line each
/// (`0.200 swipes.lua:7 swipe#2(fingers=3) failed: too short 12 < 20 units`), the lines
/// `ctl monitor --recognizers` prints for a daemon's plugin. They go to stderr: stdout carries
/// the JSON Lines and nothing else.
public final class RecognizerExplainer: RecognizerObserver {
    private let write: (String) -> Void

    /// Each line goes to `write` (stderr for `run`).
    public init(write: @escaping (String) -> Void) {
        self.write = write
    }

    public func recognizer(_ recognizer: GestureRecognizer, changed change: RecognizerChange) {
        write(RecognizerReport(recognizer, change).line)
    }
}
