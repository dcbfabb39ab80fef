import MotionInput

/// What the desktop's clone of a device is created with, so libinput applies the same quirks and
/// the user's saved settings (keyed by name, vendor and product): the device's own name, bus,
/// ids, version, properties, every axis (range, fuzz, flat, resolution), slot count, keys and
/// `MSC_TIMESTAMP`. Filled from a live device's ioctls (`LiveDevice.device`, `EVIOCGABS` and
/// the bitmaps) or from an evemu recording's header (`EvemuReader`): both give a
/// `DeviceDescription`. Only `phys` differs, marking the clone as ours so motionscript never
/// opens its own clones.
public struct CloneIdentity: Sendable, Equatable {
    public var device: DeviceDescription

    /// `phys` of every clone motionscript makes; `devices` and the live selectors skip devices
    /// whose phys starts with it.
    public static let physMarker = InputDeviceInfo.clonePhysPrefix

    public init(_ device: DeviceDescription) {
        self.device = device
    }

    public var name: String { device.name }
    public var bus: UInt16 { device.bus }
    public var vendor: UInt16 { device.vendor }
    public var product: UInt16 { device.product }
    public var version: UInt16 { device.version }
    public var properties: Set<Int> { device.properties }
    /// Every absolute axis, with its range, fuzz, flat and resolution (`UI_ABS_SETUP`).
    public var axes: [UInt16: AbsInfo] { device.absinfo }
    /// Multi-touch slots (`ABS_MT_SLOT`'s maximum + 1); 0 for a device without slots.
    public var slotCount: Int {
        guard let slot = device.absinfo[ABS.MT_SLOT], slot.maximum >= 0 else { return 0 }
        return Int(slot.maximum) + 1
    }
    /// Every key and button (`BTN_TOOL_*`, `BTN_TOUCH`, `BTN_LEFT`…).
    public var keys: Set<UInt16> { device.codes[EV.KEY] ?? [] }
    public var hasMscTimestamp: Bool { device.codes[EV.MSC]?.contains(MSC.TIMESTAMP) == true }
    /// The phys a clone of the device on `phys` gets (the real one's, after the marker).
    public static func phys(cloning phys: String) -> String { physMarker + "/" + phys }
    /// Whether a device is one of our clones.
    public static func isClone(phys: String) -> Bool { phys.hasPrefix(physMarker) }
}

/// `EV_MSC` codes the proxy names.
public enum MSC {
    public static let TIMESTAMP: UInt16 = 0x05
}
