import MotionGestures
import MotionInput
import MotionLua

/// `run`'s one-plugin host as `run`'s loops see it (`LiveLoop.run`, `Replay.feed`; MotionRun drives it): each
/// call goes through the host as the daemon's do, and the error that stopped the script
/// (`HostPolicy.Failure.endsRun`) is thrown after the call that met it, ending the run with it
/// as `run` always has. On live input a stop requested while waiting (Ctrl-C) lets the last
/// frame, which cancels the pointers still down, and the settling at the end run uninterrupted.
public final class OneScript: ReplayTarget {
    public let host: PluginHost
    /// The host's one plugin.
    let script: Plugin
    /// Live input: a stop requested while waiting does not interrupt the last frame.
    let live: Bool

    public init(_ host: PluginHost, live: Bool = false) {
        guard let script = host.script else { preconditionFailure("OneScript feeds a host under run's policy") }
        self.host = host
        self.script = script
        self.live = live
    }

    public func handle(_ frame: Frame) throws {
        if live && Interruption.isRequested { Interruption.disarm() }
        host.handle(frame)
        if let failure = host.takeScriptFailure() { throw failure }
    }

    /// Asked before every wait of live input.
    public var nextDueTime: Double? {
        @inline(__always) get { host.nextDueTime }
    }

    /// The run's watchdog (the host's, live) looks no more while input is awaited.
    public func willWaitIdle() { host.willWaitIdle() }

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

extension LiveLoop {
    /// `run --device`'s loop (and `run --watch --device`'s), specialized here beside the host it
    /// feeds: each frame's calls into the host (its due time, the frame, the error it kept) are
    /// inlined as within one module, where from `run`'s module (MotionRun) they would be calls.
    public func runScript(_ chain: FrameChain<OneScript>) throws -> String {
        try run(chain)
    }
}

extension Replay {
    /// `run`'s replay of an event file (and `run --watch`'s, `plot`'s), specialized here beside
    /// the host it feeds, for the same reason as `LiveLoop.runScript`.
    public static func feedScript(_ source: FrameSource, to script: OneScript, timeout: Double,
                                  deadline: Double = .infinity, shouldStop: (() -> Bool)? = nil) throws {
        try feed(source, to: script, timeout: timeout, deadline: deadline, shouldStop: shouldStop)
    }
}
