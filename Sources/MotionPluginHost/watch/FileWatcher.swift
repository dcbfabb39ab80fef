#if canImport(Glibc)
import CLinux
import Glibc
#endif

/// Waits for changes to a set of files with inotify, without polling.
///
/// Editors save by writing a temporary file and renaming it over the original, which replaces
/// the inode: a watch on the file itself would go stale. So the watcher watches the files'
/// directories and matches event names against the watched files' names. A burst of events
/// (one save can be several) is debounced: after the first relevant event, it keeps reading
/// until `debounce` seconds pass without another, and reports one change.
///
/// A watched folder can go away and come back (a branch switch, a tool that regenerates it):
/// while it is missing, its nearest existing ancestor is watched, and when the folder is back it
/// is watched again and its files count as changed.
public final class FileWatcher {
    public enum Wait: Equatable {
        case changed([String])
        case stopped
        case timedOut
    }

    private let fd: Int32
    /// A pipe: `stop()` (or a signal handler) writes to its end, `wait` polls its start.
    private let wakeFD: Int32
    private let wakeWriteFD: Int32
    private var directories: [Int32: String] = [:]   // watch descriptor → directory
    private var names: [String: Set<String>] = [:]    // directory → watched file names
    /// Directories every file of which is watched (files that appear in them included).
    private var wholeDirectories: Set<String> = []
    /// Watch descriptor → an existing ancestor of a watched directory that is missing now.
    /// (inotify gives one descriptor per inode: it may also be in `directories`.)
    private var ancestors: [Int32: String] = [:]
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// Changes `hasChanged()` read before the next `wait`.
    private var carried: Set<String> = []

