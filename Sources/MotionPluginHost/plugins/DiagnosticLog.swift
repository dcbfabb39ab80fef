import Foundation

/// The recent diagnostics, newest last, in a bounded ring: what `ctl logs` shows before it
/// follows (`onLine`).
public final class DiagnosticLog {
    public struct Entry: Sendable, Equatable {
        /// The plugin it is about (nil: the daemon's own).
        public let plugin: String?
        public let line: String
    }

    public let capacity: Int
    public private(set) var entries: [Entry] = []
    private var start = 0
    /// Called with each new entry (`ctl logs -f`).
    public var onLine: ((Entry) -> Void)?

    public init(capacity: Int = 1000) { self.capacity = capacity }

    func append(plugin: String?, _ line: String) {
        let entry = Entry(plugin: plugin, line: line)
        if entries.count < capacity {
            entries.append(entry)
        } else {
            entries[start] = entry
            start = (start + 1) % capacity
        }
        onLine?(entry)
    }

    /// Oldest first; only `plugin`'s when given.
    public func recent(plugin: String? = nil) -> [Entry] {
        let ordered = Array(entries[start...] + entries[..<start])
        return plugin.map { name in ordered.filter { $0.plugin == name } } ?? ordered
    }
}
