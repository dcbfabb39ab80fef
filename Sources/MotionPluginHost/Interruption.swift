import CLuaShim
import MotionInput
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM, the one way: the first interrupts the Lua code running now (a hook
/// raises "interrupted" at its next instruction, as `lua.c` does) and wakes every poll
/// registered here (a device being read, the `--watch` file watcher), so each mode ends through
/// its normal path; the second ends the process. The handler and its state are C (atomics and
/// write(2) only), so nothing here is shared mutable Swift state.
public enum Interruption {
    /// Installs the handlers; the calling thread must be the one that runs Lua.
    public static func catchSignals() {
        _ = ms_interrupt_install()
        // Waits on input files (a FIFO with no writer) poll this pipe too.
        if InputWake.writeEnd >= 0 {
            ms_interrupt_removewake(InputWake.writeEnd)  // once, however often this is called
            _ = ms_interrupt_addwake(InputWake.writeEnd)
        }
    }

    /// Makes an interruption write a byte to `fd` (the write end of a self-pipe) until
    /// `stopWaking`. Call from the thread that runs Lua.
    public static func wake(_ fd: Int32) { _ = ms_interrupt_addwake(fd) }
    public static func stopWaking(_ fd: Int32) { ms_interrupt_removewake(fd) }

    /// The signal that interrupted the run (nil: none, or the host asked).
    public static var signal: Int32? {
        let why = ms_interruption()
        return why > 0 ? why : nil
    }

    /// Whether the run was interrupted (a signal, or `request()`).
    public static var isRequested: Bool { ms_interruption() != 0 }

    /// Interrupts as a signal would: every Lua state of the process stops. For what belongs to
    /// the process as a whole — `run`'s one script whose stdout is gone. What concerns one
    /// script is that script's alone (`LuaRuntime.interrupt(reason:)`, its time limit), and the
    /// daemon, whose output all plugins share, stops its loop without interrupting any of them
    /// (`PluginHost.stopReason`). From the thread that runs Lua.
    public static func request() { ms_interrupt_request() }

    /// Forgets an interruption.
    public static func reset() {
        ms_interrupt_reset()
        InputWake.drain()
    }

    /// The exit status of a run ended by `signal`: 128 + its number, as shells report it.
    public static func exitStatus(for signal: Int32) -> Int32 { 128 + signal }
}

extension Interruption {
    /// Lets Lua run again after a signal stopped the reading (the reason stays): the last frame,
    /// which cancels the pointers still down, is handled as usual.
    public static func disarm() { ms_interrupt_disarm() }
}
