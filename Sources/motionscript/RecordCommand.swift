import ArgumentParser
import MotionDesktop
import MotionHost
import MotionInput
#if canImport(Glibc)
import Glibc
#endif

struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a device as an evemu recording, until Ctrl-C or the device goes away."
    )

    @Option(help: "The input device, e.g. /dev/input/event5 (or a FIFO of raw input_event records), or a selector (touchpad, touchscreen, mouse, name=GLOB): the first device it matches.")
    var device: String

    @Option(name: .shortAndLong, help: "Where to write the recording (default: standard output).")
    var output: String?

    @Option(help: "Axis ranges XMIN:XMAX,YMIN:YMAX written into the recording when the source has none (a pipe), e.g. 0:4095,0:4095.")
    var axes: String?

    @Option(name: .customLong("app-provider"), help: "Also record focus changes of the desktop (sway, hyprland, x11) as comments the replay applies, or none (default: chosen from SWAYSOCK, HYPRLAND_INSTANCE_SIGNATURE, DISPLAY).")
    var appProvider: String?

    func validate() throws {
        _ = try InputOptions.parse(surface: nil, axes: axes)
        if let appProvider, !FocusProviderChoice.names.contains(appProvider) {
            throw ValidationError("--app-provider must be sway, hyprland, x11 or none, got \(appProvider)")
        }
    }

    func run() throws {
        do {
            var path = device
            let selector = DeviceSelector(device)
            if !selector.isPath {
                guard let match = InputDeviceList.current().first(where: { $0.eventNode != nil && selector.matches(name: $0.name, kind: $0.kind) }) else {
                    throw InputError(file: device, "no device matches (see 'motionscript devices')")
                }
                path = match.eventNode!
                fputs("motionscript: recording \(path) (\(match.kind.rawValue): \(match.name))\n", stderr)
            }
            let reader = try LiveEventReader(path: path)
            defer { reader.close() }
            Interruption.catchSignals()
            Interruption.wake(reader.stopFileDescriptor)
            defer { Interruption.stopWaking(reader.stopFileDescriptor) }
            fputs("motionscript: recording \(device) to \(output ?? "standard output"); Ctrl-C stops\n", stderr)
            let focus = LiveFocus.tracker(provider: appProvider) { fputs("\($0)\n", stderr) }
            defer { focus?.close() }
            let result = try recordEvemu(from: reader, to: output ?? "/dev/stdout", axes: try InputOptions.parse(surface: nil, axes: axes).axes,
                                         focusChanges: focus.map { tracker in { tracker.poll() } })
            fputs("motionscript: recorded \(result.events) events (\(result.endReason))\n", stderr)
        } catch let error as InputError {
            fputs("error: \(error)\n", stderr)
            throw ExitCode(2)
        }
    }
}
