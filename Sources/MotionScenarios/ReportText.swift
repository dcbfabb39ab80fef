/// Limits on what a report copies from a scenario: a failing line of 100 MB, or a million
/// lines of difference, must not be copied whole into stdout or the JUnit file.
public enum ReportText {
    /// Bytes of one line shown; the rest is summarized with the line's length.
    public static let maxLineBytes = 200
    /// Lines of one message (a traceback, a diff) shown, and bytes of each (more than a diff
    /// line, which is capped at `maxLineBytes` and its marker).
    public static let maxMessageLines = 80
    public static let maxMessageLineBytes = 1000
    /// Bytes of a scenario's captured output kept for the JUnit file.
    public static let maxCapturedBytes = 64 * 1024

    /// `line`, or its first `limit` bytes (on a character boundary) and its length.
    public static func capLine(_ line: String, limit: Int = maxLineBytes) -> String {
        let count = line.utf8.count
        guard count > limit else { return line }
        return prefix(line, bytes: limit) + "… (\(count) bytes in all)"
    }

    /// Each line capped, and at most `maxMessageLines` lines.
    public static func capMessage(_ message: String) -> String {
        var lines: [String] = []
        var total = 0
        for line in message.split(separator: "\n", omittingEmptySubsequences: false) {
            total += 1
            if lines.count < maxMessageLines { lines.append(capLine(String(line), limit: maxMessageLineBytes)) }
        }
        if total > maxMessageLines { lines.append("… \(total - maxMessageLines) more lines") }
        return lines.joined(separator: "\n")
    }

    /// `text` with every control character shown as `\xNN` (C1 controls as `\u00NN`), so that a
    /// scenario's name or message cannot drive the terminal (ESC, BEL), return the cursor (CR) or
    /// start a line of its own (LF: a forged `ok` line). Tabs stay when `keepingTabs` (the
    /// tracebacks' indentation). The same notation as `FolderWalk.display` for bytes that are
    /// not UTF-8.
    public static func visible(_ text: String, keepingTabs: Bool = false) -> String {
        func isControl(_ v: UInt32) -> Bool { v < 0x20 || (v >= 0x7F && v < 0xA0) || v == 0x2028 || v == 0x2029 }
        guard text.unicodeScalars.contains(where: { isControl($0.value) && !(keepingTabs && $0 == "\t") }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if !isControl(v) || (keepingTabs && scalar == "\t") {
                out.unicodeScalars.append(scalar)
            } else {
                let hex = String(v, radix: 16, uppercase: true)
                out += v < 0x80 ? "\\x" + (hex.count == 1 ? "0" + hex : hex) : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out
    }

    /// The longest prefix of `text` of at most `bytes` bytes that ends on a character boundary.
    static func prefix(_ text: String, bytes: Int) -> String {
        var end = text.utf8.startIndex
        var used = 0
        for scalar in text.unicodeScalars {
            let size = scalar.utf8.count
            if used + size > bytes { break }
            used += size
            end = text.utf8.index(end, offsetBy: size)
        }
        return String(text[..<end])
    }
}

/// Text a scenario wrote, kept up to `ReportText.maxCapturedBytes`; the rest is counted.
struct CappedText {
    private(set) var bytes: [UInt8] = []
    private(set) var dropped = 0

    mutating func append(_ chunk: UnsafeRawBufferPointer) {
        let room = max(0, ReportText.maxCapturedBytes - bytes.count)
        bytes += chunk.prefix(room)
        dropped += max(0, chunk.count - room)
    }

    mutating func append(_ text: String) {
        Array(text.utf8).withUnsafeBytes { append($0) }
    }

    /// The text (invalid UTF-8 repaired), with a last line saying how much was left out.
    var text: String {
        let kept = String(decoding: bytes, as: UTF8.self)
        guard dropped > 0 else { return kept }
        return kept + (kept.hasSuffix("\n") || kept.isEmpty ? "" : "\n") + "… \(dropped) more bytes\n"
    }
}
