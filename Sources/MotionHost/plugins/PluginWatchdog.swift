import Foundation
import MotionLua
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The time limit of each plugin call: `WatchThread`'s calls configuration (`run`'s `Watchdog`
/// is its stretch one). The plugin's state is watched (`LuaRuntime.isWatched`):
/// its Lua code runs with no hook, and this watchdog stops it at its limit; it is also the
/// enforcer for code no Lua hook could reach. Each call into a plugin says which plugin runs now
/// and until when (`enterCall`/`leave`: atomic stores, no lock, no clock read of its own). The
/// first call arms the thread's watch, which goes on from frame to frame while calls keep coming
/// (no lock or system call per frame); a look that finds no call running ends it until the next
/// call. At the shortest limit after a call began the thread looks which call runs and waits for
/// that call's own limit; at it, it stops that plugin's state (`LuaStateLimiter`: a signal to the
/// host's thread hooks the plugin's running Lua code, which raises at its next instruction, and
/// only that plugin is disabled).
/// The library's own loops in C (pattern matching, the table functions, `load`) check the limit
/// themselves (CLuaShimBounded.h) and a plugin opens no file that could block (`RegularFiles`),
/// so the rest is a last resort: a call still blocked `grace` seconds later is stuck outside
/// Lua where nothing can reach it (a system call that does not return, a bug in C), which
/// nothing but the process can leave: the watchdog records the
/// plugin (`HangRecord`), writes the whole lines already made, says which plugin hung and ends
/// the process with exit status 1; the next start (the service's restart) keeps that plugin
/// disabled until its file changes. Time between two calls is the host's, bounded by no limit.
public final class PluginWatchdog: Sendable {
    public let grace: Double
    private let timer: WatchThread
    private let board: Board
    /// The shortest time limit of the host's plugins (`Double` bits; 0: not told), how often
    /// the thread looks while calls run: set by the host's thread, read by it when a call arms
    /// the watch.
    private let shortestBits = Atomic<UInt64>(0)

    /// What the thread needs of each plugin (by slot): set when the plugin loads, read only when
    /// a limit is reached.
    struct Entry: Sendable {
        var plugin = ""
        var identity = ""
        var timeout = 0.0
        var limiter: LuaStateLimiter?
    }

    /// The call running now, published by the host's thread for the watchdog's.
    final class Board: Sendable {
        /// The call running now in one word: its limit in 1/65,536 s (rounded up: some 15 µs
        /// late at most) in the high 47 bits, whether its state may be stopped (not during a
        /// load: the state is not the plugin's yet) in the next bit, its plugin's slot in the
        /// low 16 bits; `none` between calls.
        let current = Atomic<UInt64>(Board.none)
        static let none = UInt64.max
        let entries = Mutex<[Entry?]>([])

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
    }

    public init(grace: Double = 2, record: HangRecord?, sink: LineSink? = nil) {
        self.grace = grace
        let board = Board()
        self.board = board
        timer = WatchThread(grace: grace, calls: WatchThread.Calls(
            current: {
                let word = board.current.load(ordering: .sequentiallyConsistent)
                return word == Board.none ? nil : (Board.unpack(word).limit, word)
            },
            expire: { word in
                let (_, slot, stoppable) = Board.unpack(word)
                if stoppable { board.entry(slot)?.limiter?.expire() }
            },
            lastResort: { word in
                let hung = board.entry(Board.unpack(word).slot) ?? Entry()
                record?.write(hung.identity)
                sink?.flushIfIdle()
                // Past the daemon's stderr queue, waited for a moment at most (docs/daemon.md).
                StandardError.lastLine("\(hung.plugin): error: still running \(grace) s after its time limit of \(hung.timeout) s, blocked outside Lua (in a C function or a system call): the daemon ends; at its next start \(hung.plugin) stays disabled until its file changes")
                _exit(1)
            }))
    }

    deinit { timer.end() }

    /// Whether its thread runs, and so stops a plugin's state at the limit of each call published
    /// (`enterCall`): the plugin's state is then watched (`LuaRuntime.isWatched`).
    var stopsStates: Bool { timer.isRunning }

    /// A slot for a new plugin (freed by `remove`).
    func add() -> Int {
        board.entries.withLock { entries in
            if let free = entries.firstIndex(where: { $0 == nil }) {
                entries[free] = Entry()
                return free
            }
            entries.append(Entry())
            return entries.count - 1
        }
    }

    func remove(_ slot: Int) {
        board.entries.withLock { if slot < $0.count { $0[slot] = nil } }
    }

    /// What the thread says and stops for the plugin in `slot` (after each load).
    func update(_ slot: Int, plugin: String, identity: String, timeout: Double, limiter: LuaStateLimiter?) {
        board.entries.withLock { entries in
            guard slot < entries.count else { return }
            entries[slot] = Entry(plugin: plugin, identity: identity, timeout: timeout, limiter: limiter)
        }
    }

    /// Every plugin's limit is `shortest` seconds or more (the host's, as its plugins load and unload).
    func setShortest(_ shortest: Double) {
        shortestBits.store(shortest.bitPattern, ordering: .relaxed)
    }

    /// A call into the plugin in `slot`, started at `start`, runs until `limit` (monotonic
    /// seconds): published (`enter`), and the thread's watch armed unless it runs already — it
    /// goes on from one call and frame to the next, until the thread finds no call running
    /// (`WatchThread.watchCalls`): a call costs two atomic stores and a load, no lock.
    @inline(__always)
    func enterCall(_ slot: Int, start: Double, limit: Double) {
        enter(slot, limit: limit)
        let shortest = Double(bitPattern: shortestBits.load(ordering: .relaxed))
        let step = shortest > 0 ? min(shortest, limit - start) : limit - start
        timer.watchCalls(firstLookAt: start + step, step: step)
    }

    func endCalls() {
        board.current.store(Board.none, ordering: .releasing)
        timer.disarm()
    }

    /// A call into the plugin in `slot` runs until `limit` (monotonic seconds). `stoppable`
    /// false: the state running is not the plugin's current one yet (a load); only the last
    /// resort applies to it.
    @inline(__always)
    func enter(_ slot: Int, limit: Double, stoppable: Bool = true) {
        // Sequentially consistent: the thread, which stops watching when it finds no call, must
        // see this one or the caller must see that it stopped (`WatchThread.watching`).
        board.current.store(Board.pack(limit: limit, slot: slot, stoppable: stoppable), ordering: .sequentiallyConsistent)
    }

    /// The call is over; the host runs until the next.
    @inline(__always)
    func leave() {
        board.current.store(Board.none, ordering: .releasing)
    }

    /// One call bounded by `timeout` seconds from `start`, armed by itself (a load, outside a frame).
    func arm(_ slot: Int, start: Double, timeout: Double, stoppable: Bool) {
        guard timeout > 0 else { return }
        enter(slot, limit: start + timeout, stoppable: stoppable)
        timer.armCalls(at: start + timeout, step: timeout)
    }

    /// After a load (start-up, a reload: rare), the thread's look is cancelled at once, so a
    /// host that then waits for input does not wake for it.
    func disarm() {
        endCalls()
        timer.quiesce()
    }

    /// The host waits for input with no call running: the thread's pending look, which would
    /// find nothing to do, is cancelled (`WatchThread.quiesce`).
    public func quiesce() { timer.quiesce() }

    /// When the thread will wake by itself (nil: not before a call arms it): for tests.
    public var nextLook: Double? { timer.nextLook }
}
