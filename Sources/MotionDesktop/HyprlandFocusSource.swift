import Foundation
import MotionGestures

/// Hyprland: the event socket `$XDG_RUNTIME_DIR/hypr/$HYPRLAND_INSTANCE_SIGNATURE/.socket2.sock`
/// (`activewindow>>class,title`). It tells changes only: the focus at connection is asked once on
/// the request socket (`.socket.sock`, `j/activewindow`), which answers at once and closes; that
/// one exchange waits at most `requestTimeout`.
public final class HyprlandFocusSource: FocusSource {
    public let name = "hyprland"
    let directory: String
    private var socket: UnixSocket?
    private var events = HyprlandEvents()
    private var pendingInitial: [AppInfo?] = []
    private var buffer: [UInt8] = []
    static let requestTimeout = 0.5

    /// `directory`: `$XDG_RUNTIME_DIR/hypr/$HYPRLAND_INSTANCE_SIGNATURE`.
    public init(directory: String) {
        self.directory = directory
    }

    public func connect() throws {
        let socket = try UnixSocket(path: directory + "/.socket2.sock")
        self.socket = socket
        events = HyprlandEvents()
        pendingInitial = (try? Self.activeWindow(requestSocket: directory + "/.socket.sock")).map { [$0] } ?? []
    }

    public var fileDescriptor: Int32 { socket?.fd ?? -1 }

    public func read() throws -> [AppInfo?] {
        guard let socket else { throw FocusError("not connected") }
        buffer.removeAll(keepingCapacity: true)
        try socket.readAvailable(into: &buffer)
        try events.append(buffer)
        return events.focusChanges()
    }

    /// The focus at connection (the tracker asks right after connecting).
    public func refresh() throws -> [AppInfo?] {
        let initial = pendingInitial
        pendingInitial = []
        return initial
    }

    public func disconnect() {
        socket = nil
    }

    /// `j/activewindow` on the request socket: the JSON of the focused window (`{}` for none).
    static func activeWindow(requestSocket path: String) throws -> AppInfo? {
        let socket = try UnixSocket(path: path)
        try socket.write(Array("j/activewindow".utf8))
        var reply: [UInt8] = []
        let deadline = MonotonicClock.now() + requestTimeout
        while MonotonicClock.now() < deadline {
            do {
                try socket.readAvailable(into: &reply)
            } catch {
                break  // closed: the reply is whole
            }
            var pfd = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&pfd, 1, 50)
        }
        return try parseActiveWindow(reply)
    }

    static func parseActiveWindow(_ reply: [UInt8]) throws -> AppInfo? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any] else {
            throw FocusError("Hyprland's activewindow reply is not a JSON object")
        }
        guard let className = object["class"] as? String, !className.isEmpty else { return nil }
        return AppInfo(id: className, className: className, title: object["title"] as? String,
                       pid: (object["pid"] as? NSNumber)?.intValue)
    }
}
