import MotionActions
#if canImport(Glibc)
import Glibc
#endif

/// `daemon --notify`: a desktop notification when a plugin fails (its load failed, an error
/// stopped it, or its errors disabled it), through `notify-send` started by the process's one
/// launcher (never waited for: the loop goes on at once, the reaper thread collects it). At
/// most one a plugin a minute, so a plugin failing on every frame does not flood the desktop.
/// Without `notify-send` in PATH the log says so once, and nothing else happens.
public final class FailureNotifier {
    public static let interval = 60.0
    public static let program = "notify-send"

    private let launcher: ProcessLauncher
    private let executable: String?
    private let log: (String) -> Void
    private let now: () -> Double
    private var lastSent: [String: Double] = [:]
    private var saidMissing = false
    /// Notifications started so far.
    public private(set) var sent = 0

    /// `searchPath`: where to look for notify-send (PATH's value); `log`: the daemon's log
    /// (warnings are said with their priority).
    public init(searchPath: String, launcher: ProcessLauncher, now: @escaping () -> Double, log: @escaping (String) -> Void) {
        executable = Self.find(Self.program, in: searchPath)
        self.launcher = launcher
        self.now = now
        self.log = log
    }

    /// `plugin` failed with `message`: a notification, unless one for it went out less than a
    /// minute ago.
    public func pluginFailed(_ plugin: String, _ message: String) {
        guard let executable else {
            if !saidMissing {
                saidMissing = true
                log("warning: --notify: \(Self.program) is not found in PATH; no desktop notification (install libnotify-bin)")
            }
            return
        }
        let t = now()
        if let last = lastSent[plugin], t - last < Self.interval { return }
        lastSent[plugin] = t
        sent += 1
        // The first line of the message: a traceback does not fit a notification.
        let first = message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? message
        launcher.launch([executable, "--app-name=motionscript", "--urgency=critical", "--",
                         "motionscript: the plugin \(plugin) failed", first])
    }

    static func find(_ program: String, in path: String) -> String? {
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(program)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
