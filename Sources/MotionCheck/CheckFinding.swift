/// One thing `check` found, at a place in a plugin.
public struct CheckFinding: Equatable, CustomStringConvertible {
    public enum Severity: String, Equatable {
        case error, warning
    }

    public var file: String
    public var line: Int?
    public var severity: Severity
    public var message: String

    public init(file: String, line: Int?, _ severity: Severity, _ message: String) {
        self.file = file
        self.line = line
        self.severity = severity
        self.message = message
    }

    /// `file:line: error: message`, as compilers write it (editors jump to it).
    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(severity.rawValue): \(message)"
    }
}
