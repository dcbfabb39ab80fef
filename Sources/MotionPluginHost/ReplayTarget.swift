import MotionLua

/// What a replay of an event file feeds (`Runner.replay`, the one loop over a file's frames): the
/// plugin host — `run`'s one script (`run --events`, `--plot`, each version of `run --watch`:
/// `OneScript`) or the daemon's plugins (`daemon --events`) — or a scenario's runtime.
public protocol ReplayTarget: LiveTarget {
    /// Input time now: where an error or an interruption happened.
    var time: Double { get }
    /// What a time limit or an interruption names: the script (the daemon: its config folder).
    var scriptPath: String { get }
    /// A note about the input (the time-unit hint) for stderr.
    func note(_ line: String)
    /// Why the target stopped taking frames by itself (the daemon: its output cannot be
    /// written); the replay then ends there, settling nothing. Nil: it goes on.
    var stopReason: String? { get }
}

extension ReplayTarget {
    public var stopReason: String? { nil }
}

extension LuaRuntime: ReplayTarget {
    public func note(_ line: String) { output.log(line) }
}
