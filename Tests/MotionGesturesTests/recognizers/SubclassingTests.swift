// A plain import on purpose: this file sees only the public API, as a package depending on
// MotionGestures would.
import Testing
import MotionStreams
import MotionGestures

/// A recognizer written outside the module: active while at least two pointers are down; its
/// value's translation is the centroid's offset from where the second pointer went down.
private final class TwoPointerHold: GestureRecognizer {
    private var origin: Point?

    init() { super.init(kind: .translation, element: .screen) }

    override func process(t: Double) {
        if pointers.count >= 2 {
            let start = origin ?? centroid
            origin = start
            value.centroid = centroid
            value.translation = centroid - start
            write(state: state.isActive ? .changed : .began)
        } else if state.isActive {
            origin = nil
            write(state: .ended)
        }
    }
}

@Test func aRecognizerSubclassedOutsideTheModuleDrivesAGestureStream() {
    let hold = TwoPointerHold()
    var seen: [String] = []
    let subscription = gestureSource(hold).subscribe(next: { g in
        seen.append("\(g.state.rawValue) \(g.pointers) \(g.translation.x)")
    })
    let frames: [[PointerEvent]] = [
        [PointerEvent(t: 0, id: 1, phase: .down, x: 0, y: 0)],
        [PointerEvent(t: 0.1, id: 2, phase: .down, x: 100, y: 0)],
        [PointerEvent(t: 0.2, id: 2, phase: .move, x: 120, y: 0)],
        [PointerEvent(t: 0.3, id: 1, phase: .up, x: 0, y: 0)],
    ]
    for events in frames { hold.handle(Frame(t: events[0].t, events: events)) }
    subscription.unsubscribe()
    // At `ended` a gesture value reports the pointers the gesture had (2), not those left down.
    #expect(seen == ["possible 0 0.0", "began 2 0.0", "changed 2 10.0", "ended 2 10.0"])
}
