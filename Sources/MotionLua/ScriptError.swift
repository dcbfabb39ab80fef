/// An error raised by a script, while loading, during setup, or in a callback. The message
/// names the script and line (`drag.lua:12: ...`); the traceback follows when known.
public struct ScriptError: Error, CustomStringConvertible, Equatable {
    public enum Kind: Equatable, Sendable {
        case syntax, runtime, timeout, memory
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// An error a binding reports to Lua; the dispatcher prefixes the caller's `file:line:`.
struct LuaBindingError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
