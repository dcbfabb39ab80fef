/// A problem with input, located in its file: `file:line: message` or `file: byte N: message`.
public struct InputError: Error, Equatable, CustomStringConvertible {
    public enum Place: Equatable, Sendable {
        case line(Int)
        case byteOffset(Int)
        case none
    }

    public let file: String
    public let place: Place
    public let message: String

    public init(file: String, place: Place = .none, _ message: String) {
        self.file = file
        self.place = place
        self.message = message
    }

    public init(file: String, line: Int, _ message: String) {
        self.init(file: file, place: .line(line), message)
    }

    public var description: String {
        switch place {
        case .line(let line): return "\(file):\(line): \(message)"
        case .byteOffset(let offset): return "\(file): byte \(offset): \(message)"
        case .none: return "\(file): \(message)"
        }
    }
}
