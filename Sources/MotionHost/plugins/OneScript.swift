import MotionGestures
import MotionLua

/// `run`'s one-plugin host as `run`'s loops see it (`LiveLoop.run`, `Runner.replay`): the error
/// that stopped the script is thrown after the call that met it, ending the run with it as
/// `run` always has; a time limit bounds each call on live input (`Plugin`). On live input a
/// stop requested while waiting (Ctrl-C) lets the last frame, which cancels the pointers still
/// down, and the settling at the end run uninterrupted.
public final class OneScript: ReplayTarget {
    public let host: PluginHost
    /// The host's one plugin.
    let script: Plugin
    /// Live input: a stop requested while waiting does not interrupt the last frame.
    let live: Bool

    public init(_ host: PluginHost, live: Bool = false) {
        guard let script = host.script else { preconditionFailure("OneScript feeds the host of run's script") }
        self.host = host
        self.script = script
        self.live = live
    }

    /// The per-frame path: straight to the plugin (`PluginHost.handle` does the same).
    public func handle(_ frame: Frame) throws {
        if live && Interruption.isRequested { Interruption.disarm() }
        if host.tracksPointers { host.pointers.track(frame) }
        try script.handleScript(frame)
    }

    /// Asked before every wait of live input (inlined there: a few loads when nothing waits).
    public var nextDueTime: Double? {
        @inline(__always) get { script.scriptNextDueTime }
    }

    public func advance(to t: Double) throws {
        host.advance(to: t)
        if let failure = host.takeScriptFailure() { throw failure }
    }

    public func finish() throws {
        if live && Interruption.isRequested { Interruption.disarm() }
        host.finish()
        if let failure = host.takeScriptFailure() { throw failure }
    }

    /// A desktop provider's focus change (`apps =`), under the time limit like any call.
    public func setFocusedApp(_ app: AppInfo?) throws {
        host.setFocusedApp(app)
        if let failure = host.takeScriptFailure() { throw failure }
    }

    /// The script's input time (where an error is placed), which may be behind the last frame's
    /// when it failed in work that fell due before it.
    public var time: Double { script.pipeline.runtime?.time ?? host.time }
    public var scriptPath: String { script.path }
    public func note(_ line: String) { script.pipeline.output.log(line) }
}
