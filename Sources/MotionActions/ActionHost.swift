/// What actions do besides being output lines, for every version of a script that runs in one
/// process: whether they are performed, the virtual input device they type on (created when
/// the first key or mouse action is performed), and the launcher for `exec`.
/// Not performing is the default: replays and scenario tests never touch the desktop.
public final class ActionHost {
    public let performs: Bool
    /// The device keys and mouse actions are written to; nil when actions are not performed.
    public let device: InputEventSink?
    /// Starts `exec` commands; nil when actions are not performed.
    public let launcher: ProcessLauncher?

    public init(performs: Bool, device: InputEventSink? = nil, launcher: ProcessLauncher? = nil) {
        self.performs = performs
        self.device = performs ? device ?? UinputDevice() : nil
        self.launcher = performs ? launcher ?? ProcessLauncher() : nil
    }

    /// Output lines only.
    public static func outputOnly() -> ActionHost { ActionHost(performs: false) }
}
