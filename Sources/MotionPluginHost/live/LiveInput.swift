import MotionDesktop
import MotionGestures
import MotionInput

/// The live wiring every live command shares — `run --device`, `run --watch --device` and the
/// daemon: the devices (`LiveDeviceSet`) and their event loop, SIGINT/SIGTERM waking the loop's
/// wait, and the desktop's focus provider registered with the loop. What differs between them
/// is what they feed (`LiveLoop` and its target) and what else registers with the loop (a
/// file watcher, the control socket).
public final class LiveInput {
    public let devices: LiveDeviceSet
    /// The one wait: register descriptors and due times here (`EventLoop`).
    public var loop: EventLoop { devices.loop }
    /// The focus provider, once `followFocus` found one.
    public private(set) var focus: LiveFocus?
    /// `--proxy`: the clones of the touchpads and touchscreens, once `startProxy` made them.
    public private(set) var proxy: LiveProxy?
    private let wakesOnSignals: Bool
    private var closed = false

    /// Opens the devices (see `LiveDeviceSet`). `wakesOnSignals`: SIGINT/SIGTERM (when the command
    /// catches them) stop the input at once; `run --watch` leaves that to its file watcher, which
    /// ends the session its own way.
    public init(selectors: [DeviceSelector], options: EventFileOptions, grab: Bool, waitsForDevices: Bool = false,
                wakesOnSignals: Bool = true, diagnostics: @escaping (String) -> Void) throws {
        devices = try LiveDeviceSet(selectors: selectors, options: options, grab: grab,
                                    waitsForDevices: waitsForDevices, diagnostics: diagnostics)
        self.wakesOnSignals = wakesOnSignals
        if wakesOnSignals { Interruption.wake(devices.control.stopFileDescriptor) }
    }

    deinit { close() }

    /// The focused application (`apps =`) from the desktop, each change handed to `deliver`:
    /// nothing when `app` fixes it (`--app`); `provider` is `--app-provider` (nil: from the
    /// environment). Connects now (the focus at connection is delivered before this returns).
    public func followFocus(app: String?, provider: String?, diagnostics: @escaping (String) -> Void,
                            deliver: @escaping (AppInfo?) throws -> Void) throws {
        guard app == nil, focus == nil, let tracker = LiveFocus.tracker(provider: provider, diagnostics: diagnostics) else { return }
        focus = try LiveFocus(tracker: tracker, loop: loop, deliver: deliver)
    }

    /// `--proxy`: every touchpad and touchscreen (present and plugged in later) gets a clone the
    /// desktop reads, without the touches the consumers `consumers` walks take (`LiveProxy`).
    /// The devices must have been opened ungrabbed.
    @discardableResult
    public func startProxy(consumers: @escaping ((GestureRecognizer) -> Void) -> Void,
                           diagnostics: @escaping (String) -> Void) -> LiveProxy {
        if let proxy { return proxy }
        let proxy = LiveProxy(input: devices, consumers: consumers, diagnostics: diagnostics)
        self.proxy = proxy
        return proxy
    }

    /// Closes the proxy (each clone lifts what it holds and goes), the focus provider and the
    /// devices (every grab released); idempotent.
    public func close() {
        guard !closed else { return }
        closed = true
        proxy?.close()
        focus?.close()
        if wakesOnSignals { Interruption.stopWaking(devices.control.stopFileDescriptor) }
        devices.close()
    }
}
