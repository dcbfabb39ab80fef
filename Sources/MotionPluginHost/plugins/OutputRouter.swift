import MotionGestures
import MotionJSON
import MotionLua
import MotionDiagnostics

/// The daemon's one output: every plugin's lines, each tagged `"plugin":"NAME"` right after its
/// time, the plugins' lifecycle lines, one untagged app line per focus change, and the diagnostics (stderr, each starting with the
/// plugin's name, also kept in `log` for `ctl logs`). Where the bytes go is the `Destination`:
/// a blocking sink for a replay (deterministic: nothing dropped), a bounded writer for live
/// input (a reader that stops reading never stalls the plugins), or memory for tests.
public final class OutputRouter {
    public enum Destination {
        /// Written in order, waiting for the reader (replays).
        case sink(LineSink)
        /// Handed to a writer thread; dropped, and counted, when the reader falls behind (live).
        case bounded(BoundedWriter)
        /// Kept in `lines` (tests).
        case memory
    }

    public let destination: Destination
    /// Lines kept with `.memory`, without their newlines.
    public private(set) var lines: [String] = []
    /// Recent diagnostics, for `ctl logs` (see `DiagnosticLog`).
    public let log = DiagnosticLog()
    /// Called with each output line (without newline) as it is made, when set (`ctl monitor`).
    public var monitor: ((String) -> Void)?
    /// Called once, on the host's thread, when the output cannot be written any more.
    public var onFailure: (() -> Void)?
    /// Diagnostics go here (stderr by default; tests collect them).
    public var diagnostics: (String) -> Void = { StandardError.line($0) }
    /// What plugins write to stderr themselves (`print`, `io.stderr:write`, `io.write`), as
    /// they wrote it (`PluginProfile`); stderr by default.
    public var standardError: (String) -> Void = { StandardError.write($0) }
    private var scratch: [UInt8] = []
    private var writer = JSONWriter()
    private var failed = false

    /// The blocking sink of `.sink` (nil otherwise), kept apart: flushed after every step.
    private let sink: LineSink?

    public init(_ destination: Destination) {
        self.destination = destination
        if case .sink(let sink) = destination { self.sink = sink } else { sink = nil }
        scratch.reserveCapacity(4096)
    }

    /// `,"plugin":` — what goes after a line's time.
    private static let pluginKey: [UInt8] = Array(",\"plugin\":".utf8)

    /// One line a plugin made (`{"t":…,…}\n`), tagged with `tag` (the plugin's name as a JSON
    /// string) after its time. No allocation once the scratch buffer has grown to the longest line.
    func append(_ line: UnsafeBufferPointer<UInt8>, tag: [UInt8]) {
        scratch.removeAll(keepingCapacity: true)
        // Every line starts `{"t":` and its time holds no comma.
        var end = min(5, line.count)
        while end < line.count, line[end] != UInt8(ascii: ","), line[end] != UInt8(ascii: "}") { end += 1 }
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: line[0..<end]))
        scratch.append(contentsOf: Self.pluginKey)
        scratch.append(contentsOf: tag)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: line[end...]))
        deliver()
    }

    /// `{"t":…,"plugin":"NAME","status":…,"version":N}` (and `"error"`): a plugin's lifecycle.
    public func lifecycle(t: Double, plugin: String, status: PluginEvent, version: Int, error: String? = nil) {
        if status == .failed || status == .disabled { onPluginFailure?(plugin, error ?? status.rawValue) }
        writer.reset()
        writer.raw("{\"t\":")
        writer.time(t)
        writer.raw(",\"plugin\":")
        writer.string(plugin)
        writer.raw(",\"status\":")
        writer.string(status.rawValue)
        writer.raw(",\"version\":")
        writer.integer(Int64(version))
        if let error {
            // The message; its traceback goes to stderr with the diagnostic.
            writer.raw(",\"error\":")
            writer.string(String(error.prefix { $0 != "\n" }))
        }
        writer.raw("}\n")
        scratch.removeAll(keepingCapacity: true)
        writer.withBytes { scratch.append(contentsOf: $0) }
        deliver()
        // `ctl logs` tells the plugin's story too (under the service stdout goes nowhere); the
        // error of a failure follows as its own diagnostic.
        log.append(plugin: plugin, "\(plugin): \(status.rawValue) (version \(version))")
    }

    /// `{"t":…,"status":"paused"|"resumed"}`: every plugin's gestures went off or on again
    /// (`ctl pause`, the emergency gesture): one untagged line for the whole daemon, so `ctl
    /// monitor` shows why nothing fired.
    public func daemonState(t: Double, _ status: String) {
        writer.reset()
        writer.raw("{\"t\":")
        writer.time(t)
        writer.raw(",\"status\":")
        writer.string(status)
        writer.raw("}\n")
        scratch.removeAll(keepingCapacity: true)
        writer.withBytes { scratch.append(contentsOf: $0) }
        deliver()
    }

    /// `{"t":…,"name":"proxy","value":{…}}`: a decision of the proxy (`--proxy` over an event
    /// file), untagged: the clone is the daemon's, not a plugin's.
    public func value(t: Double, name: String, value: MotionValue) {
        writer.reset()
        writer.valueLine(t: t, name: name, value: value)
        scratch.removeAll(keepingCapacity: true)
        writer.withBytes { scratch.append(contentsOf: $0) }
        deliver()
    }

    /// `{"t":…,"app":{…}}` (or `"app":null`): the focused application changed. One line for the
    /// whole daemon, untagged, since every plugin sees the same focus.
    public func app(t: Double, _ app: AppInfo?) {
        writer.reset()
        writer.appLine(t: t, app: AppFunctions.value(of: app))
        scratch.removeAll(keepingCapacity: true)
        writer.withBytes { scratch.append(contentsOf: $0) }
        deliver()
    }

    /// Told when a plugin fails or is disabled (its name, why): `daemon --notify`.
    public var onPluginFailure: ((String, String) -> Void)?

    /// A diagnostic about `plugin` (nil: the daemon's own): one line on stderr starting with its
    /// name, kept in the log.
    public func diagnostic(_ plugin: String?, _ message: String) {
        let line = plugin.map { "\($0): \(message)" } ?? "motionscript: \(message)"
        log.append(plugin: plugin, line)
        diagnostics(line)
    }

    /// Whether `flush` has anything to do (a blocking sink): live output's lines are on their
    /// way as they are made, a loop need not flush after its steps.
    public var flushes: Bool { sink != nil }

    /// Writes what is buffered (the end of a frame's work on live input; the end of a replay).
    public func flush() {
        // Live output (`bounded`) has nothing to do here: each line queued woke the writer
        // thread already (`BoundedWriter.append`), and the loop flushes after every step.
        if let sink, sink.flush() != nil { fail() }
    }

    /// Why writing stopped, if it did.
    public var failure: LineSink.Failure? {
        switch destination {
        case .sink(let sink): sink.failure
        case .bounded(let writer): writer.failure
        case .memory: nil
        }
    }

    private func deliver() {
        if let monitor { monitor(String(decoding: scratch.dropLast(), as: UTF8.self)) }
        switch destination {
        case .sink(let sink):
            if scratch.withUnsafeBufferPointer({ sink.append($0, flush: false) }) != nil { fail() }
        case .bounded(let writer):
            scratch.withUnsafeBufferPointer { writer.append($0) }
            if writer.failure != nil { fail() }
        case .memory:
            lines.append(String(decoding: scratch.dropLast(), as: UTF8.self))
        }
    }

    private func fail() {
        guard !failed else { return }
        failed = true
        onFailure?()
    }
}
