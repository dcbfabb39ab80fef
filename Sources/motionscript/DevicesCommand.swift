import ArgumentParser
import Foundation
import MotionInput
import MotionJSON
#if canImport(Glibc)
import Glibc
#endif
import MotionDiagnostics

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List input devices: event node, kind (touchscreen, touchpad, mouse, other) and name."
    )

    /// Where the kernel lists input devices; an option only so tests can point elsewhere.
    @Option(help: .private)
    var procFile: String = InputDeviceList.procPath

    @Flag(help: "One JSON object per device: {\"node\":…,\"kind\":…,\"name\":…} (for scripts).")
    var json = false

    func run() throws {
        guard FileManager.default.fileExists(atPath: procFile) else {
            StandardError.write("error: \(procFile) does not exist: the kernel's input device list cannot be read here (no /proc, or not Linux)\n")
            throw ExitCode(2)
        }
        let devices = procFile == InputDeviceList.procPath ? InputDeviceList.current()
            : InputDeviceList.parse((try? String(contentsOfFile: procFile, encoding: .utf8)) ?? "")
        if json {
            for device in devices {
                var object: [String: JSONValue] = ["node": device.eventNode.map(JSONValue.string) ?? .null,
                                                   "kind": .string(device.kind.rawValue), "name": .string(device.name)]
                if device.isProxyClone { object["clone"] = .bool(true) }
                print(JSONValue.object(object).jsonText)
            }
            return
        }
        if devices.isEmpty {
            print("no input devices found (\(procFile) lists none)")
            return
        }
        for device in devices {
            let node = device.eventNode ?? "-"
            let clone = device.isProxyClone ? "  (a --proxy clone: never read by motionscript)" : ""
            print("\(node.padding(toLength: 20, withPad: " ", startingAt: 0)) \(device.kind.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)) \(device.name)\(clone)")
        }
    }
}
