import MotionPluginHost
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The file system calls behind `Starter.write`, with errors a person can act on: Foundation
/// said "The file doesn't exist" for a folder that exists (`/proc/self`, which takes no new
/// files) and "NSCocoaErrorDomain error 512" for a folder path that is a file.
enum StarterFiles {
    /// Creates `path` and its missing parents (like `mkdir -p`).
    static func makeFolder(_ path: String, within root: String) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw StarterError.cannotWrite(root, "\(path) exists and is not a folder")
            }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeFolder(parent, within: root) }
        if mkdir(path, 0o755) != 0, errno != EEXIST {
            throw StarterError.cannotWrite(root, "cannot create the folder \(path): \(reason(errno))")
        }
    }

    /// Writes a new file (never replacing one: `O_EXCL`).
    static func create(_ path: String, _ text: String, in root: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let code = errno
            // The folder is there, yet a file in it "does not exist": a virtual file system.
            if code == ENOENT {
                throw StarterError.cannotWrite(root, "\(root) does not take new files (is it a virtual file system such as /proc?)")
            }
            throw StarterError.cannotWrite(root, "cannot create \(path): \(reason(code))")
        }
        defer { close(fd) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw StarterError.cannotWrite(root, "cannot write \(path): \(reason(errno))")
            }
            bytes = bytes.dropFirst(n)
        }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// Quotes a path for a shell command line a person copies (`next: cd 'my dir' && …`): as is
/// when every byte is plain, else in single quotes, or `$'…'` with escapes when it holds
/// control characters (which single quotes would print raw). A leading `-` gets `./`.
public enum ShellQuote {
    public static func quote(_ path: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-+:,@%=".utf8)
        let path = path.hasPrefix("-") ? "./" + path : path
        if !path.isEmpty, path.utf8.allSatisfy(plain.contains) { return path }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            var out = "$'"
            for scalar in path.unicodeScalars {
                switch scalar {
                case "\\": out += "\\\\"
                case "'": out += "\\'"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                case "\r": out += "\\r"
                default:
                    if scalar.value < 0x20 || scalar.value == 0x7F {
                        out += "\\x" + String(scalar.value, radix: 16).leftPadded(to: 2)
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            return out + "'"
        }
        return "'" + path.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
