import ArgumentParser
import MotionDesktop
import MotionPluginHost
import MotionRun
import MotionInput
#if canImport(Glibc)
import Glibc
#endif
import MotionDiagnostics

struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record devices as an evemu recording, until Ctrl-C or the devices go away.",
        discussion: """
            One --device: a plain evemu recording. Several: one recording of them all, in one \
            timestamp order (docs/input.md, "Recordings of several devices"), which run, daemon \
            and test replay with each pointer naming its device.
            """
    )

    @Option(help: "The input device, e.g. /dev/input/event5 (or a FIFO of raw input_event records), or a selector (touchpad, touchscreen, mouse, name=GLOB): the first device it matches. Repeat for several devices in one recording.")
    var device: [String]

    @Option(name: .shortAndLong, help: "Where to write the recording (default: standard output).")
    var output: String?

    @Option(help: "Axis ranges XMIN:XMAX[:XRES],YMIN:YMAX[:YRES] written into the recording when the source has none (a pipe), e.g. 0:4095,0:4095 or, with resolutions in units per mm, 0:1200:12,0:800:12.")
    var axes: String?

    @Option(name: .customLong("app-provider"), help: "Also record focus changes of the desktop (sway, hyprland, kwin, gnome, wlroots, x11) as comments the replay applies, or none (default: chosen from SWAYSOCK, HYPRLAND_INSTANCE_SIGNATURE, XDG_CURRENT_DESKTOP, WAYLAND_DISPLAY, DISPLAY).")
    var appProvider: String?

    func validate() throws {
        _ = try InputOptions.parse(surface: nil, axes: axes)
        try OptionChecks.appProvider(appProvider, live: true)
    }

    /// A path as given, or the node of the first device a selector matches.
    func resolve(_ device: String) throws -> String {
        let selector = DeviceSelector(device)
        guard !selector.isPath else { return device }
        guard let match = InputDeviceList.current().first(where: { $0.eventNode != nil && selector.matches(name: $0.name, kind: $0.kind) }) else {
            throw InputError(file: device, "no device matches (see 'motionscript devices')")
        }
        StandardError.write("motionscript: recording \(match.eventNode!) (\(match.kind.rawValue): \(match.name))\n")
        return match.eventNode!
    }

    func run() throws {
        do {
            let paths = try device.map(resolve)
            Interruption.catchSignals()
            StandardError.write("motionscript: recording \(device.joined(separator: ", ")) to \(output ?? "standard output"); Ctrl-C stops\n")
            let focus = LiveFocus.tracker(provider: appProvider) { StandardError.write("\($0)\n") }
            defer { focus?.close() }
            let axes = try InputOptions.parse(surface: nil, axes: axes).axes
            if paths.count == 1 {
                let reader = try LiveEventReader(path: paths[0])
                defer { reader.close() }
                Interruption.wake(reader.stopFileDescriptor)
                defer { Interruption.stopWaking(reader.stopFileDescriptor) }
                let result = try recordEvemu(from: reader, to: output ?? "/dev/stdout", axes: axes,
                                             focusChanges: focus.map { tracker in { tracker.poll() } })
                StandardError.write("motionscript: recorded \(result.events) events (\(result.endReason))\n")
                return
            }
            let set = try LiveDeviceSet(selectors: paths.map { .path($0) }) { StandardError.write("\($0)\n") }
            defer { set.close() }
            Interruption.wake(set.control.stopFileDescriptor)
            defer { Interruption.stopWaking(set.control.stopFileDescriptor) }
            let result = try recordEvemu(from: set, to: output ?? "/dev/stdout", axes: axes,
                                         focusChanges: focus.map { tracker in { tracker.poll() } })
            StandardError.write("motionscript: recorded \(result.events) events of \(paths.count) devices (\(result.endReason))\n")
            if result.lateEvents > 0 {
                StandardError.write("motionscript: warning: \(result.lateEvents) events arrived over a second late and were written at the time of the event before them\n")
            }
        } catch let error as InputError {
            StandardError.write("error: \(error)\n")
            throw ExitCode(2)
        }
    }
}
