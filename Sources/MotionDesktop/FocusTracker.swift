import MotionGestures

/// The process's one view of the desktop's focused application: a `FocusSource` kept
/// connected. A host waits on `fileDescriptor` (readable: call `poll()`) and at the latest until
/// `nextWakeTime` (a reconnection or a refresh is due: call `poll()`), and hands each change to
/// every script (`LuaRuntime.setFocusedApp`). It never blocks on the desktop and never ends
/// the run: a lost connection is a warning, and the tracker reconnects (the compositor
/// restarted), the new connection reporting the focus at once.
///
/// A connection that closes at once, again and again, is said once: the warning comes at the
/// first loss, "connected again" at the first focus a new connection tells, and nothing more
/// until a connection has lasted `stableConnection`; until then the retries keep backing off
/// (0.25 s doubling to 2 s), however often a connect succeeds.
///
/// One tracker serves every script of a process: a host running several hands each change to
/// each, and a script started later the focus known so far (`setFocusedApp(current)` when
/// `isKnown`). `MotionPluginHost.LiveFocus` puts it in a live input hub's wait.
public final class FocusTracker {
    public let source: FocusSource
    /// The last focus reported (nil: none, or not known yet; see `isKnown`).
    public private(set) var current: AppInfo?
    /// Whether the desktop has told the focus since the tracker started.
    public private(set) var isKnown = false
    public private(set) var isConnected = false
    private let diagnostics: (String) -> Void
    private let now: () -> Double
    private var nextAttempt = 0.0
    private var nextRefresh = Double.infinity
    private var retryDelay = FocusTracker.firstRetryDelay
    /// Whether the last connection attempt failed (its warning said so: later ones are quiet).
    private var warnedDown = false
    /// Whether "connected again" was said since that warning.
    private var saidConnected = false
    private var connectedAt = 0.0

    static let firstRetryDelay = 0.25
    static let maxRetryDelay = 2.0
    /// How long a connection must last before it counts as back: the back-off restarts and a
    /// later loss is said again.
    static let stableConnection = 5.0

    /// - Parameters:
    ///   - diagnostics: where warnings go (stderr).
    ///   - now: the monotonic clock in seconds (tests inject one).
    public init(source: FocusSource, diagnostics: @escaping (String) -> Void, now: (() -> Double)? = nil) {
        self.source = source
        self.diagnostics = diagnostics
        self.now = now ?? MonotonicClock.now
    }

    /// The descriptor to wait on while connected.
    public var fileDescriptor: Int32? { isConnected ? source.fileDescriptor : nil }

    /// Whether to wait for the descriptor to be writable as well (see `FocusSource.wantsToWrite`).
    public var wantsToWrite: Bool { isConnected && source.wantsToWrite }

    /// When `poll()` has something to do without the descriptor being readable (monotonic
    /// seconds): a reconnection attempt, or a refresh.
    public var nextWakeTime: Double? {
        if !isConnected { return nextAttempt }
        let settles = isSettling ? connectedAt + Self.stableConnection : Double.infinity
        let next = min(nextRefresh, settles)
        return next.isFinite ? next : nil
    }

    /// Reads what arrived, connects when due, refreshes when due; returns the focus changes in
    /// order (each an app, or nil for no window focused). Never throws: failures are warnings.
    public func poll() -> [AppInfo?] {
        let t = now()
        var changes: [AppInfo?] = []
        if !isConnected {
            guard t >= nextAttempt else { return [] }
            do {
                try source.connect()
                isConnected = true
                connectedAt = t
                nextRefresh = source.refreshInterval.map { t + $0 } ?? .infinity
                changes += try source.refresh()
            } catch {
                fail(error, at: t, connecting: true)
                return []
            }
        }
        do {
            changes += try source.read()
            if t >= nextRefresh {
                changes += try source.refresh()
                nextRefresh = source.refreshInterval.map { t + $0 } ?? .infinity
            }
        } catch {
            fail(error, at: t, connecting: false)
        }
        for notice in source.takeNotices() { diagnostics(notice) }
        if isConnected {
            if !changes.isEmpty, warnedDown, !saidConnected {
                diagnostics("motionscript: \(source.name): connected again; following the focused application")
                saidConnected = true
            }
            if isSettling, t >= connectedAt + Self.stableConnection { settle() }
        }
        for change in changes {
            current = change
            isKnown = true
        }
        return changes
    }

    /// Whether a connection that has not lasted yet keeps the back-off and the quiet.
    private var isSettling: Bool { warnedDown || retryDelay > Self.firstRetryDelay }

    /// The connection lasted: the next loss is said again and retried at once.
    private func settle() {
        warnedDown = false
        saidConnected = false
        retryDelay = Self.firstRetryDelay
    }

    private func fail(_ error: Error, at t: Double, connecting: Bool) {
        if isConnected, t >= connectedAt + Self.stableConnection { settle() }
        if !warnedDown {
            diagnostics("warning: \(source.name): \(connecting ? "" : "connection lost: ")\(error); retrying (recognizers with 'apps' keep the last focus known)")
            warnedDown = true
        }
        source.disconnect()
        isConnected = false
        nextAttempt = t + retryDelay
        retryDelay = min(retryDelay * 2, Self.maxRetryDelay)
    }

    public func close() {
        source.disconnect()
        isConnected = false
    }
}
