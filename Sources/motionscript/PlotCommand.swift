import ArgumentParser
import Foundation
import MotionPluginHost
import MotionRun
import MotionInput
import MotionLua
import MotionPlot
#if canImport(Glibc)
import Glibc
#endif
import MotionDiagnostics

/// `motionscript plot SCRIPT --events FILE [-o OUT.svg]`: a picture of a run.
struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Draw a run as SVG: pointer paths, recognizer states, emitted values and actions over input time.",
        discussion: """
            Runs the script over the events as `run` does (stdout stays empty) and writes the picture. \
            A regular file is replaced whole; a FIFO, device or symlink is written through.
            """
    )

    @Argument(help: "The Lua script.")
    var script: String

    @Option(help: "The event file to run the script over.")
    var events: String

    @Option(name: [.short, .long], help: "The SVG file to write (default: the script's name with .svg).")
    var output: String?

    @OptionGroup var input: InputOptionGroup

    @Option(parsing: .unconditional, help: ArgumentHelp("Plot input time from this many seconds on (the script still runs over all of it).", valueName: "seconds"))
    var from: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Plot input time up to this many seconds.", valueName: "seconds"))
    var to: Double?

    @Argument(parsing: .postTerminator, help: "Arguments for the script after --.")
    var scriptArguments: [String] = []

    var outputPath: String {
        output ?? (script.hasSuffix(".lua") ? String(script.dropLast(4)) : script) + ".svg"
    }

    func validate() throws {
        try OptionChecks.script(script)
        if let from, !from.isFinite { throw ValidationError("--from must be a finite number of seconds, got \(from)") }
        if let to, !to.isFinite { throw ValidationError("--to must be a finite number of seconds, got \(to)") }
        if let from, let to, to <= from { throw ValidationError("--to (\(plotSeconds(to))) must be after --from (\(plotSeconds(from)))") }
    }

    private func plotSeconds(_ value: Double) -> String { value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)" }

    func run() throws {
        // Ctrl-C stops the script, or a wait for a FIFO's reader, and ends with 128 + the signal.
        Interruption.catchSignals()
        var options = RunOptions(scriptPath: script, eventsPath: events)
        options.input = try input.parsed()
        options.scriptArguments = scriptArguments
        try PlotCommand.plot(options, to: outputPath, window: (from ?? -.infinity)...(to ?? .infinity), forward: nil)
    }

    /// Runs and writes the SVG; script errors exit 1, bad input 2 (as `run`). The lines made
    /// for `forward` are flushed before drawing: nothing the run printed depends on the picture.
    static func plot(_ options: RunOptions, to path: String,
                     window: ClosedRange<Double> = -Double.infinity...Double.infinity, forward: MotionOutput?) throws {
        // A path that cannot be written is said before the run, not after it.
        do {
            try OutputFile.checkWritable(path)
        } catch {
            StandardError.write("error: \(error)\n")
            throw ExitCode(2)
        }
        let trace: RunTrace
        do {
            trace = try RunTrace.record(options, window: window, forward: forward)
        } catch let error as ScriptError {
            StandardError.write("error: \(error.message)\n")
            throw ExitCode(Interruption.signal.map(Interruption.exitStatus(for:)) ?? 1)
        } catch let error as InputError {
            StandardError.write("error: \(error)\n")
            throw ExitCode(2)
        }
        (forward as? JSONLinesOutput)?.flush()
        do {
            try OutputFile.write(Array(RunPlot.svg(trace).utf8), to: path)
        } catch {
            StandardError.write("error: \(error)\n")
            // Stopped by a signal while waiting for a FIFO's reader: 128 + the signal, as any run.
            throw ExitCode(Interruption.signal.map(Interruption.exitStatus(for:)) ?? 2)
        }
        StandardError.write("motionscript: wrote \(path)\n")
    }
}
