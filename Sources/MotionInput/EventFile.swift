#if canImport(Glibc)
import Glibc
#endif

/// The event file formats `openEventFile` understands.
public enum EventFileFormat: String, Sendable, CaseIterable {
    case jsonLines = "jsonl"
    case evemu
    case libinput
    case raw

    /// Decides the format from the first bytes of the file, falling back on the extension only when
    /// the content says nothing (an empty file). Content wins so that a renamed file still reads.
    public static func detect(head: [UInt8], path: String) -> EventFileFormat? {
        let ext = path.split(separator: "/").last.flatMap { name in name.contains(".") ? name.split(separator: ".").last.map { String($0).lowercased() } : nil }
        if head.isEmpty { return byExtension(ext) }
        // Text formats are ASCII/UTF-8 without NULs; input_event records are full of zero bytes.
        if head.contains(0) { return .raw }
        let text = String(decoding: head, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map { $0.trimmingPrefixSpaces() }
        if lines.first?.hasPrefix("# EVEMU") == true { return .evemu }
        if lines.first?.hasPrefix("# libinput record") == true { return .libinput }
        lines = lines.filter { !$0.isEmpty }
        for line in lines {
            if line.hasPrefix("#") { continue }
            if line.hasPrefix("{") { return .jsonLines }
            if line.count >= 2, let c = line.first, "NIPBAE".contains(c), line.dropFirst().first == ":" { return .evemu }
            if line.hasPrefix("---") || line.contains(":") { return .libinput }
            break
        }
        return byExtension(ext)
    }

    private static func byExtension(_ ext: String?) -> EventFileFormat? {
        switch ext {
        case "jsonl", "json", "ndjson": return .jsonLines
        case "evemu", "events": return .evemu
        case "yml", "yaml": return .libinput
        case "raw", "bin", "evdev": return .raw
        default: return nil
        }
    }
}

extension Substring {
    fileprivate func trimmingPrefixSpaces() -> Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" || c == "\r" { s = s.dropFirst() }
        return s
    }
}

/// Opens an event file in any supported format, detected by content: JSON Lines, evemu recordings,
/// libinput recordings, or raw evdev bytes. Every reader streams in constant memory, and every one
/// cancels the pointers still down at the end of input.
///
/// `options.surface` maps evdev axis ranges onto a surface (JSON Lines is already in surface units and
/// ignores it). The returned source is an `EvdevFileSource` for the evdev formats (device description,
/// unknown-event count).
public func openEventFile(path: String, options: EventFileOptions = EventFileOptions(), format: EventFileFormat? = nil) throws -> FrameSource {
    let chosen: EventFileFormat
    if let format {
        chosen = format
    } else {
        var st = stat()
        if stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            throw InputError(file: path, "is a directory, not an event file")
        }
        guard let file = fopen(path, "rb") else {
            throw InputError(file: path, "cannot open: \(String(cString: strerror(errno)))")
        }
        var head = [UInt8](repeating: 0, count: 4096)
        let n = head.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        fclose(file)
        head.removeSubrange(n...)
        guard let detected = EventFileFormat.detect(head: head, path: path) else {
            throw InputError(file: path, "unrecognized event file: expected JSON Lines, an evemu or libinput recording, or raw evdev bytes")
        }
        chosen = detected
    }
    switch chosen {
    case .jsonLines: return try JSONLinesReader(path: path)
    case .evemu: return try EvemuReader(path: path, options: options)
    case .libinput: return try LibinputRecordingReader(path: path, options: options)
    case .raw: return try RawEvdevReader(path: path, options: options)
    }
}
