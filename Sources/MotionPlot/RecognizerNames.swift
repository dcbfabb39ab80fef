import Foundation
import MotionLua

/// Names recognizers after the variable the script assigned them to, read from the source
/// line where each was made (or, for one made in a helper function, the caller's line that
/// assigned the helper's result): `local swipe3 = motion.swipe{…}` → `swipe3`,
/// `gestures.left = motion.swipe{…}` → `gestures.left`. Only a line that starts with such an
/// assignment names one; the picture falls back to `swipe 2` otherwise. Runs at plot time only.
struct RecognizerNames {
    private var files: [String: [Substring]] = [:]
    /// A file read for names is at most this big (a picture is no reason to read a huge file).
    static let fileLimit = 4 << 20

    mutating func name(for sites: [CreationSite]) -> String? {
        for site in sites {
            guard let line = line(site.line, of: site.file) else { continue }
            if let name = Self.assignedName(in: line) { return name }
        }
        return nil
    }

    /// `NAME =` or `local NAME =` at the start of the line (NAME may be dotted), not `==`.
    static func assignedName(in line: Substring) -> String? {
        var rest = line.drop { $0 == " " || $0 == "\t" }
        if rest.hasPrefix("local "), !rest.hasPrefix("local function") {
            rest = rest.dropFirst(6).drop { $0 == " " || $0 == "\t" }
        }
        let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
        guard let first = name.first, first.isLetter || first == "_", !name.hasSuffix("."),
              !["return", "if", "for", "while", "local", "function", "end", "until"].contains(String(name)) else { return nil }
        let after = rest.dropFirst(name.count).drop { $0 == " " || $0 == "\t" }
        guard after.hasPrefix("="), !after.hasPrefix("==") else { return nil }
        return String(name.prefix(40))
    }

    private mutating func line(_ number: Int, of file: String) -> Substring? {
        if files[file] == nil {
            var lines: [Substring] = []
            // Regular files only: a FIFO given as the script was read once already.
            var info = stat()
            if stat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, let handle = FileHandle(forReadingAtPath: file) {
                let data = (try? handle.read(upToCount: Self.fileLimit)) ?? nil
                try? handle.close()
                if let data {
                    let text = String(decoding: data, as: UTF8.self)
                    lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
                }
            }
            files[file] = lines
        }
        guard let lines = files[file], number >= 1, number <= lines.count else { return nil }
        return lines[number - 1]
    }
}
