import MotionPluginHost
import Foundation

/// What `motionscript init [DIR]` writes: a script, its events and expected output (a scenario
/// that `motionscript test DIR` passes), the LuaLS definitions and a `.luarc.json` pointing the
/// editor at them.
public enum Starter {
    /// Relative path and contents of every file, in the order they are written.
    public static var files: [(path: String, text: String)] {
        [
            ("drag.lua", script),
            ("drag.events.jsonl", events),
            ("drag.expected.jsonl", expected),
            (".luarc.json", luarc),
            (LuaDefinitions.relativePath, LuaDefinitions.text),
        ]
    }

    /// Writes the starter into `folder` (created if missing) and returns the paths written.
    /// Nothing is written if any of the files already exists: an init never overwrites work.
    /// Failures say which path and why in the system's words (`strerror`), not Foundation's.
    public static func write(into folder: String) throws -> [String] {
        let paths = files.map { (folder as NSString).appendingPathComponent($0.path) }
        let existing = paths.filter { FileManager.default.fileExists(atPath: $0) }
        guard existing.isEmpty else { throw StarterError.exists(existing) }
        for (path, file) in zip(paths, files) {
            try StarterFiles.makeFolder((path as NSString).deletingLastPathComponent, within: folder)
            try StarterFiles.create(path, file.text, in: folder)
        }
        return paths
    }

    /// LuaLS settings: Lua 5.4 and the definitions as a library (their `---@meta` keeps them
    /// out of diagnostics).
    static let luarc = """
        {
          "$schema": "https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json",
          "runtime.version": "Lua 5.4",
          "workspace.library": ["types"]
        }

        """

    static let script = #"""
-- A starter pipeline: drag a box with one finger, and report taps.
--   motionscript run drag.lua --events drag.events.jsonl    # JSON Lines on stdout
--   motionscript test .                                     # compares with drag.expected.jsonl
--   motionscript test . --update                            # accepts the new output
-- types/motion.lua describes the whole `motion` API for your editor (LuaLS, see .luarc.json).

local box = motion.property({x = 100, y = 100})

-- The pan begins once the finger moved more than 5 units; its translation is added to where the
-- box was when the gesture began, and written back into the box.
local pan = motion.pan{threshold = 5}
motion.gesture(pan):translation(box):subscribe(box)
box:emit("box")

-- A tap: where it happened, and its state changes.
local tap = motion.tap{}
motion.tapSource(tap):emit("tap")

"""#

    static let events = #"""
{"t":0,"id":1,"phase":"down","x":300,"y":300}
{"t":0.08,"id":1,"phase":"up","x":301,"y":300}
{"t":0.5,"id":2,"phase":"down","x":100,"y":100}
{"t":0.516,"id":2,"phase":"move","x":103,"y":101}
{"t":0.532,"id":2,"phase":"move","x":112,"y":104}
{"t":0.548,"id":2,"phase":"move","x":124,"y":110}
{"t":0.564,"id":2,"phase":"move","x":136,"y":116}
{"t":0.58,"id":2,"phase":"up","x":136,"y":116}

"""#

    static let expected = #"""
{"t":0,"name":"box","value":{"x":100,"y":100}}
{"t":0.08,"name":"tap","state":"active"}
{"t":0.08,"name":"tap","value":{"x":301,"y":300}}
{"t":0.08,"name":"tap","state":"atRest"}
{"t":0.532,"name":"box","value":{"x":112,"y":104}}
{"t":0.548,"name":"box","value":{"x":124,"y":110}}
{"t":0.564,"name":"box","value":{"x":136,"y":116}}

"""#
}

/// Why `init` wrote nothing.
public enum StarterError: Error, CustomStringConvertible, Equatable {
    case exists([String])
    case cannotWrite(String, String)

    public var description: String {
        switch self {
        case .exists(let paths): "not overwriting existing files: \(paths.joined(separator: ", "))"
        case .cannotWrite(let folder, let reason): "cannot write into \(folder): \(reason)"
        }
    }
}
