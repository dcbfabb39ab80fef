import MotionGestures
import MotionInput

/// A live source that can be polled with a timeout, so a loop can do other work (watch files)
/// between frames.
public protocol FrameSourceWithTimeout: AnyObject {
    /// Hands the next frame to `handle` if one arrives within `timeout` seconds; returns why
    /// input ended, or nil when it goes on.
    func nextFrame(timeout: Double, handle: (Frame) throws -> Void) throws -> String?
}

extension LiveDevice: FrameSourceWithTimeout {
    public func nextFrame(timeout: Double, handle: (Frame) throws -> Void) throws -> String? {
        switch try nextFrame(timeout: timeout) {
        case .frame(let frame):
            try handle(frame)
            return nil
        case .timeout:
            return nil
        case .end(let reason):
            return reason
        }
    }
}
