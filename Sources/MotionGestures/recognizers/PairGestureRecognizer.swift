import MotionStreams

/// The common part of the rotation and scale recognizers (seeds 002/004): both measure the
/// vector from the first tracked pointer to the second, in touch-down order, against the
/// reference vector taken when that pair formed. Pointers beyond the first two do not affect
/// the value; when one of the pair lifts while another pointer remains, the next pointer in
/// touch-down order takes its place and the reference is re-based so the value does not jump.
///
/// A gesture starts with the first pointer down. States: possible → began (the first frame with
/// a pair whose value is past `threshold`) → changed… → ended (fewer than two pointers remain)
/// | cancelled (input cancel); possible → failed when every pointer lifts, or input is
/// cancelled, before the threshold was passed. While possible, a pair that breaks leaves the
/// value at its neutral value and the next pair measures afresh. After the end, pointers still
/// down are ignored until a new pointer goes down, which starts the next gesture.
public class PairGestureRecognizer: GestureRecognizer {
    /// How far from the neutral value the value must get (strictly) before the gesture begins.
    public let threshold: Double

    private var pair: (first: Int, second: Int)?
    private var gestureOpen = false
    private var tracker = VelocityTracker()

    private var translationReference = Point.zero

    init(kind: GestureKind, element: Element, threshold: Double) throws {
        try RecognizerOptionError.check(threshold >= 0 && threshold.isFinite, "threshold", threshold, ">= 0 and finite")
        self.threshold = threshold
        super.init(kind: kind, element: element)
        resetMeasure()
    }

    // MARK: What a subclass measures

    /// The current value (`value.rotation` or `value.scale`).
    var measure: Double { 0 }
    /// Sets the value to its neutral value (0 or 1) and forgets the reference.
    func resetMeasure() {}
    /// Takes `vector` as the new reference, keeping the current value (re-base).
    func rebase(on vector: Point) {}
    /// Updates the value for the pair's current `vector`.
    func update(with vector: Point) {}
    /// Whether the value is past the threshold.
    var isPastThreshold: Bool { false }
    /// How far the value is from its neutral value, as the threshold is compared (for reasons).
    var excursion: Double { 0 }
    /// The unit of the threshold (for reasons).
    var thresholdUnit: RecognizerReason.Unit { .relative }

    // MARK: The state machine

    public override func process(t: Double) {
        if !gestureOpen {
            guard pointers.contains(where: { !$0.existedBefore }) else { return }
            gestureOpen = true
            value.translation = .zero
            pair = nil
            resetMeasure()
            tracker.reset()
        }
        let previous = measure
        // g:translation(): the centroid's movement, as for a drag (pinch and pan at once).
        let centroid = self.centroid
        if !wasCancelled { followTranslation(reference: &translationReference, centroid: centroid) }
        let newPair = pointers.count >= 2 ? (first: pointers[0].id, second: pointers[1].id) : nil
        if let old = pair {
            if let newPair, newPair == old {
                update(with: pointers[1].position - pointers[0].position)
            } else {
                // The pair changed: first carry the old pair's movement in this frame, then
                // re-base on the new pair (a cancelled frame has no trustworthy positions).
                if !wasCancelled, let a = position(of: old.first), let b = position(of: old.second) {
                    update(with: b - a)
                }
                if let newPair {
                    rebase(on: position(of: newPair.second)! - position(of: newPair.first)!)
                }
            }
        } else if newPair != nil {
            resetMeasure()
            tracker.reset()
            rebase(on: pointers[1].position - pointers[0].position)
        }
        pair = newPair
        if !pointers.isEmpty { value.centroid = centroid }  // computed once, above

        let ending = wasCancelled || pointers.isEmpty || (state.isActive && newPair == nil)
        if newPair != nil || (ending && measure != previous) {
            tracker.add(t: t, x: measure)
        }
        value.scalarVelocity = tracker.velocity(at: t).x

        if ending {
            let final: GestureState = state.isActive ? (wasCancelled ? .cancelled : .ended) : .failed
            write(state: final, because: observer == nil ? nil : endReason)
            value.translation = .zero
            gestureOpen = false
            pair = nil
            resetMeasure()
            tracker.reset()
            value.scalarVelocity = 0
            return
        }
        switch state {
        case .began, .changed:
            write(state: .changed)
        default:
            if newPair != nil && isPastThreshold && hasRequiredFingers {
                write(state: .began, because: observer == nil ? nil
                    : RecognizerReason(.pastThreshold, value: excursion, limit: threshold, unit: thresholdUnit))
            } else {
                value.pointers = pointers.count
            }
        }
    }

    /// Before a gesture opens (or after it ended, its pointers still down) a move does nothing;
    /// without a pair it moves only the centroid and translation, and the velocity is read
    /// anew at the frame's time from samples no such frame adds. A pair measures every frame.
    public override var movesAreQuiet: Bool {
        isIgnoringUntilLift || state == .possible && (!gestureOpen || pointers.count < 2)
    }

    public override func didReset() {
        value.translation = .zero
        gestureOpen = false
        pair = nil
        resetMeasure()
        tracker.reset()
        value.scalarVelocity = 0
    }

    /// Why the gesture ends or fails now.
    private var endReason: RecognizerReason {
        if wasCancelled { return RecognizerReason(.inputCancelled) }
        if state.isActive { return RecognizerReason(.lifted) }
        let needed = max(2, fingers ?? 2)
        if peakPointers < needed {
            return RecognizerReason(.tooFewFingers, value: Double(peakPointers), limit: Double(needed), unit: .fingers)
        }
        return RecognizerReason(.belowThreshold, value: excursion, limit: threshold, unit: thresholdUnit)
    }

    /// Where a pointer is at the end of this frame, lifted ones included.
    private func position(of id: Int) -> Point? {
        if let pointer = pointers.first(where: { $0.id == id }) { return pointer.position }
        return lifted.first(where: { $0.id == id })?.position
    }
}
