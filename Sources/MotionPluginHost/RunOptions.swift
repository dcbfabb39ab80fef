import MotionActions
import MotionGestures
import MotionInput
import MotionLua

/// What a script runs with: `run`'s options (its one script), and the daemon's for every
/// plugin (`PluginHost`; `scriptPath` unused there).
public struct RunOptions {
    public var scriptPath: String
    public var eventsPath: String?
    /// `--device` arguments, what to read live instead of an event file (paths, FIFOs or
    /// selectors: touchpad, touchscreen, mouse, name=GLOB).
    public var devices: [String] = []
    /// What to read live: `devices`.
    public var deviceSelectors: [DeviceSelector] { devices.map(DeviceSelector.init) }
    public var grab: Bool = false
    /// `--proxy`: the desktop reads a clone of each device, without the touches consumers take
    /// (docs/desktop.md). Over an event file: decided as live, written to `proxyOutput`.
    public var proxy = false
    /// `--proxy-output FILE`: the clones' frames of a replay, as an evemu recording.
    public var proxyOutput: String?
    /// Surface mapping and explicit axis ranges for evdev input.
    public var input = EventFileOptions()
    /// Seconds of wall time before a runaway script is stopped (0 = none).
    public var timeout: Double
    /// Bytes the Lua state may allocate (0 = no limit).
    public var memoryLimit: Int
    /// Run the script in the restricted standard library (`LuaRuntime(sandbox:)`).
    public var sandbox = false
    /// Lua source run before the script to shape its library (`LuaRuntime(profile:)`).
    public var profile: String?
    /// Files open without blocking, regular files only (`LuaRuntime(regularFilesOnly:)`).
    public var regularFilesOnly: String?
    /// What the script sees as `arg[1]`… and `...` (`run SCRIPT -- ARGS`).
    public var scriptArguments: [String] = []
    /// Ends the process when a stretch bounded by `timeout` is blocked outside Lua (armed for
    /// the whole run over a file; for setup and for each frame of live input).
    public var watchdog: Watchdog?
    /// Whether actions (keys, mouse, exec) are performed or only written as output lines.
    public var actions = ActionHost.outputOnly()
    /// `--app NAME`: the focused application for the whole run (no provider, app lines ignored).
    public var app: String?
    /// `--app-provider NAME` (sway, hyprland, kwin, gnome, x11, none); nil: chosen from the environment.
    /// Live runs only: a replay's focus comes from its app lines.
    public var appProvider: String?
    /// `run --explain`: told of every recognizer's state changes with the reason (nil: nobody
    /// listens, and recognizers build no reasons).
    public var recognizerObserver: RecognizerObserver?

    public init(scriptPath: String, eventsPath: String? = nil, timeout: Double = 0, memoryLimit: Int = 0) {
        self.scriptPath = scriptPath
        self.eventsPath = eventsPath
        self.timeout = timeout
        self.memoryLimit = memoryLimit
    }
}
