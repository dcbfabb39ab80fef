import MotionStreams

/// A stream of a recognizer's snapshots (seed 003, object connection): one at subscription,
/// then one on every state write, every `changed` frame included. Channel order:
/// `state(active)` when the gesture becomes active, `next(snapshot)`, then `state(atRest)`
/// when it comes to rest. States are reported on change only.
public func gestureSource(_ recognizer: GestureRecognizer) -> MotionObservable<GestureValue> {
    MotionObservable { observer in
        let connection = GestureConnection(subscribedTo: recognizer, observer: observer)
        return { connection.disconnect() }
    }
}

private final class GestureConnection {
    // Strong until disconnect: a weak reference would give the recognizer a side table and
    // slow down every retain on the per-event path. No cycle: the listener is unowned.
    private var recognizer: GestureRecognizer?
    private let observer: MotionObserver<GestureValue>
    private var listenerID: Int?
    private var lastState: MotionState?

    init(subscribedTo recognizer: GestureRecognizer, observer: MotionObserver<GestureValue>) {
        self.recognizer = recognizer
        self.observer = observer
        // The recognizer keeps the connection alive until disconnect, even if the subscription is dropped.
        listenerID = recognizer.addListener { [self] value in propagate(value) }
        // Populate the observer with the current gesture state.
        propagate(recognizer.value)
    }

    func disconnect() {
        if let listenerID { recognizer?.removeListener(listenerID) }
        listenerID = nil
        recognizer = nil
    }

    private func propagate(_ value: GestureValue) {
        let state = value.state.motionState
        if state == .active && lastState != .active {
            lastState = .active
            observer.state(.active)
        }
        observer.next(value)
        if state == .atRest && lastState != .atRest {
            lastState = .atRest
            observer.state(.atRest)
        }
    }
}
