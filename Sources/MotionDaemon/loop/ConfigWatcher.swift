import MotionPluginHost

/// Watches the config folder (every file at its top: new plugins appear there) and the modules
/// the plugins required. Never blocks: its descriptor is registered with the input's event loop
/// (`FolderReloads`), `read` takes what inotify has when the loop finds it readable (never
/// polled), and `take` hands a batch of changed files over after the reloads' quiet time
/// (`QuietTime`, `run --watch`'s too), while frames keep flowing to every plugin meanwhile.
public final class ConfigWatcher {
    public let folder: ConfigFolder
    public let watcher: FileWatcher
    public var quiet: Double { burst.value.seconds }
    /// Asked after every step of the live loop (`hasPending`), on the host's thread only
    /// (`HostThreadState`).
    private let burst: HostThreadState<QuietTime>

    public init(folder: ConfigFolder, quiet: Double = QuietTime.standard) throws {
        self.folder = folder
        burst = HostThreadState(QuietTime(seconds: quiet))
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
        if case .changed(let files) = watcher.wait(debounce: 0, timeout: 0) { burst.value.note(files, now: now) }
    }

    /// The changed files once a burst is over (nil: nothing to act on yet); reads nothing, so a
    /// frame costs no system call here. `now`: monotonic seconds.
    public func take(now: Double) -> [String]? { burst.value.take(now: now) }

    /// True while changes wait for their quiet time (the host then reads the clock).
    public var hasPending: Bool { burst.value.hasPending }

    /// Seconds until a pending batch is due (nil: none pending): the longest the host may wait.
    public func dueIn(now: Double) -> Double? { burst.value.dueIn(now: now) }
}
