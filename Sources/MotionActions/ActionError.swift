/// Why an action could not be done: an unknown key name, a chord that cannot be typed, a
/// virtual device that cannot be created. The message is complete and says what to do.
public struct ActionError: Error, Equatable, CustomStringConvertible, Sendable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
