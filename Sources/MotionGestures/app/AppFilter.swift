/// `apps = "firefox"`, `{"firefox", "chromium"}`, `"!kitty"`: which focused applications a
/// recognizer begins gestures under. Names are compared case-insensitively with the app's id,
/// class and instance. A name with a leading `!` excludes; with only exclusions every other
/// application (and no focused window at all) is admitted; with any plain name, only those.
public struct AppFilter: Sendable, Equatable {
    /// Plain names, lowercased.
    public let included: [String]
    /// Names given with `!`, without it, lowercased.
    public let excluded: [String]

    /// Nil for an empty name (`""` or `"!"`).
    public init?(_ names: [String]) {
        var included: [String] = []
        var excluded: [String] = []
        for name in names {
            if name.hasPrefix("!") {
                let rest = name.dropFirst().lowercased()
                guard !rest.isEmpty else { return nil }
                excluded.append(rest)
            } else {
                guard !name.isEmpty else { return nil }
                included.append(name.lowercased())
            }
        }
        self.included = included
        self.excluded = excluded
    }

    /// Whether a gesture may begin while `app` has the focus (nil: no window has it).
    public func admits(_ app: AppInfo?) -> Bool {
        guard let app else { return included.isEmpty }
        if excluded.contains(where: app.isNamed) { return false }
        return included.isEmpty || included.contains(where: app.isNamed)
    }

    /// The filter as written (`firefox,!kitty`), for messages.
    public var text: String {
        (included + excluded.map { "!" + $0 }).joined(separator: ",")
    }
}
