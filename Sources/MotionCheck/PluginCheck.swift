import MotionGestures
import MotionLua
#if canImport(Glibc)
import Glibc
#endif

/// `motionscript check`: everything that can be known about plugins before a gesture happens.
/// Each plugin is loaded without input in the sandbox (its setup runs, its actions only become
/// lines), then its text is read for literal key and button names, `exec` programs, durations
/// written in milliseconds, and gestures another plugin binds too.
public enum PluginCheck {
    public struct Report {
        public var plugins: [String] = []
        public var findings: [CheckFinding] = []
        public var errors: Int { findings.filter { $0.severity == .error }.count }
        public var warnings: Int { findings.filter { $0.severity == .warning }.count }
    }

    /// The plugins PATHS name: a file is one plugin; a folder, each `*.lua` at its top level
    /// (in name order, as the daemon loads them). Throws for a path that is neither.
    public static func plugins(in paths: [String]) throws -> [String] {
        var plugins: [String] = []
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else { throw ControlCheckError("cannot read \(path): \(String(cString: strerror(errno)))") }
            if info.st_mode & S_IFMT == S_IFDIR {
                plugins += FolderListing.luaFiles(in: path)
            } else {
                plugins.append(path)
            }
        }
        return plugins
    }

    /// The `*.lua` entries of the folders among PATHS that are not plugins, each a warning
    /// with the reason (as the daemon says them).
    public static func skipped(in paths: [String]) -> [CheckFinding] {
        paths.flatMap { path -> [CheckFinding] in
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return [] }
            return PluginFiles.list(path).skipped.map { CheckFinding(file: $0.path, line: nil, .warning, "not loaded: " + $0.reason) }
        }
    }

    /// The default configuration folder: `$XDG_CONFIG_HOME/motionscript` or `~/.config/motionscript`.
    public static var configFolder: String {
        if let x = getenv("XDG_CONFIG_HOME"), x.pointee != 0 { return String(cString: x) + "/motionscript" }
        return (getenv("HOME").map { String(cString: $0) } ?? ".") + "/.config/motionscript"
    }

    public static func check(_ plugins: [String], timeout: Double = 5, memoryLimit: Int = 64 << 20) -> Report {
        var report = Report(plugins: plugins)
        var bound: [String: [(file: String, line: Int, apps: AppFilter?)]] = [:]
        for file in plugins {
            let loaded = load(file, timeout: timeout, memoryLimit: memoryLimit)
            guard let text = FolderListing.read(file) else {
                report.findings += loaded
                continue
            }
            let source = LuaSourceText(text)
            let found = StaticChecks.findings(file: file, source: source)
            // A literal name the text check reports may also have failed the setup: said once.
            let staticErrorLines = Set(found.filter { $0.severity == .error }.compactMap(\.line))
            report.findings += loaded.filter { $0.line.map { !staticErrorLines.contains($0) } ?? true }
                + Self.withoutRuntimeDuplicates(found, runtime: loaded)
            var reported: Set<String> = []
            // A binding is a gesture named by fingers or direction; a bare drag is not one.
            // Bindings for applications that cannot both have the focus (`apps =`) do not conflict.
            for (line, key, apps) in StaticChecks.bindings(source: source) where key.contains("=") {
                if !reported.contains(key),
                   let other = bound[key]?.first(where: { $0.file != file && AppFilter.mayShareFocus($0.apps, apps) }) {
                    report.findings.append(CheckFinding(file: file, line: line, .warning,
                        "\(key) is also bound by \(other.file):\(other.line): both plugins act on the same gesture"))
                    reported.insert(key)
                }
                bound[key, default: []].append((file, line, apps))
            }
        }
        return report
    }

    /// The text's findings (`StaticChecks`) for a plugin the daemon loaded: what the runtime
    /// warned about while loading it (`runtimeLines`, as it logged them) is not said twice.
    public static func textFindings(file: String, text: String, runtimeLines: [String]) -> [CheckFinding] {
        withoutRuntimeDuplicates(StaticChecks.findings(file: file, source: LuaSourceText(text)),
                                 runtime: runtimeNotes(file: file, runtimeLines))
    }

    /// The errors the text check finds (an unknown literal key or button name): calls that fail
    /// whenever they run. The daemon keeps a working version rather than load one with these.
    public static func certainErrors(file: String, text: String) -> [CheckFinding] {
        StaticChecks.findings(file: file, source: LuaSourceText(text)).filter { $0.severity == .error }
    }

    /// The runtime's own duration warning (over a minute) and the text check's (over 10 s) may
    /// name the same line: said once, the runtime's.
    static func withoutRuntimeDuplicates(_ found: [CheckFinding], runtime: [CheckFinding]) -> [CheckFinding] {
        let runtimeWarningLines = Set(runtime.filter { $0.severity == .warning }.compactMap(\.line))
        return found.filter { !($0.severity == .warning && $0.message.contains("durations are in seconds")
                                && $0.line.map(runtimeWarningLines.contains) == true) }
    }

    /// Loads a plugin in the sandbox without input: syntax errors, errors its setup raises,
    /// unknown names in the calls it makes while setting up, its time and memory limits.
    static func load(_ file: String, timeout: Double, memoryLimit: Int) -> [CheckFinding] {
        let output = LoadNotes()
        do {
            let runtime = try LuaRuntime(scriptPath: file, output: output, memoryLimit: memoryLimit, sandbox: true)
            defer { runtime.close() }
            runtime.setTimeout(timeout)
            try runtime.load()
            return runtimeNotes(file: file, output.logLines)
        } catch let error as ScriptError {
            return [finding(file: file, error.message)]
        } catch {
            return [CheckFinding(file: file, line: nil, .error, "\(error)")]
        }
    }

    /// What the runtime itself says at the end of a setup (the notes `run` prints on stderr):
    /// streams built and never subscribed, durations over a minute. Each becomes a warning at
    /// its place.
    static func runtimeNotes(file: String, _ lines: [String]) -> [CheckFinding] {
        var found: [CheckFinding] = []
        for line in lines {
            if line.hasPrefix("note: "), line.contains("built and never subscribed ("),
               let open = line.firstIndex(of: "("), let close = line[open...].firstIndex(of: ")") {
                for place in line[line.index(after: open)..<close].components(separatedBy: ", ") {
                    let located = Self.finding(file: file, place + ": x")
                    found.append(CheckFinding(file: file, line: located.line, .warning,
                        located.line == nil ? "\(place) streams built and never subscribed" : "a stream built here is never subscribed: nothing flows until s:subscribe(…) or s:emit(name)"))
                }
            } else if line.hasPrefix("warning: ") {
                let located = Self.finding(file: file, String(line.dropFirst("warning: ".count)))
                found.append(CheckFinding(file: file, line: located.line, .warning, located.message))
            }
        }
        return found
    }

    /// A Lua error's first line, `file:line: message`, split into its place and message. Lua
    /// shortens a long file name to "...its end", which still names this file.
    static func finding(file: String, _ message: String) -> CheckFinding {
        let first = String(message.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        let parts = first.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        if parts.count == 3, let line = Int(parts[1]) {
            let place = String(parts[0])
            if place == file || (place.hasPrefix("...") && file.hasSuffix(place.dropFirst(3))) {
                return CheckFinding(file: file, line: line, .error, parts[2].trimmingCharacters(in: " "))
            }
        }
        return CheckFinding(file: file, line: nil, .error, first)
    }
}

public struct ControlCheckError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

enum FolderListing {
    static func luaFiles(in folder: String) -> [String] {
        PluginFiles.list(folder).files
    }

    static func read(_ path: String) -> String? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
