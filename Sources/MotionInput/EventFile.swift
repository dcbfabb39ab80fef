/// The event file formats `openEventFile` understands.
public enum EventFileFormat: String, Sendable, CaseIterable {
    case jsonLines = "jsonl"
    case evemu
    case libinput
    case raw

    /// Decides the format from the first bytes of the file, falling back on the extension only when
    /// the content says nothing (an empty file). Content wins so that a renamed file still reads.
    ///
    /// Raw evdev bytes are recognized by their structure (every whole record in `head` has a
    /// `tv_usec` below 10^6, which puts five zero bytes where text has none, and a known type), so a
    /// stray NUL in a text file does not make it raw; text is recognized after an optional UTF-8
    /// byte order mark. Bytes that are neither but hold NULs go to the raw reader, which reports
    /// where they stop looking like input_events.
    public static func detect(head: [UInt8], path: String) -> EventFileFormat? {
        let ext = path.split(separator: "/").last.flatMap { name in name.contains(".") ? name.split(separator: ".").last.map { String($0).lowercased() } : nil }
        if head.isEmpty { return byExtension(ext) }
        if looksRaw(head) { return .raw }
        var body = head[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        let text = String(decoding: body, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map { $0.trimmingPrefixSpaces() }
        if lines.first?.hasPrefix("# EVEMU") == true { return .evemu }
        if lines.first?.hasPrefix("# libinput record") == true { return .libinput }
        lines = lines.filter { !$0.isEmpty }
        for line in lines {
            if line.hasPrefix("#") { continue }
            if line.hasPrefix("{") { return .jsonLines }
            if line.count >= 2, let c = line.first, "NIPBAE".contains(c), line.dropFirst().first == ":" { return .evemu }
            if head.contains(0) { return .raw }
            if line.hasPrefix("---") || line.contains(":") { return .libinput }
            break
        }
        if head.contains(0) { return .raw }
        return byExtension(ext)
    }

    /// True when every whole 24-byte record in `head` (at least one) could be the kernel's.
    static func looksRaw(_ head: [UInt8]) -> Bool {
        let size = InputEventRecord.rawSize
        guard head.count >= size else { return false }
        return head.withUnsafeBytes { bytes in
            stride(from: 0, through: head.count - size, by: size).allSatisfy { offset in
                let e = InputEventRecord.decodeRaw(bytes, at: offset)
                return e.usec >= 0 && e.usec < 1_000_000 && EV.isKnownType(e.type)
            }
        }
    }

    /// True when `head` holds enough to decide: a whole first line that is not a comment or blank,
    /// a recognized header line, or a raw record.
    static func isConclusive(_ head: [UInt8]) -> Bool {
        if head.count >= InputEventRecord.rawSize, head.contains(0) { return true }
        var lineStart = 0
        for (i, byte) in head.enumerated() where byte == 10 {
            let line = head[lineStart..<i].drop { $0 == 32 || $0 == 9 || $0 == 13 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
            lineStart = i + 1
            if line.isEmpty { continue }
            if line.first == 35, !line.starts(with: Array("# EVEMU".utf8)), !line.starts(with: Array("# libinput record".utf8)) { continue }
            return true
        }
        return false
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
    // Opened once: detection peeks at a prefix that the reader then reads first, so pipes and
    // FIFOs work (a pipe cannot be reopened at its start).
    let input = try InputBytes(path: path)
    let chosen: EventFileFormat
    if let format {
        chosen = format
    } else {
        let head = try input.peek(upTo: 4096, enough: EventFileFormat.isConclusive)
        guard let detected = EventFileFormat.detect(head: head, path: path) else {
            throw InputError(file: path, "unrecognized event file: expected JSON Lines, an evemu or libinput recording, or raw evdev bytes")
        }
        chosen = detected
    }
    return try openEventFile(input, options: options, format: chosen)
}

/// Reads `input` as `format` (tests and fuzzing hand over bytes directly).
func openEventFile(_ input: InputBytes, options: EventFileOptions, format: EventFileFormat) throws -> FrameSource {
    switch format {
    case .jsonLines: return JSONLinesReader(input: input)
    case .evemu: return try EvemuReader(input: input, options: options)
    case .libinput: return try LibinputRecordingReader(input: input, options: options)
    case .raw: return try RawEvdevReader(input: input, options: options)
    }
}
