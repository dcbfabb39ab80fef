import MotionJSON

/// The control socket's protocol (docs/control.md): one JSON object per line each way. A request
/// is `{"id":ID,"command":NAME,…arguments}`; its answer `{"id":ID,"ok":true,…}` or
/// `{"id":ID,"ok":false,"error":TEXT}`. A subscription (`logs` with `follow`, `monitor`) answers
/// once, then streams lines carrying the same id until the client disconnects. No request
/// evaluates code: every command is a fixed verb with plain data arguments.
public enum ControlProtocol {
    /// Raised when a request changes meaning; adding a command or an answer field does not.
    public static let version = 1

    /// The longest request line read; a longer one is refused and the client dropped (a peer of
    /// the same user, but a bug there must not grow the daemon).
    public static let maxRequestBytes = 64 * 1024

    public static let commands = ["hello", "status", "reload", "enable", "disable", "pause", "resume", "stop",
                                  "logs", "monitor", "record", "scenario"]
}

/// One parsed request.
public struct ControlRequest {
    public let id: JSONValue
    public let command: String
    public let arguments: JSONValue

    public init(id: JSONValue, command: String, arguments: JSONValue = .object([:])) {
        self.id = id
        self.command = command
        self.arguments = arguments
    }

    /// The request a line holds, or the answer that refuses it.
    public static func parse(_ line: String) -> Result<ControlRequest, ControlAnswer> {
        let value: JSONValue
        do {
            value = try JSONValue.parse(line)
        } catch {
            return .failure(.refused(id: .null, "not JSON: \(error)"))
        }
        guard case .object(let fields) = value else { return .failure(.refused(id: .null, "a request is a JSON object")) }
        let id = fields["id"] ?? .null
        switch id {
        case .number, .string: break
        default: return .failure(.refused(id: id, "a request needs an \"id\" (a number or a string)"))
        }
        guard let command = fields["command"]?.stringValue else {
            return .failure(.refused(id: id, "a request needs a \"command\" (one of \(ControlProtocol.commands.joined(separator: ", ")))"))
        }
        return .success(ControlRequest(id: id, command: command, arguments: value))
    }

    public func string(_ key: String) -> String? { arguments[key]?.stringValue }
    public func number(_ key: String) -> Double? { arguments[key]?.numberValue }
    public func flag(_ key: String) -> Bool { arguments[key]?.boolValue ?? false }

    /// The request as one line (what `ctl` sends).
    public var line: String {
        var fields: [String: JSONValue] = [:]
        if case .object(let o) = arguments { fields = o }
        fields["id"] = id
        fields["command"] = .string(command)
        return JSONValue.object(fields).jsonText
    }
}

/// One answer line.
public struct ControlAnswer: Error {
    public var fields: [String: JSONValue]

    public static func ok(id: JSONValue, _ fields: [String: JSONValue] = [:]) -> ControlAnswer {
        var all = fields
        all["id"] = id
        all["ok"] = .bool(true)
        return ControlAnswer(fields: all)
    }

    public static func refused(id: JSONValue, _ error: String) -> ControlAnswer {
        ControlAnswer(fields: ["id": id, "ok": .bool(false), "error": .string(error)])
    }

    public var line: String { JSONValue.object(fields).jsonText }
}

/// What a command that fails tells the client (`{"ok":false,"error":message}`).
public struct ControlError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
