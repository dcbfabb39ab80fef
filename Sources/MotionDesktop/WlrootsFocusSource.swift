#if canImport(Glibc)
import Glibc
#endif
import CForeignToplevel
import CWayland
import MotionGestures

/// wlroots compositors (river, labwc, wayfire; sway too) through libwayland-client: the
/// compositor lists its windows to a `zwlr_foreign_toplevel_manager_v1` (wlr-protocols'
/// foreign-toplevel management, meant for task bars), each with its `app_id`, `title` and
/// states, `activated` for the focused one (`ForeignToplevels`). The protocol tells no pid.
///
/// Nothing here blocks: `connect` only sends (the registry, then a sync); the answers are read
/// as they come (`read`): the registry's globals, where the manager is bound, then a second
/// sync whose answer means the initial window list is complete, when the focus is first
/// reported. A compositor without the protocol (GNOME, KDE, Weston) is a `FocusError` once its
/// registry has been listed.
public final class WlrootsFocusSource: FocusSource {
    public let name = "wlroots"
    /// `$WAYLAND_DISPLAY`: a socket name in `$XDG_RUNTIME_DIR`, or a path.
    let display: String
    private var connection: OpaquePointer?
    private var registry: OpaquePointer?
    private var manager: OpaquePointer?
    private var sync: OpaquePointer?
    /// Whether the first sync came back (the registry is listed), and the second (the window list).
    private var listed = false
    private var ready = false
    private var handles: [UInt: OpaquePointer] = [:]
    private var toplevels = ForeignToplevels()
    private var reported: AppInfo??
    /// A failure met inside a callback, thrown once dispatching returned.
    private var failure: FocusError?

    /// The protocol's version this client speaks (3: the `parent` event).
    static let version: UInt32 = 3
    static let managerName = "zwlr_foreign_toplevel_manager_v1"

    public init(display: String) {
        self.display = display
    }

    public func connect() throws {
        guard let connection = wl_display_connect(display) else {
            throw FocusError("cannot connect to the Wayland display \(display): \(String(cString: strerror(errno)))")
        }
        self.connection = connection
        let me = Unmanaged.passUnretained(self).toOpaque()
        registry = wl_display_get_registry(connection)
        wl_registry_add_listener(registry, Self.registryListener, me)
        sync = wl_display_sync(connection)
        wl_callback_add_listener(sync, Self.syncListener, me)
        guard wl_display_flush(connection) >= 0 else {
            disconnect()
            throw FocusError("cannot write to the Wayland display \(display)")
        }
    }

    public var fileDescriptor: Int32 { connection.map { wl_display_get_fd($0) } ?? -1 }

    public func read() throws -> [AppInfo?] {
        guard let connection else { throw FocusError("not connected") }
        while wl_display_prepare_read(connection) != 0 {
            guard wl_display_dispatch_pending(connection) >= 0 else { throw lost() }
        }
        _ = wl_display_flush(connection)
        // Reads what is there without waiting (libwayland's read takes no more than arrived).
        guard wl_display_read_events(connection) >= 0, wl_display_dispatch_pending(connection) >= 0 else { throw lost() }
        // Requests made while dispatching (binding the manager, destroying closed handles).
        _ = wl_display_flush(connection)
        if let failure {
            self.failure = nil
            throw failure
        }
        guard ready else { return [] }
        // One change per read, the state after everything read: a focus moving from one window
        // to another is two windows' `done`s, and no "no window" in between.
        let focus = toplevels.focus
        if case .some(let last) = reported, last == focus { return [] }
        reported = .some(focus)
        return [focus]
    }

    private func lost() -> FocusError {
        let code = connection.map { wl_display_get_error($0) } ?? 0
        return FocusError("the Wayland display \(display) went away" + (code > 0 ? " (\(String(cString: strerror(code))))" : ""))
    }

    public func disconnect() {
        for handle in handles.values { zwlr_foreign_toplevel_handle_v1_destroy(handle) }
        handles = [:]
        if let manager { wl_proxy_destroy(manager) }
        if let sync { wl_callback_destroy(sync) }
        if let registry { wl_registry_destroy(registry) }
        if let connection { wl_display_disconnect(connection) }
        (manager, sync, registry, connection) = (nil, nil, nil, nil)
        (listed, ready, reported, failure) = (false, false, nil, nil)
        toplevels = ForeignToplevels()
    }

    deinit {
        disconnect()
    }

    // MARK: Events

    private func global(name: UInt32, interface: String, version: UInt32) {
        guard interface == Self.managerName, manager == nil, let registry else { return }
        let bound = wl_registry_bind(registry, name, Self.managerInterface, min(version, Self.version))
        manager = OpaquePointer(bound)
        zwlr_foreign_toplevel_manager_v1_add_listener(manager, Self.managerListener, Unmanaged.passUnretained(self).toOpaque())
    }

