import ArgumentParser
import Foundation
import MotionHost
import MotionInput
import MotionLua
#if canImport(Glibc)
import Glibc
#endif

/// `motionscript plot SCRIPT --events FILE [-o OUT.svg]`: a picture of a run.
struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Draw a run as SVG: pointer paths, recognizer states and emitted values over input time.",
        discussion: "Runs the script over the events as `run` does (stdout stays empty) and writes the picture."
    )

    @Argument(help: "The Lua script.")
    var script: String

    @Option(help: "The event file to run the script over.")
    var events: String

    @Option(name: [.short, .long], help: "The SVG file to write (default: the script's name with .svg).")
    var output: String?

    @Option(parsing: .unconditional, help: "Map evdev axis ranges onto a WxH surface, e.g. 1920x1080 (default: raw device units).")
    var surface: String?

    @Argument(parsing: .postTerminator, help: "Arguments for the script after --.")
    var scriptArguments: [String] = []

    var outputPath: String {
        output ?? (script.hasSuffix(".lua") ? String(script.dropLast(4)) : script) + ".svg"
    }

    func validate() throws {
        guard FileManager.default.isReadableFile(atPath: script) else { throw ValidationError("cannot read the script \(script)") }
        if let surface, EventFileOptions.parseSurface(surface) == nil {
            throw ValidationError("--surface must be WIDTHxHEIGHT with positive numbers, e.g. 1920x1080")
        }
    }

    func run() throws {
        var options = RunOptions(scriptPath: script, eventsPath: events)
        options.input.surface = surface.flatMap(EventFileOptions.parseSurface)
        options.scriptArguments = scriptArguments
        try PlotCommand.plot(options, to: outputPath, forward: nil)
    }

    /// Runs and writes the SVG; script errors exit 1, bad input 2 (as `run`).
    static func plot(_ options: RunOptions, to path: String, forward: MotionOutput?) throws {
        let trace: RunTrace
        do {
            trace = try RunTrace.record(options, forward: forward)
        } catch let error as ScriptError {
            fputs("error: \(error.message)\n", stderr)
            throw ExitCode(1)
        } catch let error as InputError {
            fputs("error: \(error)\n", stderr)
            throw ExitCode(2)
        }
        do {
            try RunPlot.svg(trace).write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            fputs("error: cannot write \(path): \(error.localizedDescription)\n", stderr)
            throw ExitCode(2)
        }
        fputs("motionscript: wrote \(path)\n", stderr)
    }
}
