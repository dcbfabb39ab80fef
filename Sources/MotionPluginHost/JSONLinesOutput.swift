#if canImport(Glibc)
import Glibc
#endif
import CLuaShim
import MotionJSON
import MotionLua
import MotionStreams
import MotionDiagnostics

/// Writes output lines (`{"t":..,"name":..,"value":..}`) through a `LineSink`, whole lines only;
/// `log` lines go to stderr. `flushEachLine` is for live input, where a line must not wait.
public final class JSONLinesOutput: MotionOutput, ReloadMarking {
    public let sink: LineSink
    private var writer = JSONWriter()
    public var flushEachLine = false
    /// Called once, on the run's thread, when a write fails (the run should stop).
    public var onFailure: (() -> Void)?

    public init(fileDescriptor: Int32 = STDOUT_FILENO) {
        sink = LineSink(fileDescriptor: fileDescriptor)
    }

    /// Stdout is JSON Lines and nothing else, whatever a script does: the lines go to a private
    /// duplicate of descriptor 1 (not inherited by children), and descriptor 1 becomes a copy of
    /// stderr, so `io.write`, `io.stdout:write` and the output of `os.execute` land on stderr.
    /// When stdout was closed, writing the first line fails.
    public static func takingStandardOutput() -> JSONLinesOutput {
        fflush(nil)
        let isOpen = fcntl(STDOUT_FILENO, F_GETFD) >= 0
        let own = isOpen ? fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3) : -1
        if dup2(STDERR_FILENO, STDOUT_FILENO) < 0 {
            // No stderr either: keep descriptor 1 taken, so no file opened later becomes it.
            let null = open("/dev/null", O_WRONLY)
            if null >= 0, null != STDOUT_FILENO { dup2(null, STDOUT_FILENO); close(null) }
        }
        ms_stdout_linebuffered()
        let output = JSONLinesOutput(fileDescriptor: own)
        // At a terminal each line shows as it is made, as stdio would do.
        output.flushEachLine = own >= 0 && isatty(own) != 0
        output.sink.flushAtExit()
        return output
    }

    /// Why writing stopped, if it did.
    public var failure: LineSink.Failure? { sink.failure }

    public func emit(t: Double, name: String, value: MotionValue) {
        writer.reset()
        writer.valueLine(t: t, name: name, value: value)
        write()
    }

    public func emit(t: Double, name: String, state: MotionState) {
        writer.reset()
        writer.stateLine(t: t, name: name, state: state)
        write()
    }

    public func emit(t: Double, action: String, fields: [(key: String, value: MotionValue)]) {
        writer.reset()
        writer.actionLine(t: t, action: action, fields: fields)
        write()
    }

    public func emit(t: Double, app: MotionValue) {
        writer.reset()
        writer.appLine(t: t, app: app)
        write()
    }

    public func log(_ line: String) {
        StandardError.line(line)
    }

    public func flush() {
        if sink.flush() != nil { onFailure?() }
    }

    public func markReload(t: Double, script: String, version: Int) {
        writer.reset()
        writer.reloadLine(t: t, script: script, version: version)
        write()
    }

    private func write() {
        let failed = writer.withBytes { sink.append($0, flush: flushEachLine) }
        if failed != nil { onFailure?() }
    }
}

/// Collects output lines in memory (tests, scenarios, benchmarks).
public final class CollectedOutput: MotionOutput, ReloadMarking {
    public private(set) var lines: [String] = []
    public private(set) var logLines: [String] = []

    public init() {}

    private var writer = JSONWriter()

    public func emit(t: Double, name: String, value: MotionValue) {
        writer.reset()
        writer.valueLine(t: t, name: name, value: value)
        append()
    }

    public func emit(t: Double, name: String, state: MotionState) {
        writer.reset()
        writer.stateLine(t: t, name: name, state: state)
        append()
    }

    public func emit(t: Double, action: String, fields: [(key: String, value: MotionValue)]) {
        writer.reset()
        writer.actionLine(t: t, action: action, fields: fields)
        append()
    }

    public func emit(t: Double, app: MotionValue) {
        writer.reset()
        writer.appLine(t: t, app: app)
        append()
    }

    /// The same bytes JSONLinesOutput writes, without the newline.
    private func append() {
        lines.append(writer.withBytes { String(decoding: $0.dropLast(), as: UTF8.self) })
    }

    public func log(_ line: String) { logLines.append(line) }

    public func markReload(t: Double, script: String, version: Int) {
        writer.reset()
        writer.reloadLine(t: t, script: script, version: version)
        append()
    }
}
