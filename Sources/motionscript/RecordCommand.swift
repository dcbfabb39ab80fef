import ArgumentParser
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

    func validate() throws {
        _ = try InputOptions.parse(surface: nil, axes: axes)
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
            let result = try recordEvemu(from: reader, to: output ?? "/dev/stdout", axes: try InputOptions.parse(surface: nil, axes: axes).axes)
            fputs("motionscript: recorded \(result.events) events (\(result.endReason))\n", stderr)
        } catch let error as InputError {
            fputs("error: \(error)\n", stderr)
            throw ExitCode(2)
        }
    }
}
