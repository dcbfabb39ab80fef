import MotionDesktop
import MotionGestures
import MotionInput

/// The live wiring every live command shares — `run --device`, `run --watch --device` and the
/// daemon: the devices (`LiveDeviceSet`) and their event loop, SIGINT/SIGTERM waking the loop's
/// wait, the desktop's focus provider registered with the loop, `--proxy`'s clones, and the
/// chain each frame goes through to the host (`chain`, `FrameChain`). What differs between them
/// is the host they feed (`LiveLoop` and its target) and what else registers with the loop (a
/// file watcher, the control socket).
public final class LiveInput {
    public let devices: LiveDeviceSet
    /// The one wait: register descriptors and due times here (`EventLoop`).
    public var loop: EventLoop { devices.loop }
    /// The focus provider, once `followFocus` found one.
    public private(set) var focus: LiveFocus?
    /// Which provider `followFocus` chose and why (nil: none asked, or `--app` fixed the focus).
    public private(set) var focusChoice: FocusChoice?
    /// `--proxy`: the clones of the touchpads and touchscreens, once `startProxy` made them.
    public private(set) var proxy: LiveProxy?
    private let wakesOnSignals: Bool
    private var closed = false

    /// Opens the devices (see `LiveDeviceSet`). `wakesOnSignals`: SIGINT/SIGTERM (when the command
    /// catches them) stop the input at once; `run --watch` leaves that to its file watcher, which
    /// ends the session its own way. `recording`: the raw input's recording (the daemon's flight
    /// recorder), given to every device as it joins, before its first frame.
    public init(selectors: [DeviceSelector], options: EventFileOptions, grab: Bool, waitsForDevices: Bool = false,
                wakesOnSignals: Bool = true, recording: RawRecording? = nil, diagnostics: @escaping (String) -> Void) throws {
        devices = try LiveDeviceSet(selectors: selectors, options: options, grab: grab,
                                    waitsForDevices: waitsForDevices, diagnostics: diagnostics)
        devices.recording = recording
        self.wakesOnSignals = wakesOnSignals
        if wakesOnSignals { Interruption.wake(devices.control.stopFileDescriptor) }
    }

    deinit { close() }

    /// The focused application (`apps =`) from the desktop, each change handed to `deliver`:
    /// nothing when `app` fixes it (`--app`); `provider` is `--app-provider` (nil: from the
    /// environment). Connects now (the focus at connection is delivered before this returns).
    /// `chosen` is told which provider and why before it connects (the daemon says so).
    public func followFocus(app: String?, provider: String?, diagnostics: @escaping (String) -> Void,
                            chosen: ((FocusChoice) -> Void)? = nil, deliver: @escaping (AppInfo?) throws -> Void) throws {
        guard app == nil, focus == nil else { return }
        let choice = LiveFocus.choice(provider: provider, diagnostics: diagnostics)
        focusChoice = choice
        chosen?(choice)
        if let source = choice.source {
            focus = try LiveFocus(tracker: FocusTracker(source: source, diagnostics: diagnostics), loop: loop, deliver: deliver)
        }
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

    /// The chain a frame goes through to `target` (`FrameChain`): `watch` first (the emergency
    /// gesture), then the proxy when `startProxy` made one, around the host. The one place a
    /// live command's chain is built.
    public func chain<Target: LiveTarget>(to target: Target, watch: FrameWatch? = nil) -> FrameChain<Target> {
        FrameChain(watch: watch, proxy: proxy, target: target)
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
