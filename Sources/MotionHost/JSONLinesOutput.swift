#if canImport(Glibc)
import Glibc
#endif
import MotionLua
import MotionStreams

/// Writes output lines (`{"t":..,"name":..,"value":..}`) to a C stream, buffered; `log`
/// lines go to stderr. `flushEachLine` is for live input, where a line must not wait.
public final class JSONLinesOutput: MotionOutput, ReloadMarking {
    private let stream: UnsafeMutablePointer<FILE>
    private var writer = JSONWriter()
    public var flushEachLine = false

    public init(stream: UnsafeMutablePointer<FILE> = stdout) {
        self.stream = stream
    }

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

    public func log(_ line: String) {
        fputs(line + "\n", stderr)
    }

    public func flush() { fflush(stream) }

    public func markReload(t: Double, script: String, version: Int) {
        writer.reset()
        writer.reloadLine(t: t, script: script, version: version)
        write()
    }

    private func write() {
        writer.bytes.withUnsafeBufferPointer { _ = fwrite($0.baseAddress, 1, $0.count, stream) }
        if flushEachLine { fflush(stream) }
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

    /// The same bytes JSONLinesOutput writes, without the newline.
    private func append() {
        lines.append(String(decoding: writer.bytes.dropLast(), as: UTF8.self))
    }

    public func log(_ line: String) { logLines.append(line) }

    public func markReload(t: Double, script: String, version: Int) {
        writer.reset()
        writer.reloadLine(t: t, script: script, version: version)
        append()
    }
}
