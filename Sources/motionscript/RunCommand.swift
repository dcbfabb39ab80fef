import Foundation
import ArgumentParser
import MotionHost
import MotionInput
import MotionLua
#if canImport(Glibc)
import Glibc
#endif

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a script over an event file or a live device; output is JSON Lines on stdout."
    )

    @Argument(help: "The Lua script.")
    var script: String

    @Option(help: "An event file: JSON Lines, evemu or libinput recording, or raw evdev (detected by content).")
    var events: String?

    @Option(help: "A live input device: a path (/dev/input/event5, a FIFO of raw input_event records) or a selector (touchpad, touchscreen, mouse, name=GLOB; also matches devices plugged in later). Repeat for several.")
    var device: [String] = []

    @Flag(help: "With --device: take the device from everyone else while running.")
    var grab = false

    @Flag(help: "Reload when the script or a Lua file it required changes (replays --events each time); stop with Ctrl-C.")
    var watch = false

    @Option(help: "Map evdev axis ranges onto a WxH surface, e.g. 1920x1080, or 'mm' for millimetres from the device's resolution (default: raw device units).")
    var surface: String?

    @Option(help: "Axis ranges XMIN:XMAX,YMIN:YMAX for input without a device description (a pipe, raw evdev bytes), e.g. 0:4095,0:4095.")
    var axes: String?

    @Option(help: "Stop a script that runs longer than this many seconds (0 = no limit).")
    var timeout: Double = 0

    @Option(help: "The most memory the script's Lua state may use, in MiB (0 = no limit).")
    var memory: Int = 0

    func validate() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: script, isDirectory: &isDirectory), !isDirectory.boolValue,
              FileManager.default.isReadableFile(atPath: script) else {
            throw ValidationError("cannot read the script \(script)")
        }
        guard timeout >= 0 else { throw ValidationError("--timeout must be >= 0") }
        guard memory >= 0 else { throw ValidationError("--memory must be >= 0") }
        if events != nil && !device.isEmpty { throw ValidationError("use --events or --device, not both") }
        if grab && device.isEmpty { throw ValidationError("--grab needs --device") }
        _ = try InputOptions.parse(surface: surface, axes: axes)
    }

    func run() throws {
        var options = RunOptions(scriptPath: script, eventsPath: events, timeout: timeout,
                                 memoryLimit: memory * 1024 * 1024)
        options.devices = device
        options.grab = grab
        options.input = try InputOptions.parse(surface: surface, axes: axes)
        let output = JSONLinesOutput()
        defer { output.flush() }
        if watch { return try runWatching(options, output: output) }
        if device.isEmpty { Watchdog.start(timeout: timeout, what: script, output: output) }
        do {
            if !device.isEmpty {
                output.flushEachLine = true
                let result = try Runner.runLiveSession(options, output: output) { fputs("\($0)\n", stderr) }
                output.flush()
                if result.callbackErrors > 0 {
                    fputs("motionscript: \(result.reason); \(result.callbackErrors) callback error\(result.callbackErrors == 1 ? "" : "s") (see above)\n", stderr)
                    throw ExitCode(1)
                }
                fputs("motionscript: \(result.reason)\n", stderr)
            } else {
                try Runner.run(options, output: output)
            }
        } catch let error as ScriptError {
            output.flush()
            fputs("error: \(error.message)\n", stderr)
            throw ExitCode(1)
        } catch let error as InputError {
            output.flush()
            fputs("error: \(error)\n", stderr)
            throw ExitCode(2)
        }
    }

    /// Ends with exit 0 on SIGINT/SIGTERM (or when the device goes away); 2 for bad input.
    private func runWatching(_ options: RunOptions, output: JSONLinesOutput) throws {
        do {
            let session = try WatchSession(options, output: output) { fputs($0 + "\n", stderr) }
            WatchSignals.stopOnSignals(session)
            if !options.deviceSelectors.isEmpty {
                output.flushEachLine = true
                let live = try LiveDeviceSet(selectors: options.deviceSelectors, options: options.input, grab: options.grab) {
                    fputs("\($0)\n", stderr)
                }
                defer { live.close() }
                fputs("motionscript: \(try session.runLive(live))\n", stderr)
            } else {
                try session.run()
            }
        } catch let error as InputError {
            output.flush()
            fputs("error: \(error)\n", stderr)
            throw ExitCode(2)
        } catch let error as WatchError {
            fputs("error: \(error)\n", stderr)
            throw ExitCode(2)
        }
    }
}
