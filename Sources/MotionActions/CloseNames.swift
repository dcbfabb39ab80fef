/// "Did you mean": the names close to a misspelt one, for key names and for the Lua API's
/// functions and methods alike.
public enum CloseNames {
    /// Up to `count` of `candidates` within two edits of `name` (and not the whole of it), or
    /// that start with it (3 characters or more), closest first. Case-insensitive.
    public static func closest(to name: String, among candidates: [String], count: Int = 5) -> [String] {
        let key = name.lowercased()
        guard !key.isEmpty else { return [] }
        let scored = Set(candidates).compactMap { candidate -> (Int, String)? in
            let lower = candidate.lowercased()
            let distance = editDistance(key, lower, limit: 2)
            if distance <= 2 && distance < max(lower.count, key.count) { return (distance, candidate) }
            if key.count >= 3 && lower.hasPrefix(key) { return (3, candidate) }
            return nil
        }
        return scored.sorted { $0 < $1 }.prefix(count).map { $0.1 }
    }

    /// Levenshtein distance, stopping early past `limit` (returns `limit + 1` then).
    public static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        if abs(a.count - b.count) > limit { return limit + 1 }
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
