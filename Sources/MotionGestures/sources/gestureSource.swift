import MotionStreams

/// A stream of a recognizer's snapshots (seed 003, object connection): one at subscription,
/// then one on every state write, every `changed` frame included. Channel order:
/// `state(active)` before every snapshot of an active gesture (began, changed), `next(snapshot)`,
/// then `state(atRest)` after every snapshot of a gesture at rest, as Material Motion's gesture
/// source does: a late subscriber to a derived stream learns the state from the next snapshot.
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
        let isActive = value.state.isActive
        if isActive { observer.state(.active) }
        observer.next(value)
        if !isActive { observer.state(.atRest) }
    }
}
