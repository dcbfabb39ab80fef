#if canImport(Glibc)
import Glibc
#endif
import CSDBus

/// A connection to the session bus through sd-bus (libsystemd), for the providers that learn
/// the focus over D-Bus (KWin, GNOME Shell). It is used without ever blocking: every call is
/// asynchronous (its reply comes to a handler), and `process()` handles what the descriptor
/// brought — the caller waits on `fileDescriptor` with the input devices. Only `probe` blocks
/// (at start, when choosing the provider, at most its timeout).
///
/// sd-bus calls back into C function pointers; each handler is a Swift closure boxed and kept
/// here until the connection closes (a handler's message is valid only while it runs).
final class SessionBus {
    let bus: OpaquePointer
    private var handlers: [HandlerBox] = []

    /// Connects (`address`: a D-Bus address; nil: the user's session bus, as
    /// `DBUS_SESSION_BUS_ADDRESS` or `$XDG_RUNTIME_DIR/bus` say). The connection's authentication
    /// and `Hello` go on in the background (`isReady`).
    init(address: String? = nil) throws {
        var made: OpaquePointer?
        var status: Int32
        if let address {
            status = sd_bus_new(&made)
            if status >= 0, let made {
                status = sd_bus_set_address(made, address)
                if status >= 0 { status = sd_bus_set_bus_client(made, 1) }
                if status >= 0 { status = sd_bus_start(made) }
                if status < 0 { sd_bus_unref(made) }
            }
        } else {
            status = sd_bus_open_user(&made)
        }
        guard status >= 0, let made else {
            throw FocusError("cannot connect to the session bus: \(Self.errorText(status))")
        }
        bus = made
    }

    deinit {
        // Writes what is queued (a last small message: the local socket takes it at once), then closes.
        sd_bus_flush_close_unref(bus)
    }

    var fileDescriptor: Int32 { sd_bus_get_fd(bus) }

    /// Whether sd-bus has something to write and waits for the socket to take it.
    var wantsToWrite: Bool {
        let events = sd_bus_get_events(bus)
        return events > 0 && Int16(events) & Int16(POLLOUT) != 0
    }

    /// Whether the connection is up (authenticated, `Hello` answered): `uniqueName` is known.
    var isReady: Bool { sd_bus_is_ready(bus) > 0 }

    /// This connection's name on the bus (`:1.42`), once `isReady`.
    var uniqueName: String? {
        guard isReady else { return nil }
        var name: UnsafePointer<CChar>?
        guard sd_bus_get_unique_name(bus, &name) >= 0, let name else { return nil }
        return String(cString: name)
    }

    /// Handles everything that arrived (replies, calls, signals: their handlers run now), never
    /// waiting. Throws when the connection is lost.
    func process() throws {
        while true {
            let status = sd_bus_process(bus, nil)
            if status < 0 { throw FocusError("session bus: \(Self.errorText(status))") }
            if status == 0 { return }
        }
    }

    /// Calls a method with string arguments; `reply` gets the reply or the error.
    func call(_ destination: String, _ path: String, _ interface: String, _ member: String,
              _ arguments: [String] = [], reply: @escaping (BusMessage) -> Void) throws {
        let message = try methodCall(destination, path, interface, member, arguments)
        defer { sd_bus_message_unref(message) }
        let box = HandlerBox { message in reply(BusMessage(message)); return 1 }
        let status = sd_bus_call_async(bus, nil, message, busTrampoline, Unmanaged.passUnretained(box).toOpaque(), 0)
        guard status >= 0 else { throw FocusError("session bus: cannot call \(member): \(Self.errorText(status))") }
        handlers.append(box)
    }

    /// Sends a method call without waiting for its reply (the bus may be closing).
    func send(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [String] = []) {
        guard let message = try? methodCall(destination, path, interface, member, arguments) else { return }
        sd_bus_message_set_expect_reply(message, 0)
        sd_bus_send(bus, message, nil)
        sd_bus_message_unref(message)
    }

    /// Serves the object at `path`: every method call to it goes to `handler`, which returns
    /// whether it handled the call (it is then answered with an empty reply).
    func serve(path: String, handler: @escaping (BusMessage) -> Bool) throws {
        try serve(path: path) { message in handler(message) ? [] : nil }
    }

    /// Serves the object at `path`: `handler` returns the reply's values, nil for a call it
    /// does not handle.
    func serve(path: String, replying handler: @escaping (BusMessage) -> [BusValue]?) throws {
        let box = HandlerBox { [unowned self] message in
            guard let values = handler(BusMessage(message)) else { return 0 }
            var reply: OpaquePointer?
            if sd_bus_message_new_method_return(message, &reply) >= 0, let reply {
                for value in values { value.append(to: reply) }
                sd_bus_send(self.bus, reply, nil)
                sd_bus_message_unref(reply)
            }
            return 1
        }
        let status = sd_bus_add_object(bus, nil, path, busTrampoline, Unmanaged.passUnretained(box).toOpaque())
        guard status >= 0 else { throw FocusError("session bus: cannot serve \(path): \(Self.errorText(status))") }
        handlers.append(box)
    }

