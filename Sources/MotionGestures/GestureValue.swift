import MotionStreams

/// A snapshot of a recognizer, as gesture streams emit it. Geometry is kept in screen space
/// and converted on request, so a value is a plain struct: no allocation per event.
public struct GestureValue: Sendable, Equatable {
    /// Which recognizer produced the value.
    public var kind: GestureKind
    /// The recognizer's state when the value was written.
    public var state: GestureState
    /// The focused application when the gesture began, as its `AppFocus.serial` (0: none
    /// known); `AppFocus.app(serial:)` gives the app. A 32-bit integer declared here keeps the
    /// value a plain struct of the same size (it fits in the padding before `t`), so values
    /// copied per event cost nothing more.
    public var appSerial: Int32 = 0
    /// Input time of the frame that produced the value.
    public var t: Double
    /// How many pointers the recognizer tracks.
    public var pointers: Int
    /// Centroid of the tracked pointers, screen space.
    public var centroid: Point
    /// Translation since the gesture's pointers went down, screen space (every kind: the centroid's
    /// movement, re-based when pointers come or go).
    public var translation: Point
    /// Radians from the reference vector, y down, unwrapped (rotation).
    public var rotation: Double
    /// Length ratio to the reference vector (scale).
    public var scale: Double
    /// Translation velocity, screen units per second.
    public var velocity: Point
    /// Rotation velocity (rad/s) or scale velocity (1/s) for those kinds.
    public var scalarVelocity: Double
    /// Taps counted (tap).
    public var taps: Int
    /// Which way a swipe went (swipe).
    public var direction: SwipeDirection?
    /// How far a swipe went from where it started, screen units (swipe); its mean speed is
    /// `scalarVelocity`.
    public var distance: Double = 0

    /// A snapshot; recognizers fill in what their kind measures.
    public init(kind: GestureKind, state: GestureState = .possible, t: Double = 0, pointers: Int = 0,
                centroid: Point = .zero, translation: Point = .zero, rotation: Double = 0,
                scale: Double = 1, velocity: Point = .zero, scalarVelocity: Double = 0, taps: Int = 0) {
        self.kind = kind
        self.state = state
        self.t = t
        self.pointers = pointers
        self.centroid = centroid
        self.translation = translation
        self.rotation = rotation
        self.scale = scale
        self.velocity = velocity
        self.scalarVelocity = scalarVelocity
        self.taps = taps
    }

    /// The centroid of the pointers in `element`'s coordinate space.
    @inlinable
    public func location(in element: Element = .screen) -> Point {
        element.convert(fromScreen: centroid)
    }

    /// The translation since the gesture's pointers went down, as a vector in `element`.
    @inlinable
    public func translation(in element: Element = .screen) -> Point {
        element.convertVector(fromScreen: translation)
    }

    /// The translation velocity as a vector in `element`, units per second.
    @inlinable
    public func velocity(in element: Element = .screen) -> Point {
        element.convertVector(fromScreen: velocity)
    }
}
