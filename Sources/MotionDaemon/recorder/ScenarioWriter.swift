#if canImport(Glibc)
import Glibc
#endif
import MotionControl
import MotionPluginHost
import MotionRun
import MotionScenarios
import MotionInput
import MotionJSON

/// `ctl scenario NAME`: a misfire made into a regression test. Writes NAME.evemu (the flight
/// recorder's window), NAME.lua (a scenario script that runs the configuration folder's running
/// plugins, each with globals of its own, by absolute path: a later fix of a plugin is what the
/// scenario tests) and NAME.expected.jsonl (what that script does over the recording now, which
/// `motionscript test DIR` then passes; edit it to what should have happened).
public struct ScenarioWriter {
    /// `-- surface: …` / `-- axes: …` declarations: the daemon's own input options.
    public var declarations: [String]
    public var input: EventFileOptions

    public init(declarations: [String], input: EventFileOptions) {
        self.declarations = declarations
        self.input = input
    }

    public func script(folder: String, plugins: [String], seconds: Double) -> String {
        // A comment ends at a line break: control bytes in it are escaped as in the strings.
        var lines = declarations.map { "-- " + Self.escaped($0) }
        lines.append("-- Written by `motionscript ctl scenario`: the plugins of \(Self.escaped(folder)) over \(JSONText.number(seconds)) s of recorded input.")
        lines.append("-- Each plugin runs with globals of its own, as the daemon gives each a Lua state of its own.")
        lines.append("local folder = \(luaString(folder))")
        lines.append("package.path = folder .. \"/?.lua;\" .. folder .. \"/?/init.lua;\" .. package.path")
        lines.append("for _, plugin in ipairs{ \(plugins.map(luaString).joined(separator: ", ")) } do")
        lines.append("  local env = setmetatable({}, { __index = _G })")
        lines.append("  local chunk = assert(loadfile(folder .. \"/\" .. plugin .. \".lua\", \"t\", env))")
        lines.append("  chunk()")
        lines.append("end")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the three files; returns their paths. All or none: they are written into a
    /// hidden folder of their own beside them (`.NAME.XXXXXX`), then linked into place, none
    /// replacing a file there; whatever fails, nothing is left behind.
    public func write(name: String, into directory: String, folder: String, plugins: [String], seconds: Double,
                      record: (String) throws -> Void) throws -> [String] {
        guard !plugins.isEmpty else { throw ControlError("no plugin is running: nothing to make a scenario of") }
        if access(directory, F_OK) != 0, mkdir(directory, 0o755) != 0 {
            throw ControlError("cannot create \(directory): \(String(cString: strerror(errno)))")
        }
        // The script names the plugins by absolute path: `test` runs it from anywhere.
        var folder = folder
        if !folder.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: 4096)
            if getcwd(&buffer, buffer.count) != nil { folder = String(cString: buffer) + "/" + folder }
        }
        let base = directory + "/" + name
        let paths = [base + ".lua", base + ".evemu", base + ".expected.jsonl"]
        if let existing = paths.first(where: { access($0, F_OK) == 0 }) {
            throw ControlError("\(existing) exists: choose another name or remove it")
        }
        var template = Array((directory + "/." + name + ".XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw ControlError("cannot write into \(directory): \(String(cString: strerror(errno)))")
        }
        let staging = String(cString: made)
        let staged = [".lua", ".evemu", ".expected.jsonl"].map { staging + "/" + name + $0 }
        defer {
            for path in staged { unlink(path) }
            rmdir(staging)
        }
        try record(staged[1])
        try write(script(folder: folder, plugins: plugins, seconds: seconds), to: staged[0])
        // What the script does over the recording now, run as `test` runs it (sandbox, actions as lines).
        let output = CollectedOutput()
        var options = RunOptions(scriptPath: staged[0], eventsPath: staged[1], timeout: 30)
        options.sandbox = true
        options.input = (try? ScenarioSurface.options(for: staged[0], base: input)) ?? input
        do {
            try Runner.run(options, output: output)
        } catch {
            throw ControlError("the scenario script failed over the recording: \(error)")
        }
        try write(output.lines.map { $0 + "\n" }.joined(), to: staged[2])
        // link(2) never replaces: a file made there meanwhile stops the scenario, and the
        // files linked before it are taken back.
        var placed: [String] = []
        for (from, to) in zip(staged, paths) {
            guard link(from, to) == 0 else {
                let reason = String(cString: strerror(errno))
                for path in placed { unlink(path) }
                throw ControlError("cannot write \(to): \(reason)")
            }
            placed.append(to)
        }
        return paths
    }

    private func write(_ text: String, to path: String) throws {
        let file = try DaemonOutputFile.open(path, exclusive: true)
        let ok = fputs(text, file) >= 0
        if fclose(file) != 0 || !ok { throw ControlError("cannot write \(path): \(String(cString: strerror(errno)))") }
    }

    /// A Lua string literal of `s`: quotes and backslashes escaped, every control byte written
    /// as an escape (`\r`, `\001`…), so no name can end the literal or the line.
    private func luaString(_ s: String) -> String {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for byte in s.utf8 {
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { out += [UInt8(ascii: "\\"), byte] } else { Self.append(byte, to: &out) }
        }
        out.append(UInt8(ascii: "\""))
        return String(decoding: out, as: UTF8.self)
    }

    /// `s` with its control bytes escaped (for comments).
    static func escaped(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return s }
        var out: [UInt8] = []
        for byte in s.utf8 { append(byte, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// A byte as Lua writes it in a string: itself, or an escape for a control byte (three
    /// decimal digits, so a digit after it cannot join it).
    static func append(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case 0x0A: out += Array("\\n".utf8)
        case 0x0D: out += Array("\\r".utf8)
        case 0x09: out += Array("\\t".utf8)
        case 0..<0x20, 0x7F:
            let digits = String(byte)
            out += Array(("\\" + String(repeating: "0", count: 3 - digits.count) + digits).utf8)
        default: out.append(byte)
        }
    }
}
