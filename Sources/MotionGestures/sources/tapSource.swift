import MotionStreams

/// A stream of tap locations (seed 003, object connection). Each time `tap` is recognized it
/// emits `state(active)`, `next(location)`, `state(atRest)` — an instantaneous activity. The
/// location is the tap's centroid in `element` (default: the recognizer's own element, as the
/// seed reads it in the gesture's view). At subscription it propagates the current state: the
/// same three calls if the recognizer is `recognized` right now, nothing otherwise.
/// Unsubscribing removes the connection's listener from the recognizer.
public func tapSource(_ tap: TapGestureRecognizer, in element: Element? = nil) -> MotionObservable<Point> {
    MotionObservable { observer in
        let connection = TapConnection(subscribedTo: tap, in: element ?? tap.element, observer: observer)
        return { connection.disconnect() }
    }
}

private final class TapConnection {
    private weak var tap: TapGestureRecognizer?
    private let element: Element
    private let observer: MotionObserver<Point>
    private var listenerID: Int?

    init(subscribedTo tap: TapGestureRecognizer, in element: Element, observer: MotionObserver<Point>) {
        self.tap = tap
        self.element = element
        self.observer = observer
        // The recognizer keeps the connection alive until disconnect, even if the subscription is dropped.
        listenerID = tap.addListener { [self] value in propagate(value) }
        // Populate the observer with the current gesture state.
        propagate(tap.value)
    }

    func disconnect() {
        if let listenerID { tap?.removeListener(listenerID) }
        listenerID = nil
        tap = nil
    }

    private func propagate(_ value: GestureValue) {
        guard value.state == .recognized else { return }
        // We simulate an instantaneous active state here.
        observer.state(.active)
        observer.next(value.location(in: element))
        observer.state(.atRest)
    }
}
