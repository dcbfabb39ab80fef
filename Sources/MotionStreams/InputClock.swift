/// The input clock: time as the input tells it (event timestamps in seconds), never the wall
/// clock, so replaying the same input gives the same output. The host advances it once per input
/// frame (`PointerDispatcher` does this) and once more at the end of input. Time-based operators
/// (`delay(by:on:)`) and sources schedule work on it.
public final class InputClock {
    /// The current input time. While a scheduled action runs, its scheduled time.
    @inlinable
    public var now: Double { currentTime }

    @usableFromInline var currentTime: Double
    /// The time of the earliest scheduled action (infinity: none), so that advancing a clock
    /// with nothing due (every frame of most scripts) is a comparison where it is called.
    @usableFromInline var nextDue = Double.infinity
    /// Whether an action waits to run (`nextTime` is `nextDue`), kept with it so that the live
    /// loop's look before each wait is answered where it is asked.
    @usableFromInline var hasNext = false
    private var pending: [(time: Double, order: Int, action: () -> Void)] = [] {
        didSet {
            hasNext = !pending.isEmpty && !isStopped
            nextDue = hasNext ? pending[0].time : .infinity
        }
    }
    private var nextOrder = 0

    /// Asked every 1,024 actions a drain runs: true stops the clock (the host's time limit or an
    /// interruption, which no Lua code is running to notice when the actions are Swift operators
    /// only).
    public var shouldStop: (() -> Bool)?
    /// Called, with the instant, when the clock stops because its actions kept scheduling more at
    /// that same instant (a `delay(0)` that feeds itself): input time would never move on.
    public var onRunaway: ((Double) -> Void)?
    /// Actions one drain may run at one instant before the clock calls that a runaway.
    public static let maxActionsPerInstant = 100_000
    /// Whether the clock was stopped (`shouldStop`, a runaway): it runs nothing more, and
    /// `nextTime` is nil.
    public private(set) var isStopped = false

    /// A clock at input time `now` with nothing scheduled.
    public init(now: Double = 0) {
        currentTime = now
    }

    /// Runs `action` when the clock reaches `time` (at once on the next `advance` if `time` has
    /// passed). Actions due at the same time run in the order they were scheduled.
    @discardableResult
    public func schedule(at time: Double, _ action: @escaping () -> Void) -> ScheduledAction {
        let order = nextOrder
        nextOrder += 1
        // Keep `pending` sorted by (time, order): insert after every entry due no later.
        var index = pending.count
        while index > 0 && pending[index - 1].time > time { index -= 1 }
        pending.insert((time, order, action), at: index)
        return ScheduledAction { [weak self] in self?.cancel(order) }
    }

    /// How many scheduled actions have not run yet.
    public var pendingCount: Int { pending.count }

    /// The time of the earliest scheduled action, if any.
    @inlinable
    public var nextTime: Double? { hasNext ? nextDue : nil }

    /// Whether an action is due before `time` (`nextTime` < `time`), answered where it is asked:
    /// a daemon asks it of every plugin's clock for every frame.
    @inlinable
    public func hasActionDue(before time: Double) -> Bool { nextDue < time }

    /// Runs, in time order, every action due at or before `time` (actions they schedule included),
    /// then sets `now` to `time`. Time never goes backwards: an earlier `time` runs nothing.
    /// `advance(to: .infinity)` at the end of input runs everything still pending, each at its
    /// own time, and leaves `now` at the last of them.
    @inlinable
    public func advance(to time: Double) {
        if nextDue <= time { runDue(upTo: time) }
        if time > currentTime && time.isFinite { currentTime = time }
    }

    /// Runs the actions due at or before `time`, in time order (those they schedule included).
    @usableFromInline
    func runDue(upTo time: Double) {
        // Only the time is looked at before an action is due: no copy of the action per frame.
        var ran = 0
        var instant = -Double.infinity
        var atInstant = 0
        while !isStopped, !pending.isEmpty, pending[0].time <= time {
            let first = pending.removeFirst()
            if first.time > currentTime { currentTime = first.time }
            if first.time == instant {
                atInstant += 1
                if atInstant > Self.maxActionsPerInstant {
                    stop()
                    onRunaway?(first.time)
                    return
                }
            } else {
                instant = first.time
                atInstant = 1
            }
            first.action()
            ran += 1
            if ran & 1023 == 0, shouldStop?() == true { stop() }
        }
    }

    /// Runs nothing more (what is pending stays, unrun).
    public func stop() {
        isStopped = true
        hasNext = false
        nextDue = .infinity
    }

    private func cancel(_ order: Int) {
        pending.removeAll { $0.order == order }
    }
}

/// A handle on an action scheduled on an `InputClock`.
public final class ScheduledAction {
    private var cancelAction: (() -> Void)?

    init(_ cancel: @escaping () -> Void) {
        cancelAction = cancel
    }

    /// Prevents the action from running, if it has not run yet.
    public func cancel() {
        cancelAction?()
        cancelAction = nil
    }
}