    static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_ATTRIB
                             | IN_DELETE_SELF | IN_MOVE_SELF)

    public init(files: [String] = []) throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw WatchError("inotify_init1: \(String(cString: strerror(errno)))") }
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe2(&pipeFDs, O_CLOEXEC | O_NONBLOCK) == 0 else {
            close(fd)
            throw WatchError("pipe: \(String(cString: strerror(errno)))")
        }
        wakeFD = pipeFDs[0]
        wakeWriteFD = pipeFDs[1]
        setFiles(files)
    }

    deinit {
        close(fd)
        close(wakeFD)
        close(wakeWriteFD)
    }

    /// The inotify descriptor: readable when a change waits to be read (a host that waits on
    /// several descriptors at once adds it to its wait, then calls `wait(debounce: 0, timeout: 0)`).
    public var eventDescriptor: Int32 { fd }

    /// The descriptor `stop()` writes to; a signal handler may write a byte to it
    /// (write is async-signal-safe).
    public var wakeDescriptor: Int32 { wakeWriteFD }

    /// For a caller that waits on this watcher in its own wait (the live input hub's): readable
    /// when a file event is pending (`hasChanged()` reads it), and once `stop()` was called (it
    /// then stays readable).
    public var changeDescriptor: Int32 { fd }
    public var stopDescriptor: Int32 { wakeFD }

    /// Makes the current or next `wait` return `.stopped`. Safe from any thread.
    /// Whether `stop()` (or a signal handler) asked the watcher to stop: a poll of the wake pipe
    /// that does not wait, cheap enough to ask every few hundred frames.
    public var isStopRequested: Bool {
        var fd = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, 0) > 0
    }

    public func stop() {
        var byte: UInt8 = 1
        _ = write(wakeWriteFD, &byte, 1)
    }

    /// The files watched now.
    public var files: [String] {
        names.flatMap { directory, names in names.map { Self.join(directory, $0) } }.sorted()
    }

    /// Watches exactly these files (their directories are watched; others are dropped).
    /// A directory that is missing is waited for: its nearest existing ancestor is watched.
    /// `directories`: folders whose every file is watched, files created later included (the
    /// daemon's config folder, where a new file is a new plugin).
    public func setFiles(_ paths: [String], directories folders: [String] = []) {
        var wanted: [String: Set<String>] = [:]
        for path in paths {
            let (directory, name) = Self.split(path)
            wanted[directory, default: []].insert(name)
        }
        wholeDirectories = []
        for directory in folders {
            let canonical = Self.split(Self.join(directory, "_")).directory
            wholeDirectories.insert(canonical)
            wanted[canonical, default: []] = wanted[canonical] ?? []
        }
        for (wd, directory) in directories where wanted[directory] == nil {
            directories[wd] = nil
            if ancestors[wd] == nil { inotify_rm_watch(fd, wd) }
        }
        names = wanted
        _ = rearm()
    }

    /// Watches each wanted directory that exists and, for each that does not, its nearest
    /// existing ancestor. Returns the files of directories watched anew (back after missing).
    private func rearm() -> Set<String> {
        var reappeared: Set<String> = []
        // Again after adding ancestor watches: a folder made meanwhile would send no event.
        for _ in 0..<4 {
            let watched = Set(directories.values)
            var needed: Set<String> = []
            for directory in names.keys where !watched.contains(directory) {
                let wd = inotify_add_watch(fd, directory, Self.mask)
                if wd >= 0 {
                    directories[wd] = directory
                    for file in names[directory] ?? [] { reappeared.insert(Self.join(directory, file)) }
                } else if let ancestor = Self.nearestExistingAncestor(of: directory) {
                    needed.insert(ancestor)
                }
            }
            for (wd, ancestor) in ancestors where !needed.contains(ancestor) {
                ancestors[wd] = nil
                if directories[wd] == nil { inotify_rm_watch(fd, wd) }
            }
            let have = Set(ancestors.values)
            var added = false
            for ancestor in needed where !have.contains(ancestor) {
                let wd = inotify_add_watch(fd, ancestor, Self.mask)
                if wd >= 0 {
                    ancestors[wd] = ancestor
                    added = true
                }
            }
            if !added { break }
        }
        return reappeared
    }

    static func nearestExistingAncestor(of directory: String) -> String? {
        var path = directory
        while let slash = path.lastIndex(of: "/") {
            path = slash == path.startIndex ? "/" : String(path[..<slash])
            if access(path, F_OK) == 0 { return path }
            if path == "/" { return nil }
        }
        return access(".", F_OK) == 0 ? "." : nil
    }

    /// Whether a watched file changed since the last `wait`, without waiting (a long replay asks
    /// every few hundred frames, so a save cuts it short). What it reads is kept for the next
    /// `wait`, which then only awaits the quiet period.
    public func hasChanged() -> Bool {
        var fds = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        if poll(&fds, 1, 0) > 0 { carried.formUnion(readEvents()) }
        return !carried.isEmpty
    }

    /// Blocks until a watched file changes (then waits out the quiet time, `debounce` seconds:
    /// `QuietTime`), `stop()` is called, or `timeout` seconds pass (nil: no limit).
    public func wait(debounce: Double = QuietTime.standard, timeout: Double? = nil) -> Wait {
        let deadline = timeout.map { Clock.monotonic() + $0 }
        var burst = QuietTime(seconds: debounce)
        burst.note(carried, now: Clock.monotonic())
        carried = []
        while true {
            let now = Clock.monotonic()
            let remaining = deadline.map { max(0, $0 - now) }
            // Once something changed, only its quiet time is awaited.
            let limit = burst.dueIn(now: now).map { min($0, remaining ?? $0) } ?? remaining
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
            let ms = limit.map { Int32(($0 * 1000).rounded(.up)) } ?? -1
            let ready = poll(&fds, 2, ms)
            if ready < 0 {
                if errno == EINTR { continue }
                return .stopped
            }
            if fds[1].revents != 0 {
                // Stays readable: every later wait returns .stopped at once too.
                return .stopped
            }
            if ready == 0 {
                if burst.hasPending { return .changed(burst.pending.sorted()) }
                if remaining != nil { return .timedOut }
                continue
            }
            burst.note(readEvents(), now: Clock.monotonic())
        }
    }

    /// Reads the pending events; returns the watched files they name.
    private func readEvents() -> Set<String> {
        var changed: Set<String> = []
        var needsRearm = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let name = String(decoding: buffer[nameStart..<nameStart + length].prefix { $0 != 0 }, as: UTF8.self)
                offset = nameStart + length
                // Something changed in an ancestor of a missing folder: it may be back.
                if ancestors[wd] != nil {
                    needsRearm = true
                    if mask & UInt32(IN_IGNORED) != 0 { ancestors[wd] = nil }
                }
                guard let directory = directories[wd] else { continue }
                if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                    // The directory went away: its files count as changed, and it is waited for.
                    if mask & UInt32(IN_IGNORED) != 0 { directories[wd] = nil }
                    if mask & UInt32(IN_MOVE_SELF) != 0 {
                        // The watch follows the moved folder; the path is what is watched.
                        directories[wd] = nil
                        if ancestors[wd] == nil { inotify_rm_watch(fd, wd) }
                    }
                    needsRearm = true
                    for file in names[directory] ?? [] { changed.insert(Self.join(directory, file)) }
                    continue
                }
                if names[directory]?.contains(name) == true || (!name.isEmpty && wholeDirectories.contains(directory)) {
                    changed.insert(Self.join(directory, name))
                }
            }
        }
        if needsRearm { changed.formUnion(rearm()) }
        return changed
    }

    /// The canonical directory (realpath: "./a.lua" and "/abs/a.lua" are one directory, which
    /// inotify would give one watch descriptor) and the file name.
    package static func split(_ path: String) -> (directory: String, name: String) {
        var directory = ".", name = path
        if let slash = path.lastIndex(of: "/") {
            directory = slash == path.startIndex ? "/" : String(path[..<slash])
            name = String(path[path.index(after: slash)...])
        }
        directory = canonical(directory)
        return (directory, name)
    }
}

extension FileWatcher {
    /// realpath of the directory, or, when it is missing, of its nearest existing ancestor with
    /// the rest appended: the same name before it is deleted and after it is made again.
    static func canonical(_ directory: String) -> String {
        if let resolved = realpath(directory, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        guard let slash = directory.lastIndex(of: "/") else {
            return directory == "." ? directory : join(canonical("."), directory)
        }
        let parent = slash == directory.startIndex ? "/" : String(directory[..<slash])
        let last = String(directory[directory.index(after: slash)...])
        guard parent != directory, !last.isEmpty else { return directory }
        return join(canonical(parent), last)
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}

public struct WatchError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
