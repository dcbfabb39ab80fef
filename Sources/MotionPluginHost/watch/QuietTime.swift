/// The one debounce policy of reloads, `run --watch`'s and the daemon's: changed files are acted
/// on once `seconds` passed without another change — one reload per save, even when an editor
/// writes, renames and touches the file in a burst (docs/reference.md "Defaults": 75 ms). Input
/// is never held meanwhile: a live host keeps feeding frames to the running version and waits no
/// longer than `dueIn` (`ScriptReloads`, `FolderReloads`); a file watcher's own blocking wait
/// (`FileWatcher.wait`, `run --watch` over an event file) waits it out. Times are monotonic
/// seconds from the caller's clock, so tests give their own.
public struct QuietTime {
    /// The quiet time of every reload: `run --watch`'s default and the daemon's.
    public static let standard = 0.075

    public let seconds: Double
    /// The files changed since the last batch was taken.
    public private(set) var pending: Set<String> = []
    private var lastChange = 0.0

    public init(seconds: Double = QuietTime.standard) {
        self.seconds = seconds
    }

    /// Whether changes wait for their quiet time (the host then reads its clock).
    public var hasPending: Bool { !pending.isEmpty }

    /// Files changed at `now`: the quiet time starts again.
    public mutating func note<Files: Sequence<String>>(_ files: Files, now: Double) {
        var any = false
        for file in files {
            pending.insert(file)
            any = true
        }
        if any { lastChange = now }
    }

    /// Seconds until the pending batch is due (nil: none pending): the longest a host may wait.
    public func dueIn(now: Double) -> Double? {
        pending.isEmpty ? nil : max(0, seconds - (now - lastChange))
    }

    /// The changed files, sorted, once `seconds` passed since the last change (nil: nothing to
    /// act on yet); taken, so the next batch starts empty.
    public mutating func take(now: Double) -> [String]? {
        guard !pending.isEmpty, now - lastChange >= seconds else { return nil }
        defer { pending = [] }
        return pending.sorted()
    }
}
