#if canImport(Glibc)
import Glibc
#endif

/// The `*.lua` entries at the top of a plugin folder, as the daemon and `check` both see them.
/// A plugin is a regular file (or a link to one) whose name is UTF-8 text (the name is the
/// plugin's in every line and command). Every other `*.lua` entry is skipped with the reason,
/// its name written with its raw bytes escaped (docs/daemon.md): a file nobody is told about
/// is a configuration that silently does less than its author thinks.
public enum PluginFiles {
    public struct Skipped: Equatable {
        /// The entry's path, bytes that are not text escaped (`caf\xE9.lua`).
        public var path: String
        public var reason: String
        public var message: String { "\(path): not loaded: \(reason)" }
    }

    public struct Listing {
        /// The plugins' paths, in the byte order of their names.
        public var files: [String] = []
        public var skipped: [Skipped] = []
    }

    /// Lists `folder`. Hidden entries (an editor's `.#name.lua`) are not plugins and not
    /// mentioned; a folder that cannot be read lists nothing.
    public static func list(_ folder: String) -> Listing {
        var listing = Listing()
        guard let dir = opendir(folder) else { return listing }
        var names: [[UInt8]] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard name.count > 4, name.last(4) == Array(".lua".utf8), name.first != UInt8(ascii: ".") else { continue }
            names.append(name)
        }
        closedir(dir)
        let base = Array(folder.utf8) + (folder.hasSuffix("/") ? [] : [UInt8(ascii: "/")])
        for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let raw = base + name
            let shown = EscapedText.of(raw)
            var info = stat()
            guard cString(raw, { lstat($0, &info) }) == 0 else { continue }  // gone meanwhile
            if info.st_mode & S_IFMT == S_IFLNK {
                if cString(raw, { stat($0, &info) }) != 0 {
                    let target = cString(raw) { path -> [UInt8] in
                        var buffer = [UInt8](repeating: 0, count: 4096)
                        let n = buffer.withUnsafeMutableBytes { readlink(path, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
                        return n > 0 ? Array(buffer[..<n]) : []
                    }
                    let absolute = target.first == UInt8(ascii: "/") ? target : base + target
                    listing.skipped.append(Skipped(path: shown, reason: "a symbolic link to nothing (\(EscapedText.of(absolute)) does not exist)"))
                    continue
                }
            }
            guard info.st_mode & S_IFMT == S_IFREG else {
                listing.skipped.append(Skipped(path: shown, reason: "\(kind(info.st_mode)), not a regular file"))
                continue
            }
            guard let path = String(validating: raw, as: UTF8.self) else {
                listing.skipped.append(Skipped(path: shown, reason: "its name is not UTF-8 (a plugin's name is text: rename the file)"))
                continue
            }
            listing.files.append(path)
        }
        return listing
    }

    /// A plugin's text, or why it cannot be read (the system's reason and the errno's name).
    /// Opened non-blocking, so a FIFO put there meanwhile is refused rather than waited on.
    public static func read(_ path: String) -> Result<String, ReadError> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return .failure(ReadError(errno: errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(ReadError(errno: errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(ReadError("\(kind(info.st_mode)), not a regular file")) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(ReadError(errno: errno))
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[..<n])
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(ReadError("it is not UTF-8 text"))
        }
        return .success(text)
    }

    public struct ReadError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
        init(errno code: Int32) { description = "\(String(cString: strerror(code))) (\(ErrnoName.of(code)))" }
    }

    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "not a regular file"
        }
    }

    private static func cString<T>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        (bytes + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }
}

private extension Array where Element == UInt8 {
    func last(_ n: Int) -> [UInt8] { Array(suffix(n)) }
}

/// Bytes as readable text: UTF-8 kept, control characters and bytes that are not UTF-8 written
/// `\xHH`, so a name with any bytes can be shown on one line.
public enum EscapedText {
    public static func of(_ bytes: [UInt8]) -> String {
        var out = ""
        var i = 0
        while i < bytes.count {
            let length = sequenceLength(bytes, at: i)
            if length > 0, let s = String(validating: bytes[i..<i + length], as: UTF8.self),
               let scalar = s.unicodeScalars.first, !(scalar.value < 0x20 || scalar.value == 0x7F) {
                out += s
                i += length
            } else {
                out += "\\x" + hex(bytes[i])
                i += 1
            }
        }
        return out
    }

    /// The length of the UTF-8 sequence starting at `i` by its lead byte (0: not a lead byte).
    static func sequenceLength(_ bytes: [UInt8], at i: Int) -> Int {
        let b = bytes[i]
        let n = b < 0x80 ? 1 : b >> 5 == 0b110 ? 2 : b >> 4 == 0b1110 ? 3 : b >> 3 == 0b11110 ? 4 : 0
        return i + n <= bytes.count ? n : 0
    }

    static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(b >> 4)], digits[Int(b & 15)]])
    }
}

/// The symbolic name of an errno value, for messages a user can search for.
public enum ErrnoName {
    public static func of(_ code: Int32) -> String {
        let names: [Int32: String] = [
            EPERM: "EPERM", ENOENT: "ENOENT", EIO: "EIO", ENXIO: "ENXIO", EBADF: "EBADF", EAGAIN: "EAGAIN",
            ENOMEM: "ENOMEM", EACCES: "EACCES", EBUSY: "EBUSY", EEXIST: "EEXIST", ENOTDIR: "ENOTDIR",
            EISDIR: "EISDIR", EINVAL: "EINVAL", ENFILE: "ENFILE", EMFILE: "EMFILE", ETXTBSY: "ETXTBSY",
            EFBIG: "EFBIG", ENOSPC: "ENOSPC", EROFS: "EROFS", ENAMETOOLONG: "ENAMETOOLONG", ELOOP: "ELOOP",
            ENOBUFS: "ENOBUFS", EINTR: "EINTR", ESTALE: "ESTALE", EDQUOT: "EDQUOT",
        ]
        return names[code] ?? "errno \(code)"
    }
}
