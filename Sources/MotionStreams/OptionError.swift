/// An out-of-range option of a recognizer or a source, named so that the caller (the Lua layer)
/// can report it: `threshold must be >= 0 and finite (got -1.0)`.
public struct OptionError: Error, Equatable, CustomStringConvertible {
    /// The option's name as scripts spell it (`threshold`, `taps`, `stiffness` …).
    public let option: String
    /// The rejected value, as text.
    public let value: String
    /// What the option must be.
    public let requirement: String

    /// An error naming `option`, the rejected `value` and what it must be.
    public init(option: String, value: String, requirement: String) {
        self.option = option
        self.value = value
        self.requirement = requirement
    }

    /// `option must be requirement (got value)`.
    public var description: String { "\(option) must be \(requirement) (got \(value))" }

    /// Throws unless `isValid`.
    package static func check<V>(_ isValid: Bool, _ option: String, _ value: V, _ requirement: String) throws {
        if !isValid { throw OptionError(option: option, value: "\(value)", requirement: requirement) }
    }
}
