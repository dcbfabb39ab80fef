/// The recent diagnostics `ctl logs` shows: a bounded ring, oldest dropped first.
struct RecentLines {
    struct Entry {
        var plugin: String?
        var priority: LogPriority
        var text: String
    }

    let capacity: Int
    private var entries: [Entry] = []
    private var start = 0

    init(capacity: Int) { self.capacity = capacity }

    mutating func append(_ entry: Entry) {
        if entries.count < capacity {
            entries.append(entry)
        } else {
            entries[start] = entry
            start = (start + 1) % capacity
        }
    }

    /// Oldest first.
    var all: [Entry] { Array(entries[start...] + entries[..<start]) }
}
