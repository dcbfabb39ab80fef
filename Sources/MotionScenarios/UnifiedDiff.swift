/// A unified diff (`@@ -a,b +c,d @@`, then ` `, `-` and `+` lines with 3 lines of context) of
/// two line lists, with equality given by the caller (expected and actual lines match as JSON).
enum UnifiedDiff {
    private enum Op { case same(Int, Int), removed(Int), added(Int) }

    /// The diff's lines; empty when every line matches. `offset`: how many lines, the same on
    /// both sides, come before `old` and `new` (their numbers count them; they are not shown).
    static func lines(old: [String], new: [String], offset: Int = 0, context: Int = 3, same: (Int, Int) -> Bool) -> [String] {
        let ops = script(old.count, new.count, same: same)
        var out: [String] = []
        var index = 0
        while index < ops.count {
            guard let change = ops[index...].firstIndex(where: { if case .same = $0 { return false }; return true }) else { break }
            // A hunk runs from `context` lines before a change to `context` after the last change
            // closer than 2 * context to the one before.
            let start = max(index, change - context)
            var end = change
            var cursor = change
            while cursor < ops.count {
                if case .same = ops[cursor] {
                    let nextChange = ops[cursor...].firstIndex(where: { if case .same = $0 { return false }; return true })
                    guard let nextChange, nextChange - cursor <= 2 * context else { break }
                    cursor = nextChange
                } else {
                    end = cursor
                    cursor += 1
                }
            }
            let stop = min(ops.count, end + 1 + context)
            let hunk = ops[start..<stop]
            var oldStart: Int?, newStart: Int?, oldCount = 0, newCount = 0
            var body: [String] = []
            for op in hunk {
                switch op {
                case let .same(o, n):
                    oldStart = oldStart ?? o; newStart = newStart ?? n
                    oldCount += 1; newCount += 1
                    body.append(" " + old[o])
                case let .removed(o):
                    oldStart = oldStart ?? o
                    oldCount += 1
                    body.append("-" + old[o])
                case let .added(n):
                    newStart = newStart ?? n
                    newCount += 1
                    body.append("+" + new[n])
                }
            }
            // With no lines on a side, the number is the line before (0 at the start).
            let oldFrom = offset + (oldCount == 0 ? position(before: start, in: ops, old: true) : oldStart! + 1)
            let newFrom = offset + (newCount == 0 ? position(before: start, in: ops, old: false) : newStart! + 1)
            out.append("@@ -\(oldFrom),\(oldCount) +\(newFrom),\(newCount) @@")
            out += body
            index = stop
        }
        return out
    }

    /// How many old (or new) lines come before op `index`.
    private static func position(before index: Int, in ops: [Op], old: Bool) -> Int {
        ops[..<index].reduce(0) { count, op in
            switch op {
            case .same: return count + 1
            case .removed: return count + (old ? 1 : 0)
            case .added: return count + (old ? 0 : 1)
            }
        }
    }

    /// The edit script: the common start and end kept, the middle by longest common subsequence
    /// when small enough, otherwise all of it removed then added (the diff is capped anyway).
    private static func script(_ n: Int, _ m: Int, same: (Int, Int) -> Bool) -> [Op] {
        var prefix = 0
        while prefix < n, prefix < m, same(prefix, prefix) { prefix += 1 }
        var suffix = 0
        while suffix < n - prefix, suffix < m - prefix, same(n - 1 - suffix, m - 1 - suffix) { suffix += 1 }
        var ops: [Op] = (0..<prefix).map { .same($0, $0) }
        let oldMiddle = prefix..<(n - suffix), newMiddle = prefix..<(m - suffix)
        let rows = oldMiddle.count, columns = newMiddle.count
        if rows > 0, columns > 0, rows * columns <= 1_000_000 {
            // lengths[i][j]: the LCS of old[i...] and new[j...] within the middle.
            var lengths = [Int32](repeating: 0, count: (rows + 1) * (columns + 1))
            for i in stride(from: rows - 1, through: 0, by: -1) {
                for j in stride(from: columns - 1, through: 0, by: -1) {
                    lengths[i * (columns + 1) + j] = same(prefix + i, prefix + j)
                        ? lengths[(i + 1) * (columns + 1) + j + 1] + 1
                        : max(lengths[(i + 1) * (columns + 1) + j], lengths[i * (columns + 1) + j + 1])
                }
            }
            var i = 0, j = 0
            while i < rows || j < columns {
                if i < rows, j < columns, same(prefix + i, prefix + j) {
                    ops.append(.same(prefix + i, prefix + j)); i += 1; j += 1
                } else if i < rows, j == columns || lengths[(i + 1) * (columns + 1) + j] >= lengths[i * (columns + 1) + j + 1] {
                    ops.append(.removed(prefix + i)); i += 1  // removals first, as diff(1) shows them
                } else {
                    ops.append(.added(prefix + j)); j += 1
                }
            }
        } else {
            ops += oldMiddle.map { .removed($0) }
            ops += newMiddle.map { .added($0) }
        }
        ops += (0..<suffix).map { .same(n - suffix + $0, m - suffix + $0) }
        return ops
    }
}
