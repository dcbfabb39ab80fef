/// What a consuming recognizer (`consume = true`) says of the touch on one device after a frame:
/// what the proxy's arbiter (MotionProxy `TouchArbiter`) decides the desktop's clone gets from
/// (docs/desktop.md, "The proxy"). Ordered: the strongest claim of all consumers counts.
public enum ConsumeClaim: Int, Sendable, Comparable {
    /// Nothing this recognizer could take: the touch is none of its business, or it failed.
    case none
    /// It could take the touch only if more fingers come (2 fingers down, 3 wanted): held at
    /// most `TouchArbiter.mostFramesHeldForFingers` frames at the touch's start.
    case couldBecome
    /// It can still take the touch as it is (the right fingers, not past a threshold yet, or a
    /// multi-tap waiting for its next tap): withheld from the clone.
    case matching
    /// It began (or recognized) on this touch: the touch is consumed.
    case began

    /// Weaker than: `.none` < `.couldBecome` < `.matching` < `.began`.
    public static func < (a: ConsumeClaim, b: ConsumeClaim) -> Bool { a.rawValue < b.rawValue }
}
