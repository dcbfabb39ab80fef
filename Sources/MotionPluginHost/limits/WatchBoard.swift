import MotionLua
import Synchronization

/// What the host's thread publishes for the watchdog's (`Watchdog`): the call running now, in
/// one atomic word, and what the thread needs of each caller (by slot) once a limit is reached.
final class WatchBoard: Sendable {
    /// What the thread says and stops for one slot (a plugin; `run`'s stretches): set when the
    /// plugin loads, read only when a limit is reached.
    struct Entry: Sendable {
        var plugin = ""
        var identity = ""
        var timeout = 0.0
        var limiter: LuaStateLimiter?
    }

    /// The call running now in one word: its limit in 1/65,536 s (rounded up: some 15 µs late
    /// at most) in the high 47 bits, whether its state may be stopped (not during a load: the
    /// state is not the plugin's yet) in the next bit, its slot in the low 16 bits; `none`
    /// between calls.
    let current = Atomic<UInt64>(WatchBoard.none)
    static let none = UInt64.max
    private let entries = Mutex<[Entry?]>([])

    @inline(__always)
    static func pack(limit: Double, slot: Int, stoppable: Bool) -> UInt64 {
        // Units of 2^-16 s, one more than the limit's (never earlier than it); a limit out of
        // range (negative, or past 2^46 units: 34 years of uptime) is the largest.
        // (In range, so converted without UInt64's checks: each plugin call packs one.)
        let units = limit > 0 && limit < 1_000_000_000
            ? UInt64(truncatingIfNeeded: Int64(limit * 65_536)) &+ 1 : (limit > 0 ? 1 << 46 : 0)
        return units << 17 | (stoppable ? 1 << 16 : 0) | UInt64(slot & 0xFFFF)
    }

    static func unpack(_ word: UInt64) -> (limit: Double, slot: Int, stoppable: Bool) {
        (Double(word >> 17) / 65_536, Int(word & 0xFFFF), word & (1 << 16) != 0)
    }

    func entry(_ slot: Int) -> Entry? {
        entries.withLock { slot < $0.count ? $0[slot] : nil }
    }

    /// A slot for a new caller (freed by `remove`).
    func add() -> Int {
        entries.withLock { entries in
            if let free = entries.firstIndex(where: { $0 == nil }) {
                entries[free] = Entry()
                return free
            }
            entries.append(Entry())
            return entries.count - 1
        }
    }

    func remove(_ slot: Int) {
        entries.withLock { if slot < $0.count { $0[slot] = nil } }
    }

    func update(_ slot: Int, _ entry: Entry) {
        entries.withLock { entries in
            guard slot < entries.count else { return }
            entries[slot] = entry
        }
    }
}
