import MotionGestures

/// Hyprland's event socket (`.socket2.sock`): one `EVENT>>DATA` line per event. The focus is
/// `activewindow>>CLASS,TITLE` (the title may hold commas; an empty class: no window focused).
/// Lines are taken off a byte stream however reads split it.
struct HyprlandEvents {
    private var buffer: [UInt8] = []
    /// A line longer than this is a broken stream (titles are short).
    static let maxLine = 1 << 20

    mutating func append(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count > Self.maxLine, !buffer.contains(10) { throw FocusError("a Hyprland event line of over \(Self.maxLine) bytes") }
    }

    /// The focus changes in the whole lines received so far, in order.
    mutating func focusChanges() -> [AppInfo?] {
        var changes: [AppInfo?] = []
        while let end = buffer.firstIndex(of: 10) {
            let line = String(decoding: buffer[..<end], as: UTF8.self)
            buffer.removeFirst(end + 1)
            if let change = Self.focus(in: line) { changes.append(change) }
        }
        return changes
    }

    /// `activewindow>>class,title` → the app (or `.some(nil)`); nil for any other line.
    static func focus(in line: String) -> AppInfo?? {
        let prefix = "activewindow>>"
        guard line.hasPrefix(prefix) else { return nil }
        let data = line.dropFirst(prefix.count)
        let comma = data.firstIndex(of: ",") ?? data.endIndex
        let className = String(data[..<comma])
        let title = comma < data.endIndex ? String(data[data.index(after: comma)...]) : ""
        guard !className.isEmpty else { return .some(nil) }
        return .some(AppInfo(id: className, className: className, title: title))
    }
}