    private func synced() {
        if let sync { wl_callback_destroy(sync) }
        sync = nil
        if !listed {
            listed = true
            guard manager != nil, let connection else {
                failure = FocusError("the Wayland compositor at \(display) does not offer \(Self.managerName) (wlroots' foreign-toplevel management: river, labwc, wayfire, sway have it; GNOME and KDE do not)")
                return
            }
            // The window list follows the binding; a second sync marks its end.
            sync = wl_display_sync(connection)
            wl_callback_add_listener(sync, Self.syncListener, Unmanaged.passUnretained(self).toOpaque())
        } else {
            ready = true
        }
    }

    private func toplevel(_ handle: OpaquePointer) {
        handles[key(handle)] = handle
        zwlr_foreign_toplevel_handle_v1_add_listener(handle, Self.handleListener, Unmanaged.passUnretained(self).toOpaque())
    }

    private func closed(_ handle: OpaquePointer) {
        toplevels.closed(key(handle))
        handles[key(handle)] = nil
        zwlr_foreign_toplevel_handle_v1_destroy(handle)
    }

    private func finished() {
        if let manager { wl_proxy_destroy(manager) }
        manager = nil
        failure = FocusError("the Wayland compositor at \(display) stopped listing its windows")
    }

    private func key(_ handle: OpaquePointer) -> UInt { UInt(bitPattern: UnsafeRawPointer(handle)) }

    // MARK: Listeners (C function pointers; `data` is the source, unretained: it outlives its
    // proxies, which `disconnect` destroys)

    /// The manager's interface description at an address that lasts (the proxy keeps it): Swift
    /// imports the C constant as a value, whose address is good only inside `withUnsafePointer`.
    /// The copy points at the generated tables as the original does; libwayland reads it, and
    /// sends its name.
    nonisolated(unsafe) private static let managerInterface: UnsafeMutablePointer<wl_interface> = {
        let interface = UnsafeMutablePointer<wl_interface>.allocate(capacity: 1)
        interface.initialize(to: zwlr_foreign_toplevel_manager_v1_interface)
        return interface
    }()

    private static func source(_ data: UnsafeMutableRawPointer?) -> WlrootsFocusSource {
        Unmanaged<WlrootsFocusSource>.fromOpaque(data!).takeUnretainedValue()
    }

    nonisolated(unsafe) private static let registryListener: UnsafeMutablePointer<wl_registry_listener> = {
        let listener = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
        listener.initialize(to: wl_registry_listener(
            global: { data, _, name, interface, version in
                source(data).global(name: name, interface: interface.map { String(cString: $0) } ?? "", version: version)
            },
            global_remove: { _, _, _ in }))
        return listener
    }()

    nonisolated(unsafe) private static let syncListener: UnsafeMutablePointer<wl_callback_listener> = {
        let listener = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
        listener.initialize(to: wl_callback_listener(done: { data, _, _ in source(data).synced() }))
        return listener
    }()

    nonisolated(unsafe) private static let managerListener: UnsafeMutablePointer<zwlr_foreign_toplevel_manager_v1_listener> = {
        let listener = UnsafeMutablePointer<zwlr_foreign_toplevel_manager_v1_listener>.allocate(capacity: 1)
        listener.initialize(to: zwlr_foreign_toplevel_manager_v1_listener(
            toplevel: { data, _, handle in if let handle { source(data).toplevel(handle) } },
            finished: { data, _ in source(data).finished() }))
        return listener
    }()

    nonisolated(unsafe) private static let handleListener: UnsafeMutablePointer<zwlr_foreign_toplevel_handle_v1_listener> = {
        let listener = UnsafeMutablePointer<zwlr_foreign_toplevel_handle_v1_listener>.allocate(capacity: 1)
        listener.initialize(to: zwlr_foreign_toplevel_handle_v1_listener(
            title: { data, handle, title in
                guard let handle, let title else { return }
                let me = source(data)
                me.toplevels.title(me.key(handle), String(cString: title))
            },
            app_id: { data, handle, appId in
                guard let handle, let appId else { return }
                let me = source(data)
                me.toplevels.appId(me.key(handle), String(cString: appId))
            },
            output_enter: { _, _, _ in },
            output_leave: { _, _, _ in },
            state: { data, handle, states in
                guard let handle else { return }
                let me = source(data)
                me.toplevels.state(me.key(handle), activated: WlrootsFocusSource.isActivated(states))
            },
            done: { data, handle in
                guard let handle else { return }
                let me = source(data)
                me.toplevels.done(me.key(handle))
            },
            closed: { data, handle in if let handle { source(data).closed(handle) } },
            parent: { _, _, _ in }))
        return listener
    }()

    /// Whether a `state` array (of 32-bit enum values) holds `activated`.
    static func isActivated(_ states: UnsafeMutablePointer<wl_array>?) -> Bool {
        guard let states, let data = states.pointee.data else { return false }
        let count = states.pointee.size / MemoryLayout<UInt32>.size
        let values = data.bindMemory(to: UInt32.self, capacity: count)
        return (0..<count).contains { values[$0] == ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_ACTIVATED.rawValue }
    }
}
