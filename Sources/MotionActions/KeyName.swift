/// Key names as scripts write them: the `KEY_*` names of `linux/input-event-codes.h`, with or
/// without the prefix and in any case (`KEY_LEFTCTRL`, `leftctrl`, `Right`, `a`, `1`, `F5`), and
/// friendly aliases for the keys gesture configurations use most (`ctrl`, `alt`, `super`...).
public enum KeyName {
    /// Friendly names → header names (without `KEY_`). Modifiers mean the left-hand key.
    static let aliases: [String: String] = [
        "ctrl": "LEFTCTRL", "control": "LEFTCTRL", "lctrl": "LEFTCTRL", "rctrl": "RIGHTCTRL",
        "alt": "LEFTALT", "lalt": "LEFTALT", "ralt": "RIGHTALT", "altgr": "RIGHTALT",
        "shift": "LEFTSHIFT", "lshift": "LEFTSHIFT", "rshift": "RIGHTSHIFT",
        "super": "LEFTMETA", "meta": "LEFTMETA", "win": "LEFTMETA", "logo": "LEFTMETA", "cmd": "LEFTMETA",
        "rsuper": "RIGHTMETA",
        "escape": "ESC", "return": "ENTER", "del": "DELETE", "ins": "INSERT",
        "pgup": "PAGEUP", "pgdn": "PAGEDOWN", "pgdown": "PAGEDOWN",
        "plus": "KPPLUS", "print": "SYSRQ", "printscreen": "SYSRQ", "menu": "COMPOSE",
        "arrowleft": "LEFT", "arrowright": "RIGHT", "arrowup": "UP", "arrowdown": "DOWN",
    ]

    /// Lower-cased header names (without `KEY_`) → codes.
    static let codes: [String: UInt16] = {
        var codes: [String: UInt16] = [:]
        for (name, code) in KeyCodeTable.keys { codes[name.lowercased()] = code }
        return codes
    }()

    /// Every name a script may write, lower-cased (for suggestions).
    static let allNames: [String] = Array(codes.keys) + Array(aliases.keys)

    /// The key code for `name`; throws an `ActionError` that lists the close names.
    public static func code(_ name: String) throws -> UInt16 {
        if let code = lookup(name) { return code }
        let close = suggestions(for: name)
        let hint = close.isEmpty ? "" : "; did you mean \(close.joined(separator: ", "))?"
        throw ActionError("unknown key name '\(name)'\(hint) (key names are those of linux/input-event-codes.h with or without KEY_, e.g. LEFTCTRL, Right, a, 1, F5, or ctrl, alt, shift, super)")
    }

    static func lookup(_ name: String) -> UInt16? {
        var key = name.lowercased()
        if key.hasPrefix("key_") { key.removeFirst(4) }
        if let alias = aliases[key] { key = alias.lowercased() }
        return codes[key]
    }

    /// The header name (with `KEY_`) of a code, for messages.
    public static func headerName(of code: UInt16) -> String {
        KeyCodeTable.keys.first { $0.code == code }.map { "KEY_" + $0.name } ?? "key \(code)"
    }

    /// Up to five names within two edits of `name`, or that start with it, closest first.
    static func suggestions(for name: String) -> [String] {
        var key = name.lowercased()
        if key.hasPrefix("key_") { key.removeFirst(4) }
        return CloseNames.closest(to: key, among: allNames)
    }
}
