import MotionStreams
#if canImport(Glibc)
import Glibc
#endif
import MotionDiagnostics

/// Where `emit` writes: the host turns these into JSON Lines on stdout.
public protocol MotionOutput: AnyObject {
    func emit(t: Double, name: String, value: MotionValue)
    func emit(t: Double, name: String, state: MotionState)
    /// An action line, `{"t":…,"action":…, fields…}` (see ActionOutput.swift).
    func emit(t: Double, action: String, fields: [(key: String, value: MotionValue)])
    /// A focus change, `{"t":…,"app":{"id":…,…}}` (`"app":null`: no window focused).
    func emit(t: Double, app: MotionValue)
    /// Diagnostics (`log`), written to stderr by the host.
    func log(_ line: String)
    /// Text a script wrote to stderr through its host (a daemon plugin's `print`, see the
    /// daemon's plugin profile), as written.
    func standardError(_ text: String)
}

extension MotionOutput {
    public func standardError(_ text: String) { StandardError.write(text) }
}
