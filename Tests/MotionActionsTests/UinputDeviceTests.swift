import Foundation
import Testing
@testable import MotionActions

@Suite struct UinputDeviceTests {
    @Test func aRegularFileReceivesTheInputEventRecords() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("uinput-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let device = UinputDevice(path: path)
            let input = VirtualInput(sink: device)
            try input.keys(try Chord("ctrl+alt+Right"))
            try input.move(dx: -4, dy: 7)
        }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count == 11 * 24)
        #expect(Array(bytes[16..<24]) == [1, 0, 29, 0, 1, 0, 0, 0])  // EV_KEY KEY_LEFTCTRL 1
        #expect(InputEvent.decode(records: bytes).map(\.description) == [
            "KEY_LEFTCTRL 1", "KEY_LEFTALT 1", "KEY_RIGHT 1", "SYN",
            "KEY_RIGHT 0", "KEY_LEFTALT 0", "KEY_LEFTCTRL 0", "SYN",
            "REL 0 -4", "REL 1 7", "SYN",
        ])
    }

    @Test func noPermissionSaysHowToGrantIt() {
        let message = UinputDevice.openError(path: "/dev/uinput", errno: EACCES).message
        #expect(message.hasPrefix("cannot open /dev/uinput for the virtual keyboard and mouse: Permission denied. Grant your user access with a udev rule"))
        #expect(message.contains("KERNEL==\"uinput\", SUBSYSTEM==\"misc\", GROUP=\"motionscript\", MODE=\"0660\""))
        #expect(message.contains("sudo usermod -aG motionscript $USER"))
        #expect(message.contains("--dry-run"))
        #expect(UinputDevice.openError(path: "/dev/uinput", errno: ENOENT).message.contains("sudo modprobe uinput"))
    }

    /// Each key action tries to open the device again (access may have come since); what to do
    /// is said at the first failure only, later ones say that it failed.
    @Test func whatToDoIsSaidAtTheFirstFailedOpenOnly() throws {
        let device = UinputDevice(path: "/")
        let first = ActionError("cannot open / for the virtual keyboard and mouse: Is a directory")
        #expect(throws: first) { try device.write([.synReport]) }
        let later = ActionError("cannot open / for the virtual keyboard and mouse: Is a directory (as said when it first failed; see there, or docs/desktop.md)")
        #expect(throws: later) { try device.write([.synReport]) }
        #expect(throws: later) { try device.write([.synReport]) }
        let advice = UinputDevice.openError(path: "/dev/uinput", errno: EACCES).message
        #expect(UinputDevice.shortened(advice) == "cannot open /dev/uinput for the virtual keyboard and mouse: Permission denied (as said when it first failed; see there, or docs/desktop.md)")
    }

    @Test func aDirectoryCannotBeOpened() throws {
        let device = UinputDevice(path: "/")
        #expect(throws: ActionError("cannot open / for the virtual keyboard and mouse: Is a directory")) {
            try device.write([.synReport])
        }
    }

    @Test func theIoctlNumbersAreTheKernelOnes() {
        #expect(UinputIoctl.devCreate == 0x5501)
        #expect(UinputIoctl.devDestroy == 0x5502)
        #expect(UinputIoctl.devSetup == 0x405c5503)
        #expect(UinputIoctl.setEvBit == 0x40045564)
        #expect(UinputIoctl.setKeyBit == 0x40045565)
        #expect(UinputIoctl.setRelBit == 0x40045566)
    }
}
