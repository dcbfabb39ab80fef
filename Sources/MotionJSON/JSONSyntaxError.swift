/// Why a text is not JSON, and where: `byte N: what is wrong`, N counted from 0 in the text
/// given (a line: its first byte is byte 0). Callers add their own place (`file:line: `).
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    public let offset: Int
    public let reason: String

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "byte \(offset): \(reason)" }
}
