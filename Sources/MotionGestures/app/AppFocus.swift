import MotionStreams

/// One script's view of the focused application: what `motion.app.current()` reads, what
/// `apps =` is decided against when a gesture begins, and the changes `motion.app.changes()`
/// hands out. The host sets it (a provider's change, an event file's app line, `--app`); a
/// dispatcher owns one and gives it to every recognizer it feeds.
///
/// Gesture values name the app they began under by `serial` (a plain integer keeps the value a
/// trivially copied struct); `app(serial:)` resolves the recent ones.
public final class AppFocus {
    /// Whether anything reports the focus (a provider, an app line, `--app`). Until then only
    /// an `apps =` of exclusions alone (`"!kitty"`) admits a gesture (see `admits`).
    public private(set) var isKnown = false
    /// The focused application; nil when unknown or when no window has the focus.
    public private(set) var current: AppInfo?
    /// Counts changes; 0 before the first.
    public private(set) var serial = 0
    /// `--app NAME`: the app is fixed for the run and later changes are ignored.
    public private(set) var isFixed = false
    /// Called once, the first time a recognizer's `apps =` was decided while the focus was
    /// unknown (whatever the decision).
    public var onUndecidable: (() -> Void)?
    private var warned = false

    private static let remembered = 64
    private var recent: [(serial: Int, app: AppInfo?)] = []
    private var listeners = ListenerList<(AppInfo?) -> Void>()

    /// A focus not known yet.
    public init() {}

    /// A focus change: listeners hear it unless nothing changed. Ignored once fixed.
    public func set(_ app: AppInfo?) {
        guard !isFixed, !isKnown || current != app else { return }
        record(app)
        listeners.forEach { $0(app) }
    }

    /// `--app NAME`: the app for the whole run, without a change to report.
    public func fix(_ app: AppInfo?) {
        record(app)
        isFixed = true
    }

    private func record(_ app: AppInfo?) {
        isKnown = true
        current = app
        serial += 1
        if recent.count < Self.remembered {
            recent.append((serial, app))
        } else {
            recent[(serial - 1) % Self.remembered] = (serial, app)
        }
    }

    /// The app a gesture value began under (its `appSerial`), if it is among the recent ones.
    public func app(serial: Int) -> AppInfo? {
        guard serial > 0 else { return nil }
        let slot = (serial - 1) % Self.remembered
        guard slot < recent.count, recent[slot].serial == serial else { return nil }
        return recent[slot].app
    }

    /// Whether a gesture under `filter` may begin now. While the focus is unknown (no
    /// provider, no app line, no `--app`: a GNOME session, a replay of an old recording), a
    /// filter of exclusions alone admits it, as it admits every application it does not name,
    /// and one naming applications does not, since none of them is known to have the focus
    /// (docs/desktop.md, "Unknown focus"); `onUndecidable` is told, once.
    public func admits(_ filter: AppFilter) -> Bool {
        guard isKnown else {
            if !warned {
                warned = true
                onUndecidable?()
            }
            return filter.included.isEmpty
        }
        return filter.admits(current)
    }

    /// Calls `call` at every focus change; returns the id that removes it.
    @discardableResult
    public func addListener(_ call: @escaping (AppInfo?) -> Void) -> Int {
        listeners.add(call)
    }

    /// Removes a listener by the id `addListener` returned.
    public func removeListener(_ id: Int) {
        listeners.remove(id)
    }
}
