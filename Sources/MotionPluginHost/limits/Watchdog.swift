import MotionStreams
import Foundation
import MotionLua
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import MotionDiagnostics

/// The time limits' enforcer for code the Lua hook cannot reach, and for a state it watches
/// (`LuaRuntime.isWatched`: its Lua code runs with no hook), the limit itself. One type in two
/// configurations, differing only in what its last resort says and records:
/// - **`run`'s** (`init(timeout:grace:what:sink:)`): `--timeout` bounds stretches of work (a
///   whole file run; one load or replay: `arm(stopping:)`) and, on live input, each call into
///   the script (`TimeLimit`).
/// - **the daemon's** (`init(grace:record:sink:)`): each call into a plugin, with the plugin's
///   own limit; the last resort records the plugin (`HangRecord`), which the next start keeps
///   disabled until its file changes.
///
/// Each call says which slot (plugin) runs now and until when (`enterCall`/`leave`: atomic
/// stores in one word, `WatchBoard`; no lock, no clock read of its own). The first call arms the
/// thread's watch (`WatchThread`), which goes on from frame to frame while calls keep coming (no
/// lock or system call per frame); a look that finds no call running ends it until the next
/// call. At the running call's limit the thread stops that call's state (`LuaStateLimiter`: a
/// watched state's thread is signalled and its running Lua code raises at its next instruction;
/// only that state stops). The library's own loops in C (pattern matching, the table functions,
/// `load`) check the limit themselves (CLuaShimBounded.h) and a plugin opens no file that could
/// block (`RegularFiles`), so the rest is a last resort: a call still going `grace` seconds
/// later is blocked inside C (`os.execute("sleep 100")`, `io.read()` on a terminal, a system
/// call that does not return), where nothing but the process can be stopped: the watchdog
/// writes the whole lines already made, says so and ends the process with exit status 1.
/// Time between two calls is the host's, bounded by no limit.
public final class Watchdog: Sendable {
    /// `run`'s `--timeout` (0 for the daemon's, whose limits are each plugin's).
    public let timeout: Double
    public let grace: Double
    /// Nil: `run` without a time limit (nothing is watched).
    private let thread: WatchThread?
    /// `thread`, held by it (`Unretained`'s owner, for the watchdog's life): each call into a
    /// plugin arms the watch without a retain and a release of the thread.
    nonisolated(unsafe) private let threadRef: Unretained<WatchThread>?
    private let board: WatchBoard
    /// `run`'s stretches (`arm(stopping:)`): a slot of their own.
    private let stretchSlot: Int
    /// The shortest time limit of the host's plugins (`Double` bits; 0: not told), how often
    /// the thread looks while calls run: set by the host's thread, read by it when a call arms
    /// the watch.
    private let shortestBits = Atomic<UInt64>(0)

    /// `run`'s: a watchdog for `timeout` seconds (0: never fires), named `what` in its last
    /// word. Starts disarmed.
    public convenience init(timeout: Double, grace: Double = 2, what: String, sink: LineSink? = nil) {
        self.init(timeout: timeout, grace: grace) { _ in
            sink?.flushIfIdle()
            StandardError.line("error: \(what): timeout: still running \(grace) s after the time limit of \(timeout) s (blocked outside Lua, e.g. in os.execute or io.read); stopped")
            _exit(1)
        }
    }

    /// The daemon's: each plugin's calls under its own limit; a hang is recorded in `record`.
    public convenience init(grace: Double = 2, record: HangRecord?, sink: LineSink? = nil) {
        self.init(timeout: 0, grace: grace, watches: true) { hung in
            record?.write(hung.identity)
            sink?.flushIfIdle()
            // Past the daemon's stderr queue, waited for a moment at most (docs/daemon.md).
            StandardError.lastLine("\(hung.plugin): error: still running \(grace) s after its time limit of \(hung.timeout) s, blocked outside Lua (in a C function or a system call): the daemon ends; at its next start \(hung.plugin) stays disabled until its file changes")
            _exit(1)
        }
    }

