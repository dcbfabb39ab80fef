import MotionActions
import MotionGestures
#if canImport(Glibc)
import Glibc
#endif

/// What can be read from a plugin's text before it runs: literal key and button names, programs
/// for `exec`, durations written in milliseconds, and the gestures it binds (for conflicts).
enum StaticChecks {
    /// `motion.keys("…")`, `motion.keyDown "…"`, `keys("…")` after a local alias.
    static var keyCall: Regex<AnyRegexOutput> { try! Regex(#"(?:^|[^A-Za-z0-9_])(keys|keyDown|keyUp)\s*\(?\s*(["'])([^"'\n]*)\2"#) }
    static var buttonCall: Regex<AnyRegexOutput> { try! Regex(#"(?:^|[^A-Za-z0-9_])mouse\s*\.\s*button\s*\(\s*(["'])([^"'\n]*)\1"#) }
    static var execString: Regex<AnyRegexOutput> { try! Regex(#"(?:^|[^A-Za-z0-9_])exec\s*\(?\s*(["'])([^"'\n]*)\1"#) }
    static var execTable: Regex<AnyRegexOutput> { try! Regex(#"(?:^|[^A-Za-z0-9_])exec\s*\(?\s*\{\s*(["'])([^"'\n]*)\1"#) }
    /// `duration = 300`, `maxDuration=250`, `:delay(500)`, `:throttle(100)`, `:debounce(200)`.
    static var durationField: Regex<AnyRegexOutput> { try! Regex(#"(?:^|[^A-Za-z0-9_])(duration|maxDuration|minDuration|holdDuration)\s*=\s*([0-9]+(?:\.[0-9]*)?)"#) }
    static var durationCall: Regex<AnyRegexOutput> { try! Regex(#":\s*(delay|throttle|debounce)\s*\(\s*([0-9]+(?:\.[0-9]*)?)\s*\)"#) }
    static var recognizer: Regex<AnyRegexOutput> { try! Regex(#"(?:^|[^A-Za-z0-9_])motion\s*\.\s*(swipe|hold|tap|pinch|scale|rotation|translation|pan)\s*\(?\s*\{"#) }

    /// A duration at least this many seconds is most likely meant as milliseconds.
    static let millisecondsLike = 10.0

    static func findings(file: String, source: LuaSourceText, path: String = PATHLookup.environmentPath) -> [CheckFinding] {
        var found: [CheckFinding] = []
        for (line, match) in source.matches(keyCall) {
            let function = String(match.output[1].substring ?? "")
            let text = String(match.output[3].substring ?? "")
            do {
                if function == "keys" { _ = try Chord(text) } else { _ = try KeyName.code(text) }
            } catch let error as ActionError {
                found.append(CheckFinding(file: file, line: line, .error, "motion.\(function)(\"\(text)\"): \(error.message)"))
            } catch {}
        }
        for (line, match) in source.matches(buttonCall) {
            let text = String(match.output[2].substring ?? "")
            do { _ = try MouseButton.code(text) } catch let error as ActionError {
                found.append(CheckFinding(file: file, line: line, .error, "motion.mouse.button(\"\(text)\"): \(error.message)"))
            } catch {}
        }
        for (pattern, isTable) in [(execString, false), (execTable, true)] {
            for (line, match) in source.matches(pattern) {
                let command = String(match.output[2].substring ?? "")
                // A string command runs through the shell: its first word is the program.
                let program = isTable ? command : String(command.split(separator: " ").first ?? "")
                guard !program.isEmpty, !program.contains("$"), !PATHLookup.isShellBuiltin(program) else { continue }
                if !PATHLookup.finds(program, in: path) {
                    let where_ = program.contains("/") ? "is not an executable file" : "is not found in PATH"
                    found.append(CheckFinding(file: file, line: line, .warning, "motion.exec: '\(program)' \(where_) (it would fail when the gesture fires)"))
                }
            }
        }
        for pattern in [durationField, durationCall] {
            for (line, match) in source.matches(pattern) {
                let name = String(match.output[1].substring ?? "")
                let text = String(match.output[2].substring ?? "")
                guard let value = Double(text), value >= millisecondsLike else { continue }
                found.append(CheckFinding(file: file, line: line, .warning,
                    "\(name) \(text) is \(text) seconds: durations are in seconds (for \(text) ms write \(Self.seconds(fromMilliseconds: value)))"))
            }
        }
        return found
    }

    static func seconds(fromMilliseconds ms: Double) -> String {
        let s = ms / 1000
        return s == s.rounded() ? String(Int(s)) : String(s)
    }

    /// The gestures a plugin binds, by what a person would call the same gesture: kind, fingers,
    /// direction, taps.
    static func bindings(source: LuaSourceText) -> [(line: Int, key: String, apps: AppFilter?)] {
        var found: [(Int, String, AppFilter?)] = []
        for (line, match) in source.matches(recognizer) {
            var kind = String(match.output[1].substring ?? "")
            if kind == "pan" { kind = "translation" }
            if kind == "pinch" { kind = "scale" }
            let text = source.text(from: line)
            let body = Self.tableBody(text, from: match.range.upperBound, in: source.lines[line - 1])
            var parts = [kind]
            for field in ["fingers", "direction", "taps", "edge", "from"] {
                if let value = Self.field(field, in: body) { parts.append("\(field)=\(value)") }
            }
            found.append((line, parts.joined(separator: " "), Self.apps(in: Self.tableBody(text, from: match.range.upperBound, in: source.lines[line - 1], nested: true))))
        }
        return found
    }

    /// The top level of the table constructor opened just before `start` (nested tables dropped).
    /// (`nested`: with the nested tables' text.)
    static func tableBody(_ text: String, from start: String.Index, in firstLine: String, nested: Bool = false) -> String {
        let offset = firstLine.distance(from: firstLine.startIndex, to: start)
        var depth = 1
        var body = ""
        for c in text.dropFirst(offset) {
            if c == "{" { depth += 1 } else if c == "}" { depth -= 1; if depth == 0 { break } }
            if depth == 1 || nested { body.append(c) }
        }
        return body
    }

    static var appsField: Regex<AnyRegexOutput> { try! Regex(#"(?:^|[^A-Za-z0-9_])apps\s*=\s*(\{[^{}]*\}|"[^"\n]*"|'[^'\n]*')"#) }
    static var quoted: Regex<AnyRegexOutput> { try! Regex(#""([^"\n]*)"|'([^'\n]*)'"#) }

    /// The `apps =` of a recognizer's options when written as literal names (nil: none, or
    /// not literal, which counts as every application).
    static func apps(in body: String) -> AppFilter? {
        guard let match = body.firstMatch(of: appsField), let value = match.output[1].substring else { return nil }
        let names = value.matches(of: quoted).map { String($0.output[1].substring ?? $0.output[2].substring ?? "") }
        return names.isEmpty ? nil : AppFilter(names)
    }

    static func field(_ name: String, in body: String) -> String? {
        guard let regex = try? Regex("(?:^|[^A-Za-z0-9_])\(name)\\s*=\\s*(\"[^\"]*\"|'[^']*'|[0-9]+)"),
              let match = body.firstMatch(of: regex), let value = match.output[1].substring else { return nil }
        return value.trimmingCharacters(in: "\"'")
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        let drop = Set(set)
        var s = Substring(self)
        while let f = s.first, drop.contains(f) { s = s.dropFirst() }
        while let l = s.last, drop.contains(l) { s = s.dropLast() }
        return String(s)
    }
}

/// Whether a program `exec` names would start.
enum PATHLookup {
    static var environmentPath: String { getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin" }

    static func finds(_ program: String, in path: String) -> Bool {
        if program.contains("/") { return access(program, X_OK) == 0 }
        return path.split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
    }

    /// Words `sh -c` understands itself.
    static func isShellBuiltin(_ word: String) -> Bool {
        ["cd", "echo", "exec", "export", "test", "[", "true", "false", "printf", "kill", "read", ":", "."].contains(word)
            || word.contains("=")
    }
}
