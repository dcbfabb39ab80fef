#if canImport(Glibc)
import Glibc
#endif
import CXCB
import MotionGestures

/// X11 through libxcb: with an EWMH window manager, `_NET_ACTIVE_WINDOW` on the root window
/// (PropertyChangeMask tells each change; the active window's own PropertyChangeMask tells its
/// title changes); without one, the input focus, asked again every `refreshInterval` seconds
/// since X has no event for it on the root. The app: `WM_CLASS` (class as id, and instance),
/// `_NET_WM_NAME` (or `WM_NAME`), `_NET_WM_PID`. The focus is read with a few round trips to
/// the server at each change; events are taken without blocking.
public final class X11FocusSource: FocusSource {
    public let name = "x11"
    let display: String?
    private var connection: OpaquePointer?
    private var root: xcb_window_t = 0
    private var active: xcb_window_t = 0
    private var ewmh = false
    private var atoms = Atoms()
    private var last: AppInfo??

    struct Atoms {
        var activeWindow: xcb_atom_t = 0
        var wmName: xcb_atom_t = 0
        var utf8String: xcb_atom_t = 0
        var wmPid: xcb_atom_t = 0
    }

    /// `display`: as `$DISPLAY` (nil: libxcb reads it).
    public init(display: String? = nil) {
        self.display = display
    }

    public func connect() throws {
        var screenNumber: Int32 = 0
        guard let c = xcb_connect(display, &screenNumber), xcb_connection_has_error(c) == 0 else {
            throw FocusError("cannot open the X display \(display ?? "$DISPLAY")")
        }
        connection = c
        var screens = xcb_setup_roots_iterator(xcb_get_setup(c))
        for _ in 0..<max(0, Int(screenNumber)) where screens.rem > 1 { xcb_screen_next(&screens) }
        root = screens.data.pointee.root
        atoms.activeWindow = intern("_NET_ACTIVE_WINDOW")
        atoms.wmName = intern("_NET_WM_NAME")
        atoms.utf8String = intern("UTF8_STRING")
        atoms.wmPid = intern("_NET_WM_PID")
        watchProperties(of: root)
        ewmh = property(root, atoms.activeWindow, type: xcb_atom_t(XCB_ATOM_WINDOW.rawValue)) != nil
        last = nil
        xcb_flush(c)
        guard xcb_connection_has_error(c) == 0 else { throw FocusError("the X connection failed while setting up") }
    }

    public var fileDescriptor: Int32 { connection.map { xcb_get_file_descriptor($0) } ?? -1 }

    /// Without an EWMH window manager: the input focus has no event on the root window.
    public var refreshInterval: Double? { ewmh ? nil : 0.25 }

    public func read() throws -> [AppInfo?] {
        guard let c = connection else { throw FocusError("not connected") }
        var changes: [AppInfo?] = []
        var changed = last == nil
        var event = xcb_poll_for_event(c)
        while true {
            while let notice = event {
                if notice.pointee.response_type & 0x7f == XCB_PROPERTY_NOTIFY {
                    let notify = UnsafeRawPointer(notice).load(as: xcb_property_notify_event_t.self)
                    if notify.window == root && notify.atom == atoms.activeWindow { changed = true }
                    if notify.window == active && active != 0
                        && (notify.atom == atoms.wmName || notify.atom == xcb_atom_t(XCB_ATOM_WM_NAME.rawValue)) { changed = true }
                }
                free(notice)
                event = xcb_poll_for_event(c)
            }
            guard xcb_connection_has_error(c) == 0 else { throw FocusError("the X server closed the connection") }
            if changed { changes += try current() }
            changed = false
            // current()'s requests wait for their replies, and events that arrive meanwhile (a
            // change that closely follows another) are read into xcb's queue, where the socket's
            // readiness no longer shows them: taken now, or that change would wait for the next
            // event (the likely cause of a focus switch test-desktop once never saw reported).
            event = xcb_poll_for_queued_event(c)
            if event == nil { return changes }
        }
    }

    public func refresh() throws -> [AppInfo?] {
        guard connection != nil else { throw FocusError("not connected") }
        return try current()
    }