    private init(timeout: Double, grace: Double, watches: Bool = false,
                 lastResort: @escaping @Sendable (WatchBoard.Entry) -> Void) {
        self.timeout = timeout
        self.grace = grace
        let board = WatchBoard()
        self.board = board
        stretchSlot = board.add()
        guard watches || timeout > 0 else { thread = nil; threadRef = nil; return }
        let thread = WatchThread(grace: grace, calls: WatchThread.Calls(
            current: {
                let word = board.current.load(ordering: .sequentiallyConsistent)
                return word == WatchBoard.none ? nil : (WatchBoard.unpack(word).limit, word)
            },
            expire: { word in
                let (_, slot, stoppable) = WatchBoard.unpack(word)
                if stoppable { board.entry(slot)?.limiter?.expire() }
            },
            lastResort: { word in lastResort(board.entry(WatchBoard.unpack(word).slot) ?? WatchBoard.Entry()) }))
        self.thread = thread
        threadRef = Unretained(thread)
    }

    deinit { thread?.end() }

    /// Test seam, not API: the kernel's id of the watchdog's thread (its /proc/self/task
    /// entry), once it runs; tests look for that one thread rather than count a process's.
    var threadID: pid_t? { thread?.threadID }

    /// Whether its thread runs, and so stops a state at the limit of each call or stretch: a
    /// host that arms it for every call of a state marks the state watched
    /// (`LuaRuntime.isWatched`), whose Lua code then runs with no hook.
    public var stopsStates: Bool { thread?.isRunning ?? false }

    /// Test seam, not API: when the thread will wake by itself (nil: not before a call arms it).
    var nextLook: Double? { thread?.nextLook }

    // MARK: `run`'s stretches

    /// Starts a stretch of work bounded by `timeout`, from `now` (CLOCK_MONOTONIC seconds; nil:
    /// read here); at its limit `limiter`'s state (when given) is stopped.
    public func arm(stopping limiter: LuaStateLimiter? = nil, now: Double? = nil) {
        guard thread != nil else { return }
        board.update(stretchSlot, WatchBoard.Entry(plugin: "", identity: "", timeout: timeout, limiter: limiter))
        armCall(stretchSlot, start: now ?? Clock.monotonic(), timeout: timeout, stoppable: limiter != nil)
    }

    /// Ends the stretch or call armed (`arm`, `armCall`).
    public func disarm() {
        board.current.store(WatchBoard.none, ordering: .releasing)
        thread?.disarm()
    }

    /// Runs `body` as one armed stretch.
    public func bounding<T>(stopping limiter: LuaStateLimiter? = nil, now: Double? = nil, _ body: () throws -> T) rethrows -> T {
        arm(stopping: limiter, now: now)
        defer { disarm() }
        return try body()
    }

    /// The host waits for input with no call running: the thread's pending look, which would
    /// find nothing to do, is cancelled (`WatchThread.quiesce`).
    public func quiesce() { thread?.quiesce() }

    // MARK: Calls into plugins (`TimeLimit`)

    /// A slot for a new plugin (freed by `remove`).
    func add() -> Int { board.add() }

    func remove(_ slot: Int) { board.remove(slot) }

    /// What the thread says and stops for the plugin in `slot` (after each load).
    func update(_ slot: Int, plugin: String, identity: String, timeout: Double, limiter: LuaStateLimiter?) {
        board.update(slot, WatchBoard.Entry(plugin: plugin, identity: identity, timeout: timeout, limiter: limiter))
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
        guard let threadRef else { return }
        let shortest = Double(bitPattern: shortestBits.load(ordering: .relaxed))
        let step = shortest > 0 ? min(shortest, limit - start) : limit - start
        threadRef.with { $0.watchCalls(firstLookAt: start + step, step: step) }
    }

    /// A call into the plugin in `slot` runs until `limit` (monotonic seconds). `stoppable`
    /// false: the state running is not the plugin's current one yet (a load); only the last
    /// resort applies to it.
    @inline(__always)
    func enter(_ slot: Int, limit: Double, stoppable: Bool = true) {
        // Sequentially consistent: the thread, which stops watching when it finds no call, must
        // see this one or the caller must see that it stopped (`WatchThread.watching`).
        board.current.store(WatchBoard.pack(limit: limit, slot: slot, stoppable: stoppable), ordering: .sequentiallyConsistent)
    }

    /// The call is over; the host runs until the next.
    @inline(__always)
    func leave() {
        board.current.store(WatchBoard.none, ordering: .releasing)
    }

    /// One call bounded by `timeout` seconds from `start`, armed by itself (a load, outside a
    /// frame; a stretch of `run`'s). End it with `disarm`.
    func armCall(_ slot: Int, start: Double, timeout: Double, stoppable: Bool) {
        guard timeout > 0, let thread else { return }
        enter(slot, limit: start + timeout, stoppable: stoppable)
        thread.armCalls(at: start + timeout, step: timeout)
    }
}
