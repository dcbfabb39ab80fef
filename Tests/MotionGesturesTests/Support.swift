import MotionStreams
@_exported import MotionTestSupport
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

func gestureValue(_ state: GestureState, translation: Point = .zero, rotation: Double = 0,
                  scale: Double = 1) -> GestureValue {
    GestureValue(kind: .translation, state: state, translation: translation, rotation: rotation, scale: scale)
}

func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }
func close(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}
