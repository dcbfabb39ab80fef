import ArgumentParser
import MotionActions
import MotionInput

/// The input and action options `run` and `daemon` share (one definition, so they read and
/// validate the same way).
struct LiveInputOptions: ParsableArguments {
    @Option(help: "A live input device: a path (/dev/input/event5, a FIFO of raw input_event records) or a selector (touchpad, touchscreen, mouse, name=GLOB; also matches devices plugged in later). Repeat for several.")
    var device: [String] = []

    @Flag(help: "With --device: take the device from everyone else while running.")
    var grab = false

    @Flag(help: "The desktop reads a clone of each touchpad and touchscreen (through /dev/uinput), without the touches recognizers with 'consume = true' take (docs/desktop.md). With --events: the clone's frames are decided as live, as 'proxy' output lines.")
    var proxy = false

    @Option(name: .customLong("proxy-output"), help: ArgumentHelp("With --events and --proxy: write what the clones would have received to FILE, an evemu recording.", valueName: "file"))
    var proxyOutput: String?

    @Option(parsing: .unconditional, help: "Units of evdev positions: 'auto' (the default: millimetres where the device reports its resolution, raw units elsewhere), 'mm' (millimetres, required), 'raw' (device units), or WxH to map the axis ranges onto a surface, e.g. 1920x1080.")
    var surface: String?

    @Option(help: "Axis ranges XMIN:XMAX[:XRES],YMIN:YMAX[:YRES] for input without a device description (a pipe, raw evdev bytes), e.g. 0:4095,0:4095; a resolution in units per mm (0:1200:12,0:800:12) makes positions millimetres.")
    var axes: String?

    @Flag(help: "Perform actions (keys, mouse, exec) with --events too; by default only live input (--device) performs them.")
    var act = false

    @Flag(name: .customLong("dry-run"), help: "With --device: only write actions as output lines, do not perform them.")
    var dryRun = false

    @Option(help: ArgumentHelp("Where the virtual keyboard and mouse are created (a regular file or FIFO receives the raw input_event records instead).", valueName: "path"))
    var uinput: String = UinputDevice.defaultPath

    /// The checks that do not depend on the command; `live` says whether input is live
    /// (for `--grab`).
    func validate(live: Bool) throws {
        if grab && !live { throw ValidationError("--grab needs --device") }
        if proxy && grab { throw ValidationError("use --proxy or --grab, not both (--proxy grabs each device itself and gives the desktop a clone)") }
        if proxyOutput != nil && !proxy { throw ValidationError("--proxy-output needs --proxy") }
        if proxyOutput != nil && live {
            throw ValidationError("--proxy-output is for replays (--events): on live input the clone is a device; watch it with `libinput debug-events --device NODE` (docs/desktop.md)")
        }
        if act && dryRun { throw ValidationError("use --act or --dry-run, not both") }
        _ = try InputOptions.parse(surface: surface, axes: axes)
    }

    /// `--surface` and `--axes`.
    func inputOptions() throws -> EventFileOptions { try InputOptions.parse(surface: surface, axes: axes) }

    /// Live input performs actions unless --dry-run; replays only with --act.
    func actionHost(live: Bool, allowed: Bool = true) -> ActionHost {
        ActionHost(performs: allowed && (act || (live && !dryRun)), device: UinputDevice(path: uinput))
    }
}
