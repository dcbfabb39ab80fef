/// What a lifecycle line says happened to a plugin:
/// `{"t":…,"plugin":"NAME","status":"loaded"|"reloaded"|"unloaded"|"failed"|"disabled","version":N}`.
public enum PluginEvent: String, Sendable {
    case loaded, reloaded, unloaded, failed, disabled
}

/// Where a plugin is now (`ctl status`).
public enum PluginState: String, Sendable {
    /// A version runs and receives frames.
    case running
    /// No version runs: it did not load, or stopped at an error; waits for its file to change.
    case failed
    /// Switched off: too many errors, its time limit, or `ctl disable`; waits for its file to
    /// change (or `ctl enable`).
    case disabled
}

/// One plugin as `ctl status` shows it.
public struct PluginStatus: Sendable, Equatable {
    public var name: String
    public var path: String
    public var state: PluginState
    /// Successful loads so far (the version running, when running).
    public var version: Int
    /// Errors of the version running (reset when a new version loads: callback errors, the error
    /// that stopped it) and of the versions that failed to replace it since.
    public var errors: Int
    public var lastError: String?
    /// Bytes its Lua state holds now.
    public var memory: Int
    /// Seconds spent running its code (setup, frames, scheduled work), wall time on the host's thread.
    public var cpuSeconds: Double
    /// Its recognizers, e.g. "swipe fingers=3 direction=left".
    public var recognizers: [String]
    public var limits: PluginLimits
    /// What `check` found when its version loaded, and bindings it shares with other plugins
    /// ("warning: /path/swipe.lua:5: …").
    public var findings: [String] = []
}
