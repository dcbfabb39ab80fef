/// The line `ctl enable`, `disable`, `pause` and `resume` print (docs/control.md): what
/// happened, read from the host's status after the request, so a command that changed nothing
/// (a plugin that did not load again, a pause already on) says so rather than nothing.
enum ControlMessages {
    static func enabled(_ plugin: String, status: ControlStatus) -> String {
        guard let p = status.plugins.first(where: { $0.name == plugin }) else { return "\(plugin): enabled" }
        if p.state == "running" { return "\(plugin): enabled (version \(p.version) running)" }
        return "\(plugin): not running (\(p.state))" + (p.lastError.map { ": \($0)" } ?? "")
    }

    static func disabled(_ plugin: String) -> String {
        "\(plugin): disabled (its held keys released) until `ctl enable \(plugin)` or its file changes"
    }

    static func paused(wasPaused: Bool) -> String {
        wasPaused ? "already paused" : "paused: no plugin receives gestures, every held key released (`ctl resume` resumes)"
    }

    static func resumed(wasPaused: Bool) -> String {
        wasPaused ? "resumed: gestures reach the plugins again" : "not paused: nothing to resume"
    }
}
