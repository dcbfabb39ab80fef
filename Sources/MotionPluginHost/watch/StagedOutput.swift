import MotionLua
import MotionStreams

/// The output of a version being loaded: held back until the load succeeds, so a version that
/// fails halfway through its setup leaves no lines in the output; then passed straight on.
final class StagedOutput: MotionOutput {
    private enum Line {
        case value(Double, String, MotionValue)
        case state(Double, String, MotionState)
        case action(Double, String, [(key: String, value: MotionValue)])
        case app(Double, MotionValue)
    }

    private let target: MotionOutput
    private var held: [Line]? = []

    init(_ target: MotionOutput) { self.target = target }

    func emit(t: Double, name: String, value: MotionValue) {
        if held != nil { held!.append(.value(t, name, value)) } else { target.emit(t: t, name: name, value: value) }
    }

    func emit(t: Double, name: String, state: MotionState) {
        if held != nil { held!.append(.state(t, name, state)) } else { target.emit(t: t, name: name, state: state) }
    }

    func emit(t: Double, action: String, fields: [(key: String, value: MotionValue)]) {
        if held != nil { held!.append(.action(t, action, fields)) } else { target.emit(t: t, action: action, fields: fields) }
    }

    func emit(t: Double, app: MotionValue) {
        if held != nil { held!.append(.app(t, app)) } else { target.emit(t: t, app: app) }
    }

    /// Diagnostics are not held: they explain what happened, failure included.
    func log(_ line: String) { target.log(line) }
    func standardError(_ text: String) { target.standardError(text) }

    /// Writes the held lines and passes later ones straight on.
    func commit() {
        for line in held ?? [] {
            switch line {
            case let .value(t, name, value): target.emit(t: t, name: name, value: value)
            case let .state(t, name, state): target.emit(t: t, name: name, state: state)
            case let .action(t, action, fields): target.emit(t: t, action: action, fields: fields)
            case let .app(t, app): target.emit(t: t, app: app)
            }
        }
        held = nil
    }
}
