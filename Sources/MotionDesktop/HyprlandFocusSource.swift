import CLinux
import Foundation
import MotionGestures
import MotionJSON

/// Hyprland: the event socket `$XDG_RUNTIME_DIR/hypr/$HYPRLAND_INSTANCE_SIGNATURE/.socket2.sock`
/// (`activewindow>>class,title`). It tells changes only: the focus at connection is asked on
/// the request socket (`.socket.sock`, `j/activewindow`), which answers and closes.
///
/// Nothing here waits: the request is sent at connection and its answer read when it comes.
/// Both sockets are in one epoll set, whose descriptor is the one the host waits on, so the
/// answer wakes the loop as an event does. A read takes at most `maxReadPerWakeUp` bytes of
/// events and reports only the last focus among them (the ones before it were already past
/// when the loop saw them): a flood of focus changes costs each wake-up a bounded time, and
/// input is read between them.
public final class HyprlandFocusSource: FocusSource {
    public let name = "hyprland"
    let directory: String
    private var socket: UnixSocket?
    private var events = HyprlandEvents()
    /// The `j/activewindow` request waiting for its answer, and the answer so far.
    private var request: UnixSocket?
    private var reply: [UInt8] = []
    private var buffer: [UInt8] = []
    /// The epoll set of the sockets (made once, kept for the source's life).
    private var readiness: Int32 = -1
    static let maxReadPerWakeUp = 16 * 1024
    /// A longer answer to `j/activewindow` is not one (titles are short).
    static let maxReply = 1 << 20

    /// `directory`: `$XDG_RUNTIME_DIR/hypr/$HYPRLAND_INSTANCE_SIGNATURE`.
    public init(directory: String) {
        self.directory = directory
    }

    deinit {
        disconnect()
        if readiness >= 0 { close(readiness) }
    }

    public func connect() throws {
        if readiness < 0 {
            readiness = epoll_create1(Int32(EPOLL_CLOEXEC))
            guard readiness >= 0 else { throw FocusError("epoll_create1: \(String(cString: strerror(errno)))") }
        }
        let socket = try UnixSocket(path: directory + "/.socket2.sock")
        guard add(socket.fd) else { throw FocusError("epoll_ctl: \(String(cString: strerror(errno)))") }
        self.socket = socket
        events = HyprlandEvents()
        // The focus now, asked without waiting (no request socket: it stays unknown until the
        // first change).
        if let request = try? UnixSocket(path: directory + "/.socket.sock"),
           (try? request.write(Array("j/activewindow".utf8))) != nil, add(request.fd) {
            self.request = request
            reply = []
        }
    }

    public var fileDescriptor: Int32 { socket == nil ? -1 : readiness }

    public func read() throws -> [AppInfo?] {
        guard let socket else { throw FocusError("not connected") }
        var changes: [AppInfo?] = []
        if let initial = readReply() { changes.append(initial) }
        buffer.removeAll(keepingCapacity: true)
        try socket.readSome(upTo: Self.maxReadPerWakeUp, into: &buffer)
        try events.append(buffer)
        if let last = events.focusChanges().last {
            // A change is newer than any answer still to come.
            dropRequest()
            changes = [last]
        }
        return changes
    }

    /// The answer to `j/activewindow`, once whole (Hyprland closes the socket after it): the
    /// focus at connection, or nil while it is not there yet (or was no answer).
    private func readReply() -> AppInfo?? {
        guard let request else { return nil }
        do {
            try request.readAvailable(into: &reply)
            if reply.count > Self.maxReply { dropRequest() }
            return nil
        } catch {
            // Closed: the answer is whole.
            let answer = reply
            dropRequest()
            do { return .some(try Self.parseActiveWindow(answer)) } catch { return nil }
        }
    }

    private func dropRequest() {
        if let request { epoll_ctl(readiness, EPOLL_CTL_DEL, request.fd, nil) }
        request = nil
        reply = []
    }

    private func add(_ fd: Int32) -> Bool {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = fd
        return epoll_ctl(readiness, EPOLL_CTL_ADD, fd, &event) == 0
    }

    public func disconnect() {
        dropRequest()
        if let socket { epoll_ctl(readiness, EPOLL_CTL_DEL, socket.fd, nil) }
        socket = nil
    }

    static func parseActiveWindow(_ reply: [UInt8]) throws -> AppInfo? {
        // A title that is not UTF-8 reads with U+FFFD, as sway's (SwayFocusSource.focus).
        guard let object = try? JSONValue.parse(String(decoding: reply, as: UTF8.self)), case .object = object else {
            throw FocusError("Hyprland's activewindow reply is not a JSON object")
        }
        guard let className = object["class"]?.stringValue, !className.isEmpty else { return nil }
        return AppInfo(id: className, className: className, title: object["title"]?.stringValue,
                       pid: object["pid"]?.integerValue)
    }
}
