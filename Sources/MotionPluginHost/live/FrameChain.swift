import MotionGestures
import MotionInput

/// A stage of the chain that sees every live frame before the host, paused or not (the
/// daemon's emergency-stop gesture, `EmergencyWatch`). Called on the host's thread.
public protocol FrameWatch: AnyObject {
    func observe(_ frame: Frame)
}

/// The stages a live frame passes, in order, the same for every live command (`run --device`,
/// `run --watch --device`, the daemon; `LiveInput` is their one wiring):
///
/// 1. decode → merge → tag, in the device set (`LiveDeviceSet`): each device's events decoded
///    into frames, the devices' frames merged in time order, each event naming its device;
///    the flight recorder (`LiveDeviceSet.recording`, the daemon's) keeps the raw events as
///    they are decoded, so what any later stage does (a paused host) is recorded all the same;
/// 2. `watch`: the emergency-stop gesture — every frame, paused or not; when it fires, the
///    host pauses (and the proxy passes every frame) before this frame goes on;
/// 3. `proxy`, before the host (`--proxy`): the raw frames read before this one that made no
///    pointer frame are decided;
/// 4. `target`: the host — the daemon's plugins or `run`'s one script (`OneScript`);
/// 5. `proxy`, after the host: the raw frame that made this frame is decided with the claims
///    the host's recognizers left (even when the host threw: the clone stays in step).
///
/// A `LiveLoop` runs the chain as its target. Generic over the host, so `run`'s one script is
/// called directly, not through a witness table; a stage that is absent costs a test per frame.
public final class FrameChain<Target: LiveTarget>: LiveTarget {
    public let watch: FrameWatch?
    public let proxy: LiveProxy?
    public let target: Target

    public init(watch: FrameWatch? = nil, proxy: LiveProxy? = nil, target: Target) {
        self.watch = watch
        self.proxy = proxy
        self.target = target
    }

    @inlinable @inline(__always)
    public func handle(_ frame: Frame) throws {
        watch?.observe(frame)
        guard let proxy else { return try target.handle(frame) }
        proxy.willHandle(frame)
        defer { proxy.didHandle(frame) }
        try target.handle(frame)
    }

    @inlinable public var nextDueTime: Double? { target.nextDueTime }

    /// What fell due runs in the host, then the proxy decides what waited on it.
    @inlinable public func advance(to t: Double) throws {
        try target.advance(to: t)
        proxy?.advanced(to: t)
    }

    @inlinable public func willWaitIdle() { target.willWaitIdle() }

    /// The end of input: the host settles, then every clone lifts what it holds and goes.
    @inlinable public func finish() throws {
        try target.finish()
        proxy?.close()
    }
}
