/// What actions do besides being output lines, for every script (every version of a reloaded
/// script, every plugin of a daemon) that runs in one process: whether they are performed, the
/// one virtual input device they all type on, who holds which key on it (`holds`: a key goes up
/// when its last holder lets go), and the launcher for `exec` (one reaper for all its children).
/// Not performing is the default: replays and scenario tests never touch the desktop.
public final class ActionHost {
    public let performs: Bool
    /// The device keys and mouse actions are written to; nil when actions are not performed.
    public let device: InputEventSink?
    /// Starts `exec` commands; nil when actions are not performed.
    public let launcher: ProcessLauncher?
    /// The key and button holds of every session on `device`.
    public let holds = KeyHolds()

    public init(performs: Bool, device: InputEventSink? = nil, launcher: ProcessLauncher? = nil) {
        self.performs = performs
        self.device = performs ? device ?? UinputDevice() : nil
        self.launcher = performs ? launcher ?? ProcessLauncher() : nil
    }

    /// Output lines only.
    public static func outputOnly() -> ActionHost { ActionHost(performs: false) }

    /// Opens the virtual device now (at start-up), when actions are performed, so that a
    /// missing or unusable device is an error before any input is read rather than at the
    /// first key. A sink that is not a `UinputDevice` has nothing to open.
    public func openDevice() throws {
        guard performs, let device = device as? UinputDevice else { return }
        try device.open()
    }
}
