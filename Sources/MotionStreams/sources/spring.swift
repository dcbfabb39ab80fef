import Foundation

/// Spring defaults (Material Motion): stiffness 342, damping 30, mass 1.
public enum SpringDefaults {
    /// Default stiffness (Material Motion's).
    public static let stiffness = 342.0
    /// Default damping.
    public static let damping = 30.0
    /// Default mass.
    public static let mass = 1.0
    /// At rest once the value is within this of the destination and moves less than this per frame.
    public static let restThreshold = 0.001
    /// Time between emitted values: 60 per second of input time.
    public static let frameInterval = 1.0 / 60
}

/// A damped spring from `initial` (moving at `initialVelocity` per second) to `destination`,
/// on input time (seed 003, inline connection): the spring is created and started inside
/// `connect` and stopped on disconnect. Each subscription emits `state(active)` and
/// `next(initial)` at once, then one value every `frameInterval` of input time on `clock` (the
/// exact solution of m·x'' = −k·(x − destination) − c·x' at that time, so the values do not
/// depend on the frame rate), and when at rest `next(destination)` and `state(atRest)`.
/// Throws `OptionError` for a stiffness, damping, mass or frame interval that is not positive,
/// and for an end, start or velocity that is not finite (a NaN never comes to rest).
/// Should a value still come out non-finite (ends so far apart that the arithmetic overflows),
/// the spring stops there, and `onFailure` says why: no NaN or infinity is ever emitted.
public func spring<T: MotionVector>(to destination: T, from initial: T, initialVelocity: T = .zero,
                                    stiffness: Double = SpringDefaults.stiffness,
                                    damping: Double = SpringDefaults.damping,
                                    mass: Double = SpringDefaults.mass,
                                    restThreshold: Double = SpringDefaults.restThreshold,
                                    frameInterval: Double = SpringDefaults.frameInterval,
                                    on clock: InputClock,
                                    onFailure: @escaping (String) -> Void = { _ in }) throws -> MotionObservable<T> {
    let curve = try SpringCurve(stiffness: stiffness, damping: damping, mass: mass)
    try OptionError.check(restThreshold > 0 && restThreshold.isFinite, "restThreshold", restThreshold, "> 0")
    try OptionError.check(frameInterval > 0 && frameInterval.isFinite, "frameInterval", frameInterval, "> 0")
    try OptionError.check(destination.isFinite, "to", destination, "finite")
    try OptionError.check(initial.isFinite, "from", initial, "finite")
    try OptionError.check(initialVelocity.isFinite, "velocity", initialVelocity, "finite")
    try OptionError.check((initial - destination).isFinite, "from", initial, "within a finite distance of 'to'")
    return MotionObservable { observer in
        let spring = Spring(curve: curve, from: initial, to: destination, velocity: initialVelocity,
                            restThreshold: restThreshold, frameInterval: frameInterval, clock: clock)
        spring.onFailure = onFailure
        spring.onActivate = { observer.state(.active) }
        spring.onValue = observer.next
        spring.onCompletion = { observer.state(.atRest) }
        spring.start()
        return { spring.stop() }
    }
}

/// The unit responses of a damped spring: displacement(τ) = x0·f(τ) + v0·g(τ).
struct SpringCurve {
    let omega: Double  // undamped angular frequency √(k/m)
    let zeta: Double   // damping ratio c / (2√(km))

    init(stiffness: Double, damping: Double, mass: Double) throws {
        try OptionError.check(stiffness > 0 && stiffness.isFinite, "stiffness", stiffness, "> 0")
        try OptionError.check(damping > 0 && damping.isFinite, "damping", damping, "> 0")
        try OptionError.check(mass > 0 && mass.isFinite, "mass", mass, "> 0")
        omega = (stiffness / mass).squareRoot()
        zeta = damping / (2 * (stiffness * mass).squareRoot())
    }

    /// (f, g) at time τ.
    func response(at t: Double) -> (f: Double, g: Double) {
        if zeta < 1 {
            let wd = omega * (1 - zeta * zeta).squareRoot()
            let decay = exp(-zeta * omega * t)
            return (decay * (cos(wd * t) + zeta * omega / wd * sin(wd * t)), decay * sin(wd * t) / wd)
        } else if zeta == 1 {
            let decay = exp(-omega * t)
            return (decay * (1 + omega * t), decay * t)
        } else {
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -omega * (zeta - root), r2 = -omega * (zeta + root)
            let e1 = exp(r1 * t), e2 = exp(r2 * t)
            return ((r1 * e2 - r2 * e1) / (r1 - r2), (e1 - e2) / (r1 - r2))
        }
    }
}

/// A spring running on an input clock (what `spring(to:…)` starts and stops).
final class Spring<T: MotionVector> {
    var onActivate: () -> Void = {}
    var onValue: (T) -> Void = { _ in }
    var onCompletion: () -> Void = {}
    var onFailure: (String) -> Void = { _ in }

    private let curve: SpringCurve
    private let initial: T, destination: T, velocity: T
    private let restThreshold: Double, frameInterval: Double
    private let clock: InputClock
    private var startTime = 0.0
    private var step = 0
    private var scheduled: ScheduledAction?

    init(curve: SpringCurve, from initial: T, to destination: T, velocity: T,
         restThreshold: Double, frameInterval: Double, clock: InputClock) {
        self.curve = curve
        self.initial = initial
        self.destination = destination
        self.velocity = velocity
        self.restThreshold = restThreshold
        self.frameInterval = frameInterval
        self.clock = clock
    }

    func start() {
        startTime = clock.now
        step = 0
        onActivate()
        onValue(initial)
        if isAtRest(displacement: initial - destination, movedPerFrame: velocity.magnitude * frameInterval) {
            finish()
        } else {
            scheduleNext()
        }
    }

    func stop() {
        scheduled?.cancel()
        scheduled = nil
    }

    private func scheduleNext() {
        scheduled = clock.schedule(at: startTime + Double(step + 1) * frameInterval) { [weak self] in self?.tick() }
    }

    private func tick() {
        step += 1
        let t = Double(step) * frameInterval
        let x0 = initial - destination
        let (f, g) = curve.response(at: t)
        let displacement = x0 * f + velocity * g
        let (fPrevious, gPrevious) = curve.response(at: t - frameInterval)
        let movedPerFrame = (displacement - (x0 * fPrevious + velocity * gPrevious)).magnitude
        guard (destination + displacement).isFinite, movedPerFrame.isFinite else {
            // Never at rest and never a number: stop instead of running (and writing) forever.
            stop()
            onFailure("the spring's value is not finite (from \(initial) to \(destination), velocity \(velocity)); stopped")
            return
        }
        if isAtRest(displacement: displacement, movedPerFrame: movedPerFrame) {
            finish()
        } else {
            onValue(destination + displacement)
            scheduleNext()
        }
    }

    private func isAtRest(displacement: T, movedPerFrame: Double) -> Bool {
        displacement.magnitude < restThreshold && movedPerFrame < restThreshold
    }

    private func finish() {
        scheduled = nil
        onValue(destination)
        onCompletion()
    }
}
