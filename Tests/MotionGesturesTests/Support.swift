import MotionStreams
@testable import MotionGestures

/// One input frame at time `t`: `(id, phase, x, y)` per pointer change.
func frame(_ t: Double, _ events: (Int, PointerPhase, Double, Double)...) -> Frame {
    Frame(t: t, events: events.map { PointerEvent(t: t, id: $0.0, phase: $0.1, x: $0.2, y: $0.3) })
}

/// Everything a recognizer writes, in order.
final class GestureLog {
    private(set) var values: [GestureValue] = []
    var states: [GestureState] { values.map(\.state) }
    var last: GestureValue? { values.last }

    init(_ recognizer: GestureRecognizer) {
        recognizer.addListener { [weak self] in self?.values.append($0) }
    }
}

/// Records what a stream emits, channels interleaved in arrival order.
final class Recorder<T> {
    enum Event { case next(T), state(MotionState) }
    private(set) var events: [Event] = []
    var values: [T] { events.compactMap { if case .next(let v) = $0 { v } else { nil } } }
    var states: [MotionState] { events.compactMap { if case .state(let s) = $0 { s } else { nil } } }
    var subscription: Subscription!

    init(_ stream: MotionObservable<T>) {
        subscription = stream.subscribe(next: { [weak self] in self?.events.append(.next($0)) },
                                        state: { [weak self] in self?.events.append(.state($0)) })
    }
}

/// A hot stream driven by hand: `send` reaches every current observer.
final class Subject<T> {
    private var observers: [Int: MotionObserver<T>] = [:]
    private var nextID = 0
    var stream: MotionObservable<T> {
        MotionObservable { [self] observer in
            let id = nextID
            nextID += 1
            observers[id] = observer
            return { [self] in observers[id] = nil }
        }
    }
    func send(_ value: T) { for observer in observers.values { observer.next(value) } }
}

func gestureValue(_ state: GestureState, translation: Point = .zero, rotation: Double = 0,
                  scale: Double = 1) -> GestureValue {
    GestureValue(kind: .translation, state: state, translation: translation, rotation: rotation, scale: scale)
}

func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }
func close(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}
