#if canImport(Glibc)
import Glibc
#endif

/// `--filter` and `--shard`: which of the discovered scenarios this run takes.
public enum ScenarioSelection {
    /// A pattern with `*`, `?` or `[` is a glob over the whole name (fnmatch); any other is a
    /// substring of the name.
    public static func matches(_ name: String, pattern: String) -> Bool {
        if pattern.contains(where: { "*?[".contains($0) }) {
            return fnmatch(pattern, name, 0) == 0
        }
        return name.contains(pattern)
    }

    /// Shard `index` (1-based) of `count`: the scenarios whose position in name order is
    /// `index - 1` modulo `count`. Stable for a given set, and shards 1...count partition it.
    public static func shard<T>(_ items: [T], index: Int, count: Int) -> [T] {
        items.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }

    /// Parses `I/N` (1 <= I <= N).
    public static func parseShard(_ text: String) throws -> (index: Int, count: Int) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count).contains(index) else {
            throw ScenarioUsageError("--shard must be I/N with 1 <= I <= N, got '\(text)'")
        }
        return (index, count)
    }
}
