import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Names one descriptor given to `LiveDeviceSet.watch(fd:onReadable:)`, for `unwatch`.
public struct WatchToken: Hashable, Sendable {
    let id: Int
}

/// Other descriptors in the input hub's one wait: a host that also serves a compositor socket,
/// a control socket or a config watcher does not need a second wait (or a thread) for them.
///
/// `nextFrame(timeout:)` waits on the devices and on every watched descriptor in the same
/// wait (`ReadySet`). When a watched descriptor is ready (readable, hung up or in error), its handler runs
/// on the thread that called `nextFrame`, during that call; if no frame is ready afterwards,
/// `nextFrame` returns `.timeout` at once, so the caller's loop (`LiveLoop.step` answers
/// `.idle`) sees at once what the handler changed (new scheduled work, a new plugin).
///
/// The handler must consume what made the descriptor ready (read it, accept the connection),
/// or the next wait returns at once again; on end of file it should `unwatch` (and close) the
/// descriptor. A descriptor closed while still watched is never reported ready again, and is
/// dropped with a diagnostic when the wait is next set up (the set's devices or watches change). Handlers may call `watch` and `unwatch`, including for their own token. Errors a
/// handler throws come out of `nextFrame`. The set never closes a watched descriptor.
extension LiveDeviceSet {
    /// Adds `fd` to the wait; `onReadable` runs each time it is ready. `events` are poll(2)
    /// events (POLLIN by default; POLLOUT for a socket being written in the background).
    @discardableResult
    public func watch(fd: Int32, events: Int16 = Int16(POLLIN), onReadable: @escaping () throws -> Void) -> WatchToken {
        let token = WatchToken(id: nextToken)
        nextToken += 1
        watchers.append(Watcher(token: token, fd: fd, events: events, handler: onReadable))
        waitIsStale = true
        return token
    }

    /// Removes a descriptor from the wait (nothing for a token already removed).
    public func unwatch(_ token: WatchToken) {
        guard let index = watchers.firstIndex(where: { $0.token == token }) else { return }
        watchers.remove(at: index)
        waitIsStale = true
    }

    /// The descriptors watched now.
    public var watchedDescriptors: [Int32] { watchers.map(\.fd) }
}
