import MotionGestures
import MotionInput
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One proxied device's arbiter, shared by two threads (docs/desktop.md, "The desktop always gets
/// its pad back"): the host's thread, which decides each frame after the recognizers saw it, and
/// the input drain's thread (`InputDrain`), which passes the device's frames straight to the
/// clone while the host is stalled past `HostStallWatch.bound` — so pass-through never waits on
/// Lua, a reload or a control client.
///
/// Invariants:
/// - The arbiter (and its clone sink) is used only under `lock`. The host's thread takes it per
///   frame (uncontended unless a stall is being passed: no system call); the drain's thread only
///   while the host is stalled.
/// - Every event of the device reaches the arbiter exactly once, in the kernel's order. The drain
///   reads the kernel into the reader's backlog, which the host's reads take first, in order: the
///   events the drain gave the arbiter (`stalled(_:)`) are counted in `ahead`, and the host's
///   `take` skips that many before giving it more. A frame is taken in one hold of `lock`, so the
///   other thread never lands in its middle.
/// - Events the host makes up (`take(madeUp:)`) are not read from the kernel: they never count.
/// - A frame the host took and had not decided when the stall began is passed by `passAll`; the
///   host's later `decide` for it finds nothing undecided and does nothing.
/// `StallPassThrough` is the drain's side.
public final class ProxyLane: StallPassThrough, @unchecked Sendable {
    /// Touch only under `lock` (`with`).
    private let arbiter: TouchArbiter
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Events the drain gave the arbiter that the host has not handed over yet.
    private var ahead = 0
    /// The shared time line's origin (CLOCK_MONOTONIC microseconds of input time 0), for the
    /// times of the frames the drain passes; set by the host before the first frame.
    private var originMicroseconds: Int64 = 0
    /// Stalls passed so far and events passed in them (for `ctl status` and tests).
    public private(set) var stalls = 0
    public private(set) var stalledEvents = 0

    public init(_ arbiter: TouchArbiter) {
        self.arbiter = arbiter
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` with the arbiter, under the lock (status, `end`, set-up).
    public func with<R>(_ body: (TouchArbiter) throws -> R) rethrows -> R {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body(arbiter)
    }

    /// Input time 0 on CLOCK_MONOTONIC, in microseconds (the live device set's origin).
    public func setOrigin(microseconds: Int64) {
        pthread_mutex_lock(lock)
        originMicroseconds = microseconds
        pthread_mutex_unlock(lock)
    }

    // MARK: The host's side

    /// One frame's raw events as the host hands it over (ending with `SYN_REPORT`); true when it
    /// waits for `decide` (false: the drain passed it already, or it was not a whole frame).
    public func take(frame events: UnsafeBufferPointer<InputEventRecord>) -> Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        var completed = false
        for e in events {
            if ahead > 0 {
                ahead -= 1
                continue
            }
            if arbiter.take(e) { completed = true }
        }
        return completed
    }

    /// One event as the host hands it over (see `take(frame:)`; the frame form keeps the drain
    /// from landing inside a frame).
    public func take(_ event: InputEventRecord) -> Bool {
        withUnsafePointer(to: event) { take(frame: UnsafeBufferPointer(start: $0, count: 1)) }
    }

    /// Events the host made up rather than read (a resync snapshot after `SYN_DROPPED`): never
    /// counted against what the drain passed.
    public func take(madeUp events: UnsafeBufferPointer<InputEventRecord>) -> Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        var completed = false
        for e in events where arbiter.take(e) { completed = true }
        return completed
    }

    /// The recognizers saw the frame `take` completed: their strongest claim, at input time `t`.
    public func decide(_ claim: ConsumeClaim, at t: Double) {
        pthread_mutex_lock(lock)
        arbiter.decide(claim, at: t)
        pthread_mutex_unlock(lock)
    }

    /// A decision that fell due with time alone.
    public func update(_ claim: ConsumeClaim, at t: Double) {
        pthread_mutex_lock(lock)
        arbiter.update(claim, at: t)
        pthread_mutex_unlock(lock)
    }

    /// Whether the arbiter wants `update` calls (frames held).
    public var isHolding: Bool { with { $0.isHolding } }

    /// `ctl pause`, SIGUSR1, the emergency gesture: every frame passes (the touch in progress
    /// keeps its course: held frames are released, a consumed one stays consumed to its lift).
    public func pause(at t: Double) { with { $0.passAll(.paused, at: t) } }

    /// `ctl resume`: the consumers decide again from the next moment no finger is down.
    public func resume(at t: Double) { with { $0.takeBack(.paused, at: t) } }

    // MARK: The drain's side (StallPassThrough)

    public func stalled(_ events: UnsafeBufferPointer<InputEventRecord>) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard let first = events.first else { return }
        if !arbiter.passReasons.contains(.stalled) {
            stalls += 1
            arbiter.passAll(.stalled, at: time(of: first), undecidedAt: arbiter.undecidedReport.map(time(of:)))
        }
        for e in events {
            ahead += 1
            stalledEvents += 1
            if arbiter.take(e) { arbiter.decide(.none, at: time(of: e)) }
        }
    }

    public func hostBack() {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard arbiter.passReasons.contains(.stalled) else { return }
        arbiter.takeBack(.stalled, at: arbiter.lastInputTime)
    }

    @inline(__always)
    private func time(of e: InputEventRecord) -> Double {
        Double(e.sec &* 1_000_000 &+ e.usec &- originMicroseconds) / 1_000_000
    }
}
