import MotionGestures
import MotionJSON

/// What the control socket drives: the plugin host. Every call comes on the host's loop thread
/// (the server is served from that loop), so an implementation needs no locks. A call that
/// cannot do what it was asked throws `ControlError`, which the client sees as `ok:false`.
public protocol ControlTarget: AnyObject {
    /// The host as `ctl status` shows it.
    func controlStatus() -> ControlStatus
    /// Reloads one plugin from its file, or every plugin (nil). Returns what happened, a line a
    /// person reads.
    func controlReload(plugin: String?) throws -> String
    func controlEnable(plugin: String) throws
    func controlDisable(plugin: String) throws
    /// All gestures off: every device ungrabbed, every held key and button released; input still
    /// read (the emergency-stop gesture must be seen to resume).
    func controlPause()
    func controlResume()
    /// Ends the host as SIGTERM would.
    func controlStop()
    /// Writes the flight recorder's last `seconds` of raw input to `path` (an absolute path);
    /// returns what was written.
    func controlRecord(lastSeconds: Double, to path: String) throws -> ControlRecording
    /// Writes a scenario: the recording, a script that runs the current configuration, and its
    /// expected output, into `directory` (absolute) named `name`. Returns the files written.
    func controlScenario(name: String, lastSeconds: Double, into directory: String) throws -> [String]
}

/// `ctl status`.
public struct ControlStatus {
    public struct Plugin {
        public var name: String
        /// "running", "failed" or "disabled".
        public var state: String
        public var version: Int
        public var errors: Int
        public var lastError: String?
        public var memoryBytes: Int?
        public var cpuSeconds: Double?
        public var recognizers: [String]
        /// `check`'s findings at its last load ("warning: /path/swipe.lua:5: …").
        public var findings: [String]

        public init(name: String, state: String, version: Int, errors: Int = 0, lastError: String? = nil,
                    memoryBytes: Int? = nil, cpuSeconds: Double? = nil, recognizers: [String] = [], findings: [String] = []) {
            self.findings = findings
            self.name = name
            self.state = state
            self.version = version
            self.errors = errors
            self.lastError = lastError
            self.memoryBytes = memoryBytes
            self.cpuSeconds = cpuSeconds
            self.recognizers = recognizers
        }
    }

    public struct Device {
        public var node: String
        public var name: String
        public var kind: String
        public var grabbed: Bool

        public init(node: String, name: String, kind: String, grabbed: Bool) {
            self.node = node
            self.name = name
            self.kind = kind
            self.grabbed = grabbed
        }
    }

    /// Where the focused application comes from, and what it is (docs/control.md, `status`).
    public struct Focus {
        /// `sway`, `hyprland`, `kwin`, `gnome`, `wlroots`, `x11`, `none`, or `fixed` (`--app`).
        public var provider: String
        /// Why that one: `SWAYSOCK is set`, `--app-provider wlroots`, `--app firefox`.
        public var reason: String
        /// Whether the provider's connection is up (nil: no connection, `none` or `fixed`).
        public var connected: Bool?
        /// The focused application: nil while unknown, `.some(nil)` when no window has the focus.
        public var app: AppInfo??

        public init(provider: String, reason: String, connected: Bool?, app: AppInfo??) {
            self.provider = provider
            self.reason = reason
            self.connected = connected
            self.app = app
        }

        public var json: JSONValue {
            var o: [String: JSONValue] = ["provider": .string(provider), "reason": .string(reason)]
            if let connected { o["connected"] = .bool(connected) }
            if case .some(let app) = app {
                o["known"] = .bool(true)
                o["app"] = app.map { app in
                    var fields: [String: JSONValue] = ["id": .string(app.id)]
                    if let c = app.className { fields["class"] = .string(c) }
                    if let i = app.instance { fields["instance"] = .string(i) }
                    if let t = app.title { fields["title"] = .string(t) }
                    if let p = app.pid { fields["pid"] = .number(Double(p)) }
                    return .object(fields)
                } ?? .null
            } else {
                o["known"] = .bool(false)
            }
            return .object(o)
        }
    }

    public var plugins: [Plugin]
    public var devices: [Device]
    /// Nil: not told (a replay has no daemon to ask).
    public var focus: Focus?
    /// Each proxied device (`--proxy`); nil without the proxy.
    public var proxy: [ProxyDeviceStatus]?
    public var uptimeSeconds: Double
    public var paused: Bool
    public var pid: Int32
    public var directory: String

    public init(plugins: [Plugin], devices: [Device], uptimeSeconds: Double, paused: Bool, pid: Int32, directory: String) {
        self.plugins = plugins
        self.devices = devices
        self.uptimeSeconds = uptimeSeconds
        self.paused = paused
        self.pid = pid
        self.directory = directory
    }

    /// The counts systemd's STATUS= shows: "5 plugins, 1 failed, 2 devices".
    public var summary: String {
        let failed = plugins.filter { $0.state == "failed" }.count
        let disabled = plugins.filter { $0.state == "disabled" }.count
        var parts = ["\(plugins.count) plugin\(plugins.count == 1 ? "" : "s")"]
        if failed > 0 { parts.append("\(failed) failed") }
        if disabled > 0 { parts.append("\(disabled) disabled") }
        parts.append("\(devices.count) device\(devices.count == 1 ? "" : "s")")
        if paused { parts.append("paused") }
        return parts.joined(separator: ", ")
    }

    public var json: JSONValue {
        .object([
            "pid": .number(Double(pid)),
            "directory": .string(directory),
            "uptime": .number(uptimeSeconds),
            "paused": .bool(paused),
            "plugins": .array(plugins.map { p in
                var o: [String: JSONValue] = [
                    "name": .string(p.name), "state": .string(p.state), "version": .number(Double(p.version)),
                    "errors": .number(Double(p.errors)), "recognizers": .array(p.recognizers.map(JSONValue.string)),
                ]
                if let e = p.lastError { o["error"] = .string(e) }
                if !p.findings.isEmpty { o["findings"] = .array(p.findings.map(JSONValue.string)) }
                if let m = p.memoryBytes { o["memory"] = .number(Double(m)) }
                if let c = p.cpuSeconds { o["cpu"] = .number(c) }
                return .object(o)
            }),
            "devices": .array(devices.map { d in
                .object(["node": .string(d.node), "name": .string(d.name), "kind": .string(d.kind), "grabbed": .bool(d.grabbed)])
            }),
        ].merging(focus.map { ["focus": $0.json] } ?? [:]) { a, _ in a }
         .merging(proxy.map { ["proxy": .array($0.map(\.json))] } ?? [:]) { a, _ in a })
    }
}

/// What `ctl record` wrote.
public struct ControlRecording {
    public var path: String
    public var devices: Int
    public var events: Int
    public var seconds: Double

    public init(path: String, devices: Int, events: Int, seconds: Double) {
        self.path = path
        self.devices = devices
        self.events = events
        self.seconds = seconds
    }
}
