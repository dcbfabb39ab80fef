#if canImport(Glibc)
import Glibc
#endif

extension LiveDeviceSet {
    /// Takes every open evdev device from everyone else (`true`), or gives them back (`false`):
    /// the emergency stop ungrabs so the desktop gets the touchpad at once, `resume` grabs again.
    /// Returns the nodes that could not be changed.
    @discardableResult
    public func setGrabbed(_ grabbed: Bool) -> [String] {
        var failed: [String] = []
        for member in members where member.device.reader.isEvdevNode {
            if !member.device.reader.setGrabbed(grabbed) { failed.append(member.node) }
        }
        return failed
    }
}
