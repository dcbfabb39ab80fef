/// A key chord as `motion.keys` takes it: key names joined by `+` (`ctrl+alt+Right`), pressed
/// in the order written and released in reverse. `text` is the chord as written (output lines
/// show it so); `codes` the keys.
public struct Chord: Equatable, Sendable {
    public let text: String
    public let codes: [UInt16]

    /// Throws an `ActionError` for an unknown key name (with close names) or a chord that cannot
    /// be typed: an empty name (`ctrl++`: the key `+` is `plus` or `equal`) or a key named twice.
    public init(_ text: String) throws {
        let names = text.split(separator: "+", omittingEmptySubsequences: false)
            .map { $0.trimmingSpaces }
        guard !names.contains(where: { $0.isEmpty }) else {
            throw ActionError("the chord '\(text)' cannot be typed: it has an empty key name (keys are joined by '+'; the '+' key itself is 'plus' (keypad) or 'shift+equal')")
        }
        var codes: [UInt16] = []
        for name in names {
            let code = try KeyName.code(name)
            guard !codes.contains(code) else {
                throw ActionError("the chord '\(text)' cannot be typed: it presses \(KeyName.headerName(of: code)) twice ('\(name)')")
            }
            codes.append(code)
        }
        self.text = text
        self.codes = codes
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
