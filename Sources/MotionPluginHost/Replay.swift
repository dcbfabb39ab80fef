import MotionActions
import MotionGestures
import MotionInput
import MotionLua
#if canImport(Glibc)
import Glibc
#endif
import MotionJSON

/// The one loop over an event file's frames (`Replay.feed`), and what a replay is set up with:
/// the events opened, the screen size, a script read from a stream. `run`, the daemon's
/// `--events`, `test`'s scenarios and `plot` all replay through it.
public enum Replay {
    /// Feeds every frame; checks the time limit between frames too, since a slow pipeline
    /// made of Swift operators never enters the Lua hook.
    public static func feed(_ source: FrameSource, to runtime: LuaRuntime, timeout: Double) throws {
        try feed(source, to: runtime, timeout: timeout, deadline: timeout > 0 ? Clock.monotonic() + timeout : .infinity)
    }

    /// The one loop over an event file's frames, for the plugin host: `run`'s one script
    /// (`OneScript`, whose first error is thrown) or the daemon's plugins (whose errors stay with
    /// each plugin: only a time limit over the whole replay or an interruption is thrown for
    /// them); a scenario's runtime too (whose deadline was set before its setup). `shouldStop` is
    /// asked every 256 frames; when it says yes the replay ends early (Ctrl-C during `--watch`),
    /// without settling what is still scheduled. An interruption (SIGINT, SIGTERM, a failed
    /// output write) ends it with an error at the next frame. Inlinable: specialized where it is called, so the
    /// daemon's replay pays no dispatch per frame either.
    @inlinable
    public static func feed<Target: ReplayTarget>(_ source: FrameSource, to target: Target, timeout: Double,
                                                    deadline: Double = .infinity, shouldStop: (() -> Bool)? = nil) throws {
        var frames = 0
        while target.stopReason == nil, let frame = try source.nextFrame() {
            if Interruption.isRequested { throw interrupted(target) }
            do {
                try target.handle(frame)
            } catch let error as ScriptError where error.kind == .runtime {
                throw error.placed(at: target.time, source.framePlace)
            }
            frames += 1
            if frames & 255 == 0 {
                if Clock.monotonic() > deadline {
                    throw ScriptError(.timeout, "\(target.scriptPath): timeout: the run went past its time limit of \(timeout) s")
                }
                if shouldStop?() == true { return }
            }
        }
        if target.stopReason != nil { return }
        if let hint = (source as? JSONLinesReader)?.timeUnitHint { target.note(hint) }
        // End of input: pending taps and delays settle.
        if Interruption.isRequested { throw interrupted(target) }
        do {
            try target.finish()
        } catch let error as ScriptError where error.kind == .runtime {
            throw error.placed(at: target.time, source.framePlace.map { _ in "end of input" })
        }
    }

    /// A script that is a FIFO, pipe or device is read here, as event files are: Lua's own
    /// `fopen` would wait in `open` for a writer past every signal: its text. Nil: a regular
    /// file, left to Lua.
    public static func scriptTextIfStream(_ path: String) throws -> [UInt8]? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG else { return nil }
        return try readWholeInput(path: path, limit: Self.maxStreamedScript)
    }

    /// The longest script read from a stream (a regular file has no such bound but memory's).
    static let maxStreamedScript = 64 << 20

    /// The error of a run interrupted between frames, where no Lua code was running.
    @usableFromInline
    static func interrupted(_ target: some ReplayTarget) -> ScriptError {
        ScriptError(.runtime, "\(target.scriptPath): interrupted (input time \(JSONText.number(target.time)) s)")
    }

    /// `--app NAME`: the application `apps =` is decided against for the whole run.
    public static func fixApp(of runtime: LuaRuntime, _ options: RunOptions) {
        if let app = options.app { runtime.fixFocusedApp(AppInfo(id: app)) }
    }

    /// `motion.screen.width/height`: the surface positions are mapped onto (`--surface WxH`, or
    /// the device's size in millimetres for `--surface mm`); infinite in raw units.
    public static func setScreen(of runtime: LuaRuntime, _ input: EventFileOptions, source: AnyObject?) {
        let device = (source as? EvdevSourceInfo)?.device ?? DeviceDescription()
        if let surface = input.resolvedSurface(for: device) {
            runtime.setScreenSize(width: surface.width, height: surface.height)
        }
    }

    /// Opens an event file, detecting its format by content.
    public static func openEvents(path: String, options: EventFileOptions = EventFileOptions()) throws -> FrameSource {
        try openEventFile(path: path, options: options)
    }

}