    public func disconnect() {
        if let connection { xcb_disconnect(connection) }
        connection = nil
        active = 0
    }

    deinit { disconnect() }

    /// The focus now, as a change when it differs from the last reported.
    private func current() throws -> [AppInfo?] {
        guard let c = connection else { return [] }
        var window: xcb_window_t = 0
        if ewmh {
            window = property(root, atoms.activeWindow, type: xcb_atom_t(XCB_ATOM_WINDOW.rawValue))
                .flatMap { $0.count >= 4 ? $0.withUnsafeBytes { $0.load(as: xcb_window_t.self) } : nil } ?? 0
        } else if let reply = xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nil) {
            window = reply.pointee.focus
            free(reply)
        }
        if window <= 1 { window = 0 }  // None, PointerRoot
        if window != active {
            if active != 0 { watchProperties(of: active, on: false) }
            active = window
            if window != 0 { watchProperties(of: window) }
            xcb_flush(c)
        }
        guard xcb_connection_has_error(c) == 0 else { throw FocusError("the X server closed the connection") }
        let app = window == 0 ? nil : app(of: window)
        if let last, last == app { return [] }
        last = .some(app)
        return [app]
    }

    /// The app of `window` or, when it has no WM_CLASS (a client's inner window), of the
    /// nearest ancestor that has one.
    private func app(of window: xcb_window_t) -> AppInfo? {
        guard let c = connection else { return nil }
        var w = window
        for _ in 0..<8 {
            if let wmClass = property(w, xcb_atom_t(XCB_ATOM_WM_CLASS.rawValue), type: xcb_atom_t(XCB_ATOM_STRING.rawValue)) {
                let parts = wmClass.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
                let instance = parts.first.flatMap { $0.isEmpty ? nil : $0 }
                let className = parts.count > 1 && !parts[1].isEmpty ? parts[1] : nil
                let title = property(w, atoms.wmName, type: atoms.utf8String)
                    ?? property(w, xcb_atom_t(XCB_ATOM_WM_NAME.rawValue), type: xcb_atom_t(XCB_ATOM_ANY.rawValue))
                let pid = property(w, atoms.wmPid, type: xcb_atom_t(XCB_ATOM_CARDINAL.rawValue))
                    .flatMap { $0.count >= 4 ? Int($0.withUnsafeBytes { $0.load(as: UInt32.self) }) : nil }
                return AppInfo(id: className ?? instance ?? "", className: className, instance: instance,
                               title: title.map { String(decoding: $0, as: UTF8.self) }, pid: pid)
            }
            guard let tree = xcb_query_tree_reply(c, xcb_query_tree(c, w), nil) else { return nil }
            let parent = tree.pointee.parent
            free(tree)
            guard parent != 0, parent != root else { return nil }
            w = parent
        }
        return nil
    }

    /// A property's bytes (at most 64 KiB), nil when the window has none of that type.
    private func property(_ window: xcb_window_t, _ atom: xcb_atom_t, type: xcb_atom_t) -> [UInt8]? {
        guard let c = connection, atom != 0,
              let reply = xcb_get_property_reply(c, xcb_get_property(c, 0, window, atom, type, 0, 16384), nil) else { return nil }
        defer { free(reply) }
        guard reply.pointee.type != 0 else { return nil }
        let length = Int(xcb_get_property_value_length(reply))
        guard let value = xcb_get_property_value(reply) else { return [] }
        return Array(UnsafeRawBufferPointer(start: value, count: length))
    }

    private func intern(_ name: String) -> xcb_atom_t {
        guard let c = connection else { return 0 }
        let reply = xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, UInt16(name.utf8.count), name), nil)
        defer { free(reply) }
        return reply?.pointee.atom ?? 0
    }

    /// Asks for (or stops) PropertyNotify events of `window`.
    private func watchProperties(of window: xcb_window_t, on: Bool = true) {
        guard let c = connection else { return }
        var mask: UInt32 = on ? XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue : 0
        xcb_change_window_attributes(c, window, XCB_CW_EVENT_MASK.rawValue, &mask)
    }
}
