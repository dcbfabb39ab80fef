import Foundation
import MotionActions
import MotionDaemon
import MotionGestures
import MotionPluginHost

/// A config folder in a fresh temporary directory.
final class TestConfig {
    let url: URL
    var path: String { url.path }

    init(_ files: [String: String] = [:]) {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, text) in files { write(name, text) }
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func write(_ name: String, _ text: String) {
        let file = url.appendingPathComponent(name)
        try! FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try! text.write(to: file, atomically: true, encoding: .utf8)
    }

    func remove(_ name: String) { try! FileManager.default.removeItem(at: url.appendingPathComponent(name)) }

    /// The canonical path of a file in the folder (as the watcher reports it).
    func file(_ name: String) -> String { (try! ConfigFolder(path)).path + "/" + name }

    /// A host over this folder writing into memory, its diagnostics collected.
    /// `actions`: the plugins' shared action host (default: action lines only).
    func host(defaults: PluginLimits = PluginLimits(timeout: 0.2, memoryMiB: 16), actions: ActionHost? = nil) -> (PluginHost, Diagnostics) {
        let router = OutputRouter(.memory)
        let diagnostics = Diagnostics()
        router.diagnostics = { diagnostics.lines.append($0) }
        var options = RunOptions(scriptPath: "")
        if let actions { options.actions = actions }
        let host = PluginHost(folder: try! ConfigFolder(path), options: options, router: router,
                              defaults: defaults)
        return (host, diagnostics)
    }
}

final class Diagnostics {
    var lines: [String] = []
}

/// Taps at 0, 1, 2, … s: each a down and an up 0.05 s later, at (100, 100).
func taps(_ count: Int, from start: Double = 0) -> [Frame] {
    (0..<count).flatMap { i -> [Frame] in
        let t = start + Double(i)
        return [Frame(t: t, events: [PointerEvent(t: t, id: i + 1, phase: .down, x: 100, y: 100)]),
                Frame(t: t + 0.05, events: [PointerEvent(t: t + 0.05, id: i + 1, phase: .up, x: 100, y: 100)])]
    }
}

extension PluginHost {
    /// Feeds frames, then settles (a replay's end).
    func run(_ frames: [Frame], finish: Bool = true) {
        for frame in frames { handle(frame) }
        if finish { self.finish() }
    }

    var lines: [String] { router.lines }

    /// The lines a plugin caused, lifecycle lines included.
    func lines(of plugin: String) -> [String] { router.lines.filter { $0.contains(#","plugin":"\#(plugin)","#) } }
}

/// A plugin that emits each pointer's phase and time: its output shows every frame it saw.
let echoPlugin = """
    motion.pointers():subscribe(function(p) motion.emit("p", p.phase) end)
    """

/// A watch of the frame chain (`FrameChain.watch`) that hands each frame to `seen`.
final class FrameSpy: FrameWatch {
    let seen: (Frame) -> Void
    init(_ seen: @escaping (Frame) -> Void) { self.seen = seen }
    func observe(_ frame: Frame) { seen(frame) }
}
