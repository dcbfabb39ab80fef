/// Mouse buttons by name (`left`, `right`, `middle`, `side`, `extra`, `forward`, `back`), as
/// `BTN_*` codes of `linux/input-event-codes.h`.
public enum MouseButton {
    static let codes: [(name: String, code: UInt16)] = [
        ("left", 0x110), ("right", 0x111), ("middle", 0x112), ("side", 0x113),
        ("extra", 0x114), ("forward", 0x115), ("back", 0x116),
    ]

    /// Throws an `ActionError` naming the buttons there are.
    public static func code(_ name: String) throws -> UInt16 {
        let lower = name.lowercased()
        if let entry = codes.first(where: { $0.name == lower || "btn_" + $0.name == lower }) { return entry.code }
        throw ActionError("unknown mouse button '\(name)' (buttons: \(codes.map { $0.name }.joined(separator: ", ")))")
    }

    public static func name(of code: UInt16) -> String {
        codes.first { $0.code == code }?.name ?? "button \(code)"
    }
}

/// What `motion.mouse.button` does with a button.
public enum ButtonPress: String, Sendable, CaseIterable {
    case down, up, click
}
