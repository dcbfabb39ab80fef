import ArgumentParser
import MotionInput

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List input devices: event node, kind (touchscreen, touchpad, mouse, other) and name."
    )

    func run() throws {
        let devices = InputDeviceList.current()
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
