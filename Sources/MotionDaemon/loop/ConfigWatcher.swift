import MotionHost

/// Watches the config folder (every file at its top: new plugins appear there) and the modules
/// the plugins required. Never blocks: `poll` reads what inotify has and hands a batch of
/// changed files over once `quiet` seconds passed without another change (one reload per
/// save, even when an editor writes, renames and touches in a burst), while frames keep
/// flowing to every plugin meanwhile.
public final class ConfigWatcher {
    public let folder: ConfigFolder
    public let watcher: FileWatcher
    public let quiet: Double
    // Asked after every step of the live loop (`hasPending`) on the host's thread only, never
    // passed inout: no dynamic exclusivity check (some 75 instructions an access).
    @exclusivity(unchecked) private var pending: Set<String> = []
    @exclusivity(unchecked) private var lastChange = 0.0

    public init(folder: ConfigFolder, quiet: Double = WatchOptions.defaultDebounce) throws {
        self.folder = folder
        self.quiet = quiet
        watcher = try FileWatcher()
        watcher.setFiles([], directories: [folder.path])
    }

    /// Watches the folder and these files (the plugins' modules).
    public func watch(_ files: [String]) {
        watcher.setFiles(files, directories: [folder.path])
    }

    /// Readable when a change waits to be read: the input hub's one wait includes it.
    public var descriptor: Int32 { watcher.eventDescriptor }

    /// Reads what changed (never waits).
    public func read(now: Double) {
        if case .changed(let files) = watcher.wait(debounce: 0, timeout: 0) {
            pending.formUnion(files)
            lastChange = now
        }
    }

    /// The changed files once a burst is over (nil: nothing to act on yet). `now`: monotonic seconds.
    public func poll(now: Double) -> [String]? {
        read(now: now)
        return take(now: now)
    }

    /// `poll` without reading: for a host whose wait includes `descriptor` and calls `read` when
    /// it is readable (the input hub), so a frame costs no system call here.
    public func take(now: Double) -> [String]? {
        guard !pending.isEmpty, now - lastChange >= quiet else { return nil }
        defer { pending = [] }
        return pending.sorted()
    }

    /// True while changes wait for their quiet time (the host then reads the clock).
    public var hasPending: Bool { !pending.isEmpty }

    /// Seconds until a pending batch is due (nil: none pending): the longest the host may wait.
    public func dueIn(now: Double) -> Double? {
        pending.isEmpty ? nil : max(0, quiet - (now - lastChange))
    }
}
