import MotionLua
import MotionStreams

/// Counts output lines and keeps none: long runs measure memory without the output growing.
public final class CountingOutput: MotionOutput {
    public var count = 0
    public init() {}
    public func emit(t: Double, name: String, value: MotionValue) { count += 1 }
    public func emit(t: Double, name: String, state: MotionState) { count += 1 }
    public func log(_ line: String) {}
}
