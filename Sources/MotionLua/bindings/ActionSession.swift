import MotionActions
import MotionStreams

/// One script's actions: its virtual keyboard and mouse state and the names it held keys
/// by, performed through the process's `ActionHost` (or only reported, by default). Sessions
/// of one host share its device and its key holds: a session's release (on close, failure or
/// reload) lets a key go up only when no other session holds it.
public final class ActionSession {
    public let host: ActionHost
    let input: VirtualInput
    /// Held keys and buttons → the name the script used, for the release lines.
    var heldNames: [UInt16: String] = [:]
    /// The last `motion.exec` command and its line's fields (see `ActionFunctions.exec`).
    var lastCommand: Command?
    final class Command {
        let argv: [String]
        let fields: [(key: String, value: MotionValue)]
        /// For the launcher, made at the first launch (never when actions are only reported).
        lazy var launchable = LaunchCommand(argv)

        init(argv: [String], fields: [(key: String, value: MotionValue)]) {
            self.argv = argv
            self.fields = fields
        }
    }
    /// `staged`: where the actions wait until the version is accepted (`ActionStage`).
    private let stage: ActionStage?
    /// This script's running `motion.exec` children (at most `ChildQuota.maxPerPlugin`).
    public let children: ChildQuota

    /// `staged`: the session of a version being loaded, whose actions wait for
    /// `performStaged()` (the version is accepted) or `dropStaged()` (it is not).
    /// `childEnded`: where a failed end of a child is said (`ChildQuota.ended`).
    public init(host: ActionHost, staged: Bool = false, childEnded: (@Sendable (String) -> Void)? = nil) {
        self.host = host
        children = ChildQuota(ended: childEnded)
        stage = staged && host.performs ? ActionStage(device: host.device, launcher: host.launcher, quota: children) : nil
        input = VirtualInput(sink: stage ?? host.device, holds: host.holds)
    }

    /// Starts a command for `motion.exec` (when actions are performed). Throws the reason when
    /// a limit of running children is reached: the script's error. One that cannot start is an
    /// error in the script's own log (a plugin's is tagged with its name and kept for `ctl
    /// logs`), not the process's.
    func launch(_ command: Command, output: MotionOutput) throws {
        do {
            if let stage {
                try stage.launch(command.launchable) { output.log("error: " + $0) }
            } else if let launcher = host.launcher {
                _ = try launcher.launch(command.launchable, quota: children) { output.log("error: " + $0) }
            }
        } catch {
            throw LuaBindingError("motion.exec: \(error); \(command.argv.first ?? "") not started")
        }
    }

    /// The version was accepted: its setup's actions are performed now, in order; later ones
    /// at once. The first device error is thrown (every action is still attempted).
    public func performStaged() throws { try stage?.commit() }

    /// The version did not load: its actions are never performed.
    public func dropStaged() { stage?.drop() }

    /// Actions reported as output lines only (replays, tests).
    public static func outputOnly() -> ActionSession { ActionSession(host: .outputOnly()) }

    /// Lets go of every held key and button (the script ended, was reloaded, failed, or was
    /// stopped), writing a release line for each, marked `"auto":true`. A device error is
    /// reported with `log`: nothing may stop the release of the others.
    func releaseAll(at t: Double, output: MotionOutput) {
        let held = input.held.reversed().map { ($0, heldNames[$0] ?? KeyName.headerName(of: $0)) }
        guard !held.isEmpty else { return }
        do {
            try input.releaseAll()
        } catch {
            output.log("motionscript: releasing held keys: \(error)")
        }
        heldNames.removeAll()
        for (code, name) in held {
            if ActionFunctions.isButton(code) {
                output.emit(t: t, action: "mouse", fields: [("button", .string(name)), ("press", .string("up")), ("auto", .bool(true))])
            } else {
                output.emit(t: t, action: "keyUp", fields: [("key", .string(name)), ("auto", .bool(true))])
            }
        }
    }
}
