#if canImport(Glibc)
import Glibc
#endif
import MotionHost
import MotionScenarios
import MotionInput

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
        var lines = declarations.map { "-- " + $0 }
        lines.append("-- Written by `motionscript ctl scenario`: the plugins of \(folder) over \(JSONTextNumber.short(seconds)) s of recorded input.")
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

    /// Writes the three files; returns their paths.
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
        try record(paths[1])
        try write(script(folder: folder, plugins: plugins, seconds: seconds), to: paths[0])
        // What the script does over the recording now, run as `test` runs it (sandbox, actions as lines).
        let output = CollectedOutput()
        var options = RunOptions(scriptPath: paths[0], eventsPath: paths[1], timeout: 30)
        options.sandbox = true
        options.input = (try? ScenarioSurface.options(for: paths[0], base: input)) ?? input
        do {
            try Runner.run(options, output: output)
        } catch {
            throw ControlError("the scenario script failed over the recording: \(error)")
        }
        try write(output.lines.map { $0 + "\n" }.joined(), to: paths[2])
        return paths
    }

    private func write(_ text: String, to path: String) throws {
        guard let file = fopen(path, "wx") else { throw ControlError("cannot write \(path): \(String(cString: strerror(errno)))") }
        let ok = fputs(text, file) >= 0
        if fclose(file) != 0 || !ok { throw ControlError("cannot write \(path): \(String(cString: strerror(errno)))") }
    }

    private func luaString(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }
}

enum JSONTextNumber {
    static func short(_ s: Double) -> String { s == s.rounded() ? String(Int(s)) : String(s) }
}
