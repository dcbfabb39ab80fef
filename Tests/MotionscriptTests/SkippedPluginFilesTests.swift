import Foundation
import Testing
import MotionTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `*.lua` entries of the config folder that cannot be plugins (a name that is not UTF-8, a
/// dangling symbolic link, a FIFO, a folder) are named, raw bytes escaped, by the daemon and by
/// `check`: none is skipped silently (docs/daemon.md).
@Suite(.timeLimit(.minutes(2))) struct SkippedPluginFilesTests {
    func folderWithOddEntries() throws -> URL {
        let folder = makeTemporaryFolder("odd")
        writeFile(#"motion.pointers():subscribe(function(p) motion.emit("p", p.phase) end)"#, "good.lua", in: folder)
        // "café.lua" in Latin-1: byte 0xE9 alone is not UTF-8.
        let raw: [CChar] = Array((folder.path + "/caf").utf8CString.dropLast()) + [CChar(bitPattern: 0xE9)] + Array(".lua".utf8CString)
        let fd = open(raw, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        #expect(fd >= 0)
        _ = "motion.emit('latin', 1)\n".withCString { write(fd, $0, strlen($0)) }
        close(fd)
        #expect(symlink(folder.path + "/nowhere.lua", folder.path + "/gone.lua") == 0)
        #expect(mkfifo(folder.path + "/pipe.lua", 0o600) == 0)
        #expect(mkdir(folder.path + "/dir.lua", 0o700) == 0)
        return folder
    }

    func expectedWarnings(_ folder: URL, prefix: String) -> [String] {
        [
            "\(prefix)\(folder.path)/caf\\xE9.lua: not loaded: its name is not UTF-8 (a plugin's name is text: rename the file)",
            "\(prefix)\(folder.path)/dir.lua: not loaded: a folder, not a regular file",
            "\(prefix)\(folder.path)/gone.lua: not loaded: a symbolic link to nothing (\(folder.path)/nowhere.lua does not exist)",
            "\(prefix)\(folder.path)/pipe.lua: not loaded: a FIFO, not a regular file",
        ]
    }

    @Test func theDaemonWarnsAboutEverySkippedEntry() throws {
        let folder = try folderWithOddEntries()
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = writeFile(#"{"t":0,"id":1,"phase":"down","x":1,"y":1}"#, "e.jsonl", in: makeTemporaryFolder("odd-events"))
        let r = try runMotionscript(["daemon", folder.path, "--events", events])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix(#"{"t":0,"plugin":"good","status":"loaded","version":1}"#))
        let warnings = r.stderr.split(separator: "\n").map(String.init).filter { $0.contains("not loaded") }
        #expect(warnings == expectedWarnings(folder, prefix: "motionscript: warning: "), "\(r.stderr)")
    }

    @Test func checkWarnsAboutEverySkippedEntry() throws {
        let folder = try folderWithOddEntries()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try runMotionscript(["check", folder.path])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("not loaded") } == expectedWarnings(folder, prefix: "").map {
            $0.replacingOccurrences(of: ".lua: not loaded", with: ".lua: warning: not loaded")
        }, "\(r.stderr)")
        #expect(lines.last == "motionscript: checked 1 plugin: 0 errors, 4 warnings")
    }
}
