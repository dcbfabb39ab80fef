import MotionStreams

/// When a subscription to a finished animation ends by itself.
///
/// A subscription lives until it is unsubscribed or the script ends (docs/reference.md). A spring or tween,
/// though, *ends*: once it has come to rest (`state(atRest)` after `state(active)`) it never
/// emits again. Its subscription then has nothing left to deliver, so it is released as if
/// unsubscribed — after the `atRest` reached every observer. This is what keeps a script that
/// starts a spring per touch (the idiomatic way to animate a gesture's end) flat over months:
/// each touch's spring subscription goes when the spring rests, instead of living, with its
/// callback, until the script ends. `sub:unsubscribe()` afterwards does nothing.
///
/// It applies to streams whose only input is such an animation through operators that pass
/// values and states through as they come (`map`, `filter`, `offset`, …, not `delay` or
/// `debounce`, whose values come after the state); a stream that also follows another stream
/// or property (`merge`, `distance(p)`, `valve`) does not end.
final class AnimationEnd {
    /// Operators whose values can come after their source came to rest.
    static let outlivesItsSource: Set<String> = ["delay", "debounce"]

    private let gate: LuaCallGate
    private var wasActive = false
    private var reached = false
    private weak var subscription: Subscription?

    /// Nil unless argument 1 of `call` is a stream that ends at rest.
    init?(_ call: LuaCall) {
        guard let stream: LuaStream = LuaObject.get(call.lua, at: 1, .stream), stream.endsAtRest else { return nil }
        gate = call.runtime.gate
    }

    /// `source` with its states watched for the end, or `source` itself without an `end`.
    static func watching(_ source: MotionObservable<MotionValue>, by end: AnimationEnd?) -> MotionObservable<MotionValue> {
        guard let end else { return source }
        return MotionObservable { observer in
            source.connect(MotionObserver(next: observer.next, state: { state in
                observer.state(state)
                end.saw(state)
            }))
        }
    }

    /// The subscription to release at the end (at once when the animation already ended while
    /// it was being made: a spring that starts at rest).
    func attach(_ subscription: Subscription) {
        self.subscription = subscription
        if reached { release() }
    }

    private func saw(_ state: MotionState) {
        if state == .active {
            wasActive = true
        } else if wasActive && !reached {
            reached = true
            release()
        }
    }

    private func release() {
        guard let subscription else { return }
        subscription.unsubscribe()
        gate.runtime?.forget(subscription)
    }
}
