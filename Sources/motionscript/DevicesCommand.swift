import ArgumentParser
import Foundation
import MotionInput

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List input devices: event node, kind (touchscreen, touchpad, mouse, other) and name."
    )

    @Flag(help: "One JSON object per device: {\"node\":…,\"kind\":…,\"name\":…} (for scripts).")
    var json = false

    func run() throws {
        let devices = InputDeviceList.current()
        if json {
            for device in devices {
                let object: [String: Any] = ["node": device.eventNode ?? NSNull(), "kind": device.kind.rawValue, "name": device.name]
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
                print(String(decoding: data, as: UTF8.self))
            }
            return
        }
        if devices.isEmpty {
            print("no input devices found (\(InputDeviceList.procPath) lists none)")
            return
        }
        for device in devices {
            let node = device.eventNode ?? "-"
            print("\(node.padding(toLength: 20, withPad: " ", startingAt: 0)) \(device.kind.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)) \(device.name)")
        }
    }
}
