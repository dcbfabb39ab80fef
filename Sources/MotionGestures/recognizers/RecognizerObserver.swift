/// Hears every state change of the recognizers it is given to, with the reason: the "why didn't
/// my gesture fire" view (`ctl monitor --recognizers`, `run --explain`). A recognizer without an
/// observer checks one nil and builds nothing, so nobody listening costs nothing per event.
public protocol RecognizerObserver: AnyObject {
    /// `recognizer` changed as `change` says (on the host's thread, inside the frame or the
    /// time advance that decided it).
    func recognizer(_ recognizer: GestureRecognizer, changed change: RecognizerChange)
}

/// One state change of a recognizer, as its observer hears it.
public struct RecognizerChange {
    /// What happened: a state the recognizer wrote, or one of the two things that are not states.
    public enum Event: String, Sendable {
        /// Gesture states as listeners see them (`changed` only once after `began`: it repeats
        /// with every movement, and the output lines carry the values).
        case began, changed, ended, cancelled, failed, recognized
        /// Began or recognized, but held back for a rival (`requireToFail`).
        case waiting
        /// A touch the recognizer did not take (`devices =`, `apps =`).
        case ignored

        /// The event for a state written to listeners (`possible` has none).
        init?(_ state: GestureState) {
            switch state {
            case .possible: return nil
            case .began: self = .began
            case .changed: self = .changed
            case .ended: self = .ended
            case .cancelled: self = .cancelled
            case .failed: self = .failed
            case .recognized: self = .recognized
            }
        }
    }

    /// What happened.
    public var event: Event
    /// Why (nil for a `changed`, or a state whose cause is the value itself).
    public var reason: RecognizerReason?
    /// Input time of the change (the time a decision fell due, for one that fell due with time).
    public var t: Double

    /// A change at input time `t`.
    public init(_ event: Event, reason: RecognizerReason?, at t: Double) {
        self.event = event
        self.reason = reason
        self.t = t
    }
}

/// Where a script made something: a source file and a line.
public struct SourceLocation: Equatable, Sendable {
    /// The file as the script host names it (a path).
    public var file: String
    /// The 1-based line.
    public var line: Int

    /// A file and a line.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// The file's last path component and the line: `swipes.lua:7`.
    public var shortText: String {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return "\(name):\(line)"
    }
}
