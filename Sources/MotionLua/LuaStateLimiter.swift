import CLuaShim
import Synchronization

/// A handle on one Lua state that another thread may hold (a watchdog): `expire()` marks the
/// state as past its time limit, an atomic flag in the state. A watched state
/// (`LuaRuntime.isWatched`) runs with no hook: the thread running its Lua code is sent a signal,
/// whose handler hooks it there. Otherwise that thread sees the flag at the next check of its
/// time limit (every 10,000 instructions while a limit is set). Either way, also when Lua code
/// of the state is next entered, and from then on it raises at every instruction. The runtime detaches the handle before it closes the
/// state, so a late `expire()` does nothing.
public final class LuaStateLimiter: Sendable {
    /// The state, as a bit pattern (an OpaquePointer is not Sendable); 0 once detached.
    private let state = Mutex<UInt>(0)

    init() {}

    func attach(_ L: OpaquePointer) { state.withLock { $0 = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(L))) } }

    func detach() { state.withLock { $0 = 0 } }

    /// Marks the state as past its time limit; safe from any thread, at any time.
    public func expire() {
        state.withLock { bits in
            guard bits != 0, let L = OpaquePointer(bitPattern: bits) else { return }
            ms_state_expire(L)
        }
    }
}
