import MotionLua

/// What a control server (`ctl`, docs/control.md) may ask of the host. All of it runs on the
/// host's thread, between frames: a server reading a socket hands requests over to that thread.
public protocol PluginControl: AnyObject {
    /// Every plugin, in name order.
    func status() -> [PluginStatus]
    /// Reloads one plugin (nil: every plugin) from its file; false when no plugin has that name.
    @discardableResult func reload(_ plugin: String?) -> Bool
    /// Switches a plugin off (its holds released) until `enable` or its file changes.
    @discardableResult func disable(_ plugin: String) -> Bool
    /// Loads a disabled or failed plugin again.
    @discardableResult func enable(_ plugin: String) -> Bool
    /// All gestures off: no plugin receives frames, every held key is released.
    func pause()
    func resume()
    var isPaused: Bool { get }
    /// Recent diagnostics (`ctl logs`), and `onLine` to follow them.
    var log: DiagnosticLog { get }
    /// Each output line as it is made (`ctl monitor`); nil to stop.
    var monitor: ((String) -> Void)? { get set }
}

extension PluginHost: PluginControl {
    public func status() -> [PluginStatus] { plugins.map(\.status) }

    @discardableResult
    public func reload(_ name: String?) -> Bool {
        if let name {
            guard let plugin = plugin(named: name) else { return false }
            filesChanged([plugin.path])
        } else {
            // New files load and removed ones unload too.
            warnAboutSkippedEntries()
            let present = Set(folder.plugins().map(\.path))
            filesChanged(Array(present.union(plugins.map(\.path))))
        }
        return true
    }

    @discardableResult
    public func disable(_ name: String) -> Bool {
        guard let plugin = plugin(named: name) else { return false }
        plugin.disable(at: now, reason: nil)
        router.flush()
        return true
    }

    @discardableResult
    public func enable(_ name: String) -> Bool {
        guard let plugin = plugin(named: name) else { return false }
        if plugin.state != .running { filesChanged([plugin.path]) }
        router.log.append(plugin: name, "\(name): enabled (\(plugin.state.rawValue), version \(plugin.version))")
        return true
    }

    public func pause() {
        guard !isPaused else { return }
        let t = now
        // The plugins' fingers end here (their gestures cancelled), then what they hold goes up;
        // the fingers down stay tracked for `resume`. A lift while paused reaches no plugin: a
        // finger not cancelled here would stay down for them after the resume.
        handOver(as: .cancel, at: t)
        isPaused = true
        for plugin in plugins { plugin.runtime?.releaseHeld() }
        router.daemonState(t: t, "paused")
        router.flush()
    }

    public func resume() {
        guard isPaused else { return }
        isPaused = false
        let t = now
        router.daemonState(t: t, "resumed")
        // The fingers on the device now go down for the plugins where they are, as a new
        // version gets them at a reload.
        handOver(as: .down, at: t)
        router.flush()
    }

    public var log: DiagnosticLog { router.log }

    public var monitor: ((String) -> Void)? {
        get { router.monitor }
        set { router.monitor = newValue }
    }
}

extension PluginHost {
    /// Every `*.lua` entry of the folder that is not loaded, and why (at start and at a reload
    /// of every plugin): none is skipped silently.
    func warnAboutSkippedEntries() {
        for line in folder.skippedEntries() { router.diagnostic(nil, "warning: " + line) }
    }
}
