/// A plugin's limits: wall time per call into it (its setup, each frame's work, what falls due
/// between frames) and the memory its Lua state may hold. The daemon's `--timeout`/`--memory`
/// give the defaults; a plugin may set its own in a header comment among its first lines:
///
///     -- motionscript: timeout=0.2 memory=16
///
/// (seconds and MiB; 0 = no limit). Documented in docs/daemon.md.
public struct PluginLimits: Equatable, Sendable {
    /// Seconds one call into the plugin may run (0 = no limit).
    public var timeout: Double
    /// MiB its Lua state may hold (0 = no limit).
    public var memoryMiB: Int

    public static let defaultTimeout = 1.0
    public static let defaultMemoryMiB = 64

    public init(timeout: Double = PluginLimits.defaultTimeout, memoryMiB: Int = PluginLimits.defaultMemoryMiB) {
        self.timeout = timeout
        self.memoryMiB = memoryMiB
    }

    public var memoryBytes: Int { memoryMiB > 0 ? memoryMiB << 20 : 0 }

    /// How many lines at the top of a plugin the header may be on.
    static let headerLines = 10

    /// These limits overridden by the header of `source` (a plugin file's text). Returns a
    /// message for a header value that makes no sense (the plugin then fails to load, saying why).
    public func overridden(by source: String) -> Result<PluginLimits, HeaderError> {
        var limits = self
        for line in source.split(separator: "\n", omittingEmptySubsequences: false).prefix(Self.headerLines) {
            let text = line.drop { $0 == " " || $0 == "\t" }
            guard text.hasPrefix("--") else { continue }
            let body = text.dropFirst(2).drop { $0 == " " || $0 == "\t" }
            guard body.hasPrefix("motionscript:") else { continue }
            for setting in body.dropFirst("motionscript:".count).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }) {
                let parts = setting.split(separator: "=", maxSplits: 1)
                let key = parts.first.map(String.init) ?? ""
                let value = parts.count == 2 ? String(parts[1]) : ""
                switch key {
                case "timeout":
                    guard let seconds = Double(value), seconds >= 0, seconds.isFinite else {
                        return .failure(HeaderError("timeout=\(value): seconds >= 0 expected (0 = no limit)"))
                    }
                    limits.timeout = seconds
                case "memory":
                    guard let mib = Int(value), mib >= 0, mib <= Int.max >> 20 else {
                        return .failure(HeaderError("memory=\(value): MiB >= 0 expected (0 = no limit)"))
                    }
                    limits.memoryMiB = mib
                default:
                    return .failure(HeaderError("unknown setting '\(setting)' (known: timeout=SECONDS memory=MIB)"))
                }
            }
        }
        return .success(limits)
    }

    public struct HeaderError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