    /// Receives the signals a match rule selects (`type='signal',…`); the rule is installed
    /// asynchronously.
    func subscribe(_ rule: String, handler: @escaping (BusMessage) -> Void) throws {
        let box = HandlerBox { message in handler(BusMessage(message)); return 0 }
        let status = sd_bus_add_match_async(bus, nil, rule, busTrampoline, nil, Unmanaged.passUnretained(box).toOpaque())
        guard status >= 0 else { throw FocusError("session bus: cannot add the match \(rule): \(Self.errorText(status))") }
        handlers.append(box)
    }

    /// The match rule for a name's owner changes (`arg0` = the name).
    static func ownerChangeRule(of name: String) -> String {
        "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(name)'"
    }

    /// Whether `name` has an owner on the user's session bus, asked once and waiting at most
    /// `timeout` seconds (false when there is no bus): the provider choice at start.
    static func probe(name: String, timeout: Double = 0.5) -> Bool {
        guard let connection = try? SessionBus() else { return false }
        guard let message = try? connection.methodCall("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                        "NameHasOwner", [name]) else { return false }
        defer { sd_bus_message_unref(message) }
        var error = sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        guard sd_bus_call(connection.bus, message, UInt64(timeout * 1_000_000), &error, &reply) >= 0, let reply else { return false }
        defer { sd_bus_message_unref(reply) }
        var owned: Int32 = 0
        return sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "b")), &owned) > 0 && owned != 0
    }

    private func methodCall(_ destination: String, _ path: String, _ interface: String, _ member: String,
                            _ arguments: [String]) throws -> OpaquePointer {
        var made: OpaquePointer?
        var status = sd_bus_message_new_method_call(bus, &made, destination, path, interface, member)
        guard status >= 0, let message = made else {
            throw FocusError("session bus: cannot make the call \(member): \(Self.errorText(status))")
        }
        for argument in arguments {
            status = argument.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
            if status < 0 {
                sd_bus_message_unref(message)
                throw FocusError("session bus: cannot pass \(member) its arguments: \(Self.errorText(status))")
            }
        }
        return message
    }

    static func errorText(_ status: Int32) -> String {
        String(cString: strerror(-status))
    }
}

/// A value of a reply `serve` sends.
enum BusValue {
    case string(String)
    case int32(Int32)
    case bool(Bool)

    func append(to message: OpaquePointer) {
        switch self {
        case .string(let text):
            _ = text.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
        case .int32(var value):
            _ = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "i")), &value)
        case .bool(let flag):
            var value: Int32 = flag ? 1 : 0
            _ = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "b")), &value)
        }
    }
}

/// A message seen in a handler (valid only while the handler runs).
struct BusMessage {
    let message: OpaquePointer

    init(_ message: OpaquePointer) {
        self.message = message
    }

    /// The sender's unique name (`:1.7`).
    var sender: String? { sd_bus_message_get_sender(message).map { String(cString: $0) } }
    var member: String? { sd_bus_message_get_member(message).map { String(cString: $0) } }
    var interface: String? { sd_bus_message_get_interface(message).map { String(cString: $0) } }

    /// The error a reply carries (its D-Bus name and text), nil for a method return.
    var error: (name: String, text: String)? {
        guard sd_bus_message_is_method_error(message, nil) > 0, let error = sd_bus_message_get_error(message) else { return nil }
        return (error.pointee.name.map { String(cString: $0) } ?? "an error",
                error.pointee.message.map { String(cString: $0) } ?? "")
    }

    /// The arguments as text, in order: strings as they are, numbers and booleans written out
    /// (a peer's scripting language may send a number where a string was meant); any other
    /// type is skipped as "".
    func arguments() -> [String] {
        var out: [String] = []
        while true {
            var type: CChar = 0
            var contents: UnsafePointer<CChar>?
            guard sd_bus_message_peek_type(message, &type, &contents) > 0 else { break }
            switch UInt8(bitPattern: type) {
            case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
                var text: UnsafePointer<CChar>?
                guard sd_bus_message_read_basic(message, type, &text) > 0 else { return out }
                out.append(text.map { String(cString: $0) } ?? "")
            case UInt8(ascii: "i"), UInt8(ascii: "b"):
                var value: Int32 = 0
                guard sd_bus_message_read_basic(message, type, &value) > 0 else { return out }
                out.append(String(value))
            case UInt8(ascii: "u"):
                var value: UInt32 = 0
                guard sd_bus_message_read_basic(message, type, &value) > 0 else { return out }
                out.append(String(value))
            case UInt8(ascii: "x"), UInt8(ascii: "t"):
                var value: Int64 = 0
                guard sd_bus_message_read_basic(message, type, &value) > 0 else { return out }
                out.append(String(value))
            case UInt8(ascii: "d"):
                var value: Double = 0
                guard sd_bus_message_read_basic(message, type, &value) > 0 else { return out }
                out.append(value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value))
            default:
                guard sd_bus_message_skip(message, nil) >= 0 else { return out }
                out.append("")
            }
        }
        return out
    }
}

/// A handler sd-bus calls through `busTrampoline`.
private final class HandlerBox {
    let handle: (OpaquePointer) -> Int32

    init(_ handle: @escaping (OpaquePointer) -> Int32) {
        self.handle = handle
    }
}

private let busTrampoline: sd_bus_message_handler_t = { message, userdata, _ in
    guard let message, let userdata else { return 0 }
    return Unmanaged<HandlerBox>.fromOpaque(userdata).takeUnretainedValue().handle(message)
}
