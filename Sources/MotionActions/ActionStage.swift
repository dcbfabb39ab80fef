/// The actions of a script version that is being loaded (a reload candidate's setup, a
/// plugin's new version): held back, in order, until the version is accepted, then performed;
/// dropped — never performed — when it fails to load. A version that does not load must not
/// type, click or start anything (its output lines are held back the same way).
///
/// Only the performing is deferred: the key holds (`KeyHolds`) change at once, so the setup
/// sees the state its actions make, and a dropped version's release (closing its state)
/// undoes its holds — its release events are dropped with the rest.
public final class ActionStage: InputEventSink {
    private enum Action {
        case events([InputEvent])
        case exec(LaunchCommand)
    }

    private let device: InputEventSink?
    private let launcher: ProcessLauncher?
    /// The plugin's count of running children (a held `exec` is counted when performed).
    private let quota: ChildQuota?
    /// Held actions; nil once committed (then actions pass straight on).
    private var held: [Action]? = []
    private var dropped = false

    public init(device: InputEventSink?, launcher: ProcessLauncher?, quota: ChildQuota? = nil) {
        self.device = device
        self.launcher = launcher
        self.quota = quota
    }

    public func write(_ events: [InputEvent]) throws {
        if dropped { return }
        if held != nil { held!.append(.events(events)) } else { try device?.write(events) }
    }

    /// Throws a `LaunchRefusal` when a limit of running children is reached (not held: then).
    /// `startFailure`: told when a command launched now cannot start (one held for `commit` is
    /// reported as `ProcessLauncher.launch(_:)` reports).
    public func launch(_ command: LaunchCommand, startFailure: (String) -> Void) throws {
        if dropped { return }
        if held != nil { held!.append(.exec(command)) } else { _ = try launcher?.launch(command, quota: quota, startFailure: startFailure) }
    }

    /// The version was accepted: performs what was held, in order, then passes later actions
    /// straight on. Every action is attempted; the first device error is thrown.
    public func commit() throws {
        guard let actions = held, !dropped else { return }
        held = nil
        var firstError: Error?
        for action in actions {
            switch action {
            case .events(let events):
                do { try device?.write(events) } catch { firstError = firstError ?? error }
            case .exec(let command):
                // The setup's own commands, performed now: a refusal is said like a failed start.
                do { _ = try launcher?.launch(command, quota: quota) } catch { launcher?.reportRefusal(command, error) }
            }
        }
        if let firstError { throw firstError }
    }

    /// The version did not load: nothing it did, nor anything after, is performed.
    public func drop() {
        dropped = true
        held = []
    }
}
