import MotionJSON
import MotionLua
import MotionStreams

/// One plugin's output: the lines its runtime writes, tagged with its name on their way into
/// the daemon's `OutputRouter`; its diagnostics start with its name.
final class PluginOutput: MotionOutput {
    let router: OutputRouter
    let name: String
    /// The name as a JSON string, made once.
    private let tag: [UInt8]
    private var writer = JSONWriter()

    init(name: String, router: OutputRouter) {
        self.name = name
        self.router = router
        var writer = JSONWriter()
        writer.string(name)
        tag = writer.withBytes { Array($0) }
    }

    func emit(t: Double, name: String, value: MotionValue) {
        writer.reset()
        writer.valueLine(t: t, name: name, value: value)
        send()
    }

    func emit(t: Double, name: String, state: MotionState) {
        writer.reset()
        writer.stateLine(t: t, name: name, state: state)
        send()
    }

    func emit(t: Double, action: String, fields: [(key: String, value: MotionValue)]) {
        writer.reset()
        writer.actionLine(t: t, action: action, fields: fields)
        send()
    }

    /// The runtime's diagnostics while `collecting` (a load: its warnings and notes, which
    /// become the plugin's findings).
    var collected: [String] = []
    var collecting = false

    /// The runtime's notes (a stream never subscribed) are warnings in the daemon's log, as in
    /// `check`: a plugin that silently does nothing is worth the journal's attention.
    func log(_ line: String) {
        let line = line.hasPrefix("note: ") ? "warning: " + line.dropFirst("note: ".count) : line
        if collecting { collected.append(line) }
        router.diagnostic(name, line)
    }

    /// `print` and the plugin's writes to stderr: the host's stderr path, which never blocks
    /// the daemon on a reader that stopped reading.
    func standardError(_ text: String) {
        router.standardError(text)
    }

    private func send() {
        writer.withBytes { router.append($0, tag: tag) }
    }
}
