import Foundation
import MotionGestures
import MotionJSON

/// sway and i3 over their IPC socket (`$SWAYSOCK`, or `$I3SOCK`): GET_TREE for the focus at
/// connection, then SUBSCRIBE ["window"] for its changes (`focus`, the focused window's `title`,
/// its `close`). The app is `app_id` (Wayland clients) or `window_properties.class` (X11 ones).
public final class SwayFocusSource: FocusSource {
    public let name = "sway"
    let path: String
    private var socket: UnixSocket?
    private var decoder = SwayIPC.Decoder()
    private var buffer: [UInt8] = []

    public init(path: String) {
        self.path = path
    }

    public func connect() throws {
        let socket = try UnixSocket(path: path)
        try socket.write(SwayIPC.message(type: SwayIPC.getTree) + SwayIPC.message(type: SwayIPC.subscribe, payload: #"["window"]"#))
        self.socket = socket
        decoder = SwayIPC.Decoder()
    }

    public var fileDescriptor: Int32 { socket?.fd ?? -1 }

    public func read() throws -> [AppInfo?] {
        guard let socket else { throw FocusError("not connected") }
        buffer.removeAll(keepingCapacity: true)
        try socket.readSome(upTo: Self.maxReadPerWakeUp, into: &buffer)
        decoder.append(buffer)
        var last: AppInfo??
        while let message = try decoder.next() {
            if let change = try Self.focus(in: message) { last = change }
        }
        return last.map { [$0] } ?? []
    }

    /// Bytes read per wake-up; of the changes among them only the last is handed on (the ones
    /// before it were already past): a flood of focus changes never holds up input.
    static let maxReadPerWakeUp = 16 * 1024

    public func disconnect() {
        socket = nil
    }

    /// The focus a message tells, if it tells one: `.some(nil)` for no window focused.
    static func focus(in message: (type: UInt32, payload: [UInt8])) throws -> AppInfo??  {
        guard message.type == SwayIPC.getTree || message.type == SwayIPC.windowEvent else { return nil }
        // A title is whatever bytes the client set (an X11 window's may be Latin-1), and sway
        // passes them on: a byte that is not UTF-8 reads as U+FFFD, not as a reply refused.
        guard let object = try? JSONValue.parse(String(decoding: message.payload, as: UTF8.self)), case .object = object else {
            throw FocusError("sway sent JSON that is not an object")
        }
        if message.type == SwayIPC.getTree {
            guard let focused = focusedNode(in: object) else { return .some(nil) }
            return .some(isWindow(focused) ? app(of: focused) : nil)
        }
        guard let change = object["change"]?.stringValue, let container = object["container"], case .object = container else { return nil }
        let isFocused = container["focused"]?.boolValue ?? false
        switch change {
        case "focus": return .some(app(of: container))
        case "title" where isFocused: return .some(app(of: container))
        case "close" where isFocused: return .some(nil)
        default: return nil
        }
    }

    /// The node with `"focused": true` (a window, or a workspace with none).
    static func focusedNode(in node: JSONValue) -> JSONValue? {
        if node["focused"]?.boolValue == true { return node }
        for key in ["nodes", "floating_nodes"] {
            for child in node[key]?.arrayValue ?? [] where child.isObject {
                if let found = focusedNode(in: child) { return found }
            }
        }
        return nil
    }

    static func isWindow(_ node: JSONValue) -> Bool {
        let type = node["type"]?.stringValue
        return type == "con" || type == "floating_con"
    }

    static func app(of container: JSONValue) -> AppInfo? {
        let properties = container["window_properties"]
        let className = properties?["class"]?.stringValue
        let instance = properties?["instance"]?.stringValue
        guard let id = container["app_id"]?.stringValue.flatMap({ $0.isEmpty ? nil : $0 }) ?? className ?? instance else {
            return nil
        }
        return AppInfo(id: id, className: className, instance: instance, title: container["name"]?.stringValue,
                       pid: container["pid"]?.integerValue)
    }
}
