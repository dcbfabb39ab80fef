import MotionGestures
import MotionStreams

/// A stream composed in Lua.
public final class LuaStream {
    public let observable: MotionObservable<MotionValue>
    /// For `motion.gesture(r)`: the same snapshots unboxed, with the recognizer's kind, so gesture
    /// operators applied to it skip boxing every snapshot in a MotionValue and back.
    public let gestures: (source: MotionObservable<GestureValue>, kind: GestureKind)?
    /// For the points and numbers Swift operators make (`translation(addedTo)`, `rotation(addedTo)`
    /// …): the same values unboxed, so `subscribe(property)` takes them without a MotionValue
    /// made and copied per value on the way.
    let unboxed: UnboxedValues?
    /// The longest chain of operators from a source to this stream: subscribing recurses
    /// through it, and so does every value (see `StreamMethods.maxChainDepth`).
    let depth: Int
    /// The operators one subscription to this stream connects, a stream used twice counted
    /// twice (see `StreamMethods.maxConnections`).
    let connections: Int
    /// `motion.pointers()` itself: a Lua function subscribed to it is registered with the
    /// dispatcher directly, so each event reaches it without the stream machinery.
    var isPointers = false
    /// Used by an operator, a subscription or as an argument: a stream made during setup and
    /// never used gets a note (see `LuaRuntime.noteUnusedStreams`).
    var used = false

    public convenience init(_ observable: MotionObservable<MotionValue>,
                gestures: (source: MotionObservable<GestureValue>, kind: GestureKind)? = nil) {
        self.init(observable, gestures: gestures, depth: 1, connections: 1)
    }

    init(_ observable: MotionObservable<MotionValue>,
         gestures: (source: MotionObservable<GestureValue>, kind: GestureKind)? = nil, depth: Int, connections: Int,
         unboxed: UnboxedValues? = nil) {
        self.observable = observable
        self.gestures = gestures
        self.unboxed = unboxed
        self.depth = depth
        self.connections = connections
    }
}

/// A stream's values before they are boxed as `.point` or `.number` (see `LuaStream.unboxed`).
enum UnboxedValues {
    case points(MotionObservable<Point>)
    case numbers(MotionObservable<Double>)
}

/// `motion.property(initial)`: a reactive property of any value, also usable as a stream.
public final class LuaProperty {
    public let property: ReactiveProperty<MotionValue>
    /// Guards against a property written from its own subscription, endlessly.
    var writeDepth = 0
    public init(_ initial: MotionValue) { property = ReactiveProperty(initial) }
}

/// A recognizer made by the script.
public final class RecognizerBox {
    public let recognizer: GestureRecognizer
    public init(_ recognizer: GestureRecognizer) { self.recognizer = recognizer }
}

/// `motion.element{...}`.
public final class ElementBox {
    public let element: Element
    public init(_ element: Element) { self.element = element }
}

/// What `subscribe` returns to Lua. The runtime keeps the subscription itself alive, so a
/// script need not keep this handle for its subscription to last.
public final class SubscriptionBox {
    public let subscription: Subscription
    public init(_ subscription: Subscription) { self.subscription = subscription }
}
