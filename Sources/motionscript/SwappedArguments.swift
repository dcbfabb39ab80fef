import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `run events.jsonl --events drag.lua`: the two files swapped. Lua would report a syntax error
/// at the event file's first `{`, and the event reader a malformed line in the script; the
/// usage error says what happened instead.
enum SwappedArguments {
    /// The message when `script` looks like an event file or `events` like a script, or nil.
    static func problem(script: String, events: String?) -> String? {
        if let events, events.lowercased().hasSuffix(".lua") {
            return "--events \(events) is a Lua script: the script comes first and the event file after --events (motionscript run SCRIPT.lua --events FILE)"
        }
        if let kind = eventFileKind(script) {
            return "\(script) looks like an event file (\(kind)), not a Lua script: the script comes first (motionscript run SCRIPT.lua --events \(script))"
        }
        return nil
    }

    /// The kind of event file `path` looks like, from its name or (regular files only: a FIFO
    /// must not be read here) its first bytes; nil for anything that may be Lua.
    static func eventFileKind(_ path: String) -> String? {
        let lower = path.lowercased()
        if lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") { return "JSON Lines" }
        if lower.hasSuffix(".evemu") { return "an evemu recording" }
        if lower.hasSuffix(".yml") || lower.hasSuffix(".yaml") { return "a libinput recording" }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
              let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = Array((try? handle.read(upToCount: 512)) ?? Data())
        if head.contains(0) { return "binary data, e.g. raw evdev" }
        var text = String(decoding: head, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let start = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        if start.hasPrefix("{") { return "JSON Lines" }
        if start.hasPrefix("# EVEMU") { return "an evemu recording" }
        if start.hasPrefix("# libinput record") { return "a libinput recording" }
        return nil
    }
}
