/// What replaces the scripts a live loop feeds, between its steps: `run --watch`'s file watcher
/// (`ScriptReloads`: one script) or the daemon's config watcher (a folder of plugins). Either
/// way the same `LiveLoop.run` drives input, scheduling and reloads.
public protocol LiveReloads: AnyObject {
    /// The longest the loop may wait for input before `poll` is asked again (nil: as long as it
    /// takes — a change wakes the input hub's one wait through the watcher's descriptor).
    var maxWait: Double? { get }
    /// Acts on what changed since the last step (loads, reloads, unloads; a stop request).
    func poll() throws
}
