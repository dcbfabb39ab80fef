/// A plugin's source with comments blanked out (strings kept, line breaks kept), so the literal
/// calls `check` looks for are found on their own lines and not inside a comment.
struct LuaSourceText {
    let lines: [String]

    init(_ text: String) {
        var out: [Character] = []
        let chars = Array(text)
        var i = 0
        var quote: Character?
        while i < chars.count {
            let c = chars[i]
            if let q = quote {
                out.append(c)
                if c == "\\", i + 1 < chars.count { out.append(chars[i + 1]); i += 2; continue }
                if c == q || c == "\n" { quote = nil }
                i += 1
                continue
            }
            if c == "\"" || c == "'" {
                quote = c
                out.append(c)
                i += 1
                continue
            }
            if c == "-", i + 1 < chars.count, chars[i + 1] == "-" {
                // A long comment --[[ … ]] (or --[==[ … ]==]) keeps its line breaks; a short one ends at the line.
                var j = i + 2
                if j < chars.count, chars[j] == "[" {
                    var k = j + 1
                    var level = 0
                    while k < chars.count, chars[k] == "=" { level += 1; k += 1 }
                    if k < chars.count, chars[k] == "[" {
                        let close = Array("]" + String(repeating: "=", count: level) + "]")
                        j = k + 1
                        while j < chars.count, !(chars[j] == "]" && Array(chars[j..<min(chars.count, j + close.count)]) == close) {
                            if chars[j] == "\n" { out.append("\n") }
                            j += 1
                        }
                        i = min(chars.count, j + close.count)
                        continue
                    }
                }
                while j < chars.count, chars[j] != "\n" { j += 1 }
                i = j
                continue
            }
            out.append(c)
            i += 1
        }
        lines = String(out).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Every match of `pattern` with its 1-based line number.
    func matches(_ pattern: Regex<AnyRegexOutput>) -> [(line: Int, match: Regex<AnyRegexOutput>.Match)] {
        var found: [(Int, Regex<AnyRegexOutput>.Match)] = []
        for (index, line) in lines.enumerated() {
            for match in line.matches(of: pattern) { found.append((index + 1, match)) }
        }
        return found
    }

    /// The text from `line` on (joined), for a table constructor that spans lines.
    func text(from line: Int, maxLines: Int = 40) -> String {
        lines[(line - 1)..<min(lines.count, line - 1 + maxLines)].joined(separator: "\n")
    }
}
