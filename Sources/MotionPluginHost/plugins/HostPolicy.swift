import MotionLua

/// What differs between the daemon's plugins and `run`'s one script, decided once when the host
/// is made and read where it matters — the host, its plugins and their calls are the same code
/// for both (README "`run`: one script"): `motionscript run x.lua` is a host of one plugin, as mpv
/// treats `--script=x.lua` like a script in its folder.
public struct HostPolicy {
    /// What an error that stops a version does (a runtime error outside a callback, a time
    /// limit, memory, an error while it loads).
    public enum Failure {
        /// It stays with the plugin: its state closes, it is reported under its name, and the
        /// host goes on (the daemon, docs/daemon.md "Isolation").
        case staysWithPlugin
        /// It is kept for the host's caller, which ends the run with it (`run`; `run --watch`
        /// reports it and waits for the next version).
        case endsRun
    }

    /// Where a plugin's lines go.
    public enum Output {
        /// Through the host's router, each line tagged `"plugin":"NAME"`; a version's setup is
        /// staged (lines and actions held until it loaded).
        case tagged
        /// Untagged, to the run's own output, as the script writes them; its one version's
        /// setup writes and acts as it goes (its lines before an error or `os.exit` are output).
        case run(MotionOutput)
    }

    /// The library a version runs with.
    public enum Library {
        /// The plugin profile (`PluginProfile`: no `os.exit`, no blocking reads, regular files
        /// only), no script arguments; limits from the file's header over the host's defaults;
        /// a plugin that hung the daemon is not loaded again until its file changes.
        case plugin
        /// What `run` gives: the whole standard library (or `--sandbox`'s), the arguments after
        /// `--`, limits from the command line only; a script read from a pipe or FIFO.
        case run
    }

    public var failure: Failure
    public var output: Output
    public var library: Library
    /// Lifecycle lines (`loaded`, `reloaded`, `failed`, …), `check`'s findings in the log and
    /// one app line per focus change for all plugins (the daemon's; `run`'s script writes its
    /// own app lines, as a runtime alone does).
    public var announces: Bool
    /// The CPU time each call takes is counted for `ctl status` (the daemon's).
    public var accountsTime: Bool

    /// The daemon's: a folder of plugins, each isolated from the others.
    public static var daemon: HostPolicy {
        HostPolicy(failure: .staysWithPlugin, output: .tagged, library: .plugin, announces: true, accountsTime: true)
    }

    /// `run`'s: one script whose first stopping error ends the run, writing to `output`.
    public static func run(_ output: MotionOutput) -> HostPolicy {
        HostPolicy(failure: .endsRun, output: .run(output), library: .run, announces: false, accountsTime: false)
    }

    var endsRun: Bool { if case .endsRun = failure { return true } else { return false } }
}
