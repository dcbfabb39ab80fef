import MotionGestures

/// Among the consuming recognizers (`consume = true`) of every plugin, what the touch on one
/// device is claimed as, and who takes it (docs/desktop.md, "Several consumers"):
/// - the strongest claim counts: one that began > one still matching > one waiting for fingers;
/// - the first consumer to begin takes the touch; when several begin in the same frame, the
///   first in the host's order (plugins in load order, each plugin's recognizers in creation
///   order) does;
/// - every other consumer following that touch is then cancelled, as if it required the winner
///   to fail (`requireToFail`): it fails, or is cancelled if it was active, and ignores the
///   touch's fingers until they lift. Recognizers that do not consume are never touched: they
///   see every touch, consumed or not.
/// `each` walks the consumers in that order (it must allocate nothing: called once per frame).
public enum ConsumerArbitration {
    public static func claim(on device: PointerDevice?, at t: Double,
                             each: ((GestureRecognizer) -> Void) -> Void) -> ConsumeClaim {
        var strongest = ConsumeClaim.none
        var winner: GestureRecognizer?
        each { r in
            guard r.consumes else { return }
            let claim = r.consumeClaim(on: device)
            if claim == .began, winner == nil { winner = r }
            if claim > strongest { strongest = claim }
        }
        guard strongest == .began else { return strongest }
        each { r in
            guard r.consumes, r !== winner else { return }
            if let winner, r.consumeClaim(on: device) != .none { r.yieldTouch(to: winner, at: t) }
        }
        _ = winner?.takeConsumeBegan()
        return .began
    }
}
