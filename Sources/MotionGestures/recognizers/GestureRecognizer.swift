import MotionStreams

/// The common part of every recognizer: which pointers it follows (those that go down inside
/// its element while it is enabled), its state, its current value and its listeners.
/// Subclasses implement `process(t:)`, called once per frame that touched their pointers, and
/// may implement `advance(to:)` for decisions that fall due with time alone (a tap's interval).
///
/// Input time: recognizers only know the time the input tells them. `handle(_:)` first advances
/// to the frame's time; a host that wants time-based decisions without a frame (end of input)
/// calls `advance(to:)` (`PointerDispatcher.advance(to:)` / `finish()` do it for all).
open class GestureRecognizer {
    public let element: Element
    /// A disabled recognizer takes no new pointers. Disabling it drops the pointers it tracks:
    /// an active gesture is cancelled (listeners see `cancelled`), anything else silently
    /// returns to `possible`.
    public var isEnabled = true {
        didSet {
            guard oldValue && !isEnabled else { return }
            if state.isActive { write(state: .cancelled) }
            reset()
        }
    }
    /// The current snapshot; `value.state` is the recognizer state.
    public internal(set) var value: GestureValue
    public var state: GestureState { value.state }

    /// Tracked pointers in touch-down order, as of the end of the current frame.
    public internal(set) var pointers: [TrackedPointer] = []
    /// Pointers that lifted in the current frame, with the position they lifted at.
    public internal(set) var lifted: [TrackedPointer] = []
    /// Whether a tracked pointer was cancelled in the current frame (all are then dropped).
    public internal(set) var wasCancelled = false

    private var listeners = ListenerList<(GestureValue) -> Void>()

    public init(kind: GestureKind, element: Element) {
        self.element = element
        value = GestureValue(kind: kind)
        pointers.reserveCapacity(10)
        lifted.reserveCapacity(10)
    }

    /// How many pointers the recognizer follows at most.
    open var maximumPointers: Int { Int.max }

    /// Feeds one input frame. Time first advances to the frame's time (see `advance(to:)`);
    /// then frames that do not touch this recognizer's pointers are ignored.
    public func handle(_ frame: Frame) {
        advance(to: frame.t)
        if value.state == .ended || value.state == .cancelled || value.state == .failed
            || value.state == .recognized {
            value.state = .possible  // the silent reset after a final state
        }
        lifted.removeAll(keepingCapacity: true)
        wasCancelled = false
        for i in pointers.indices {
            pointers[i].start = pointers[i].position
            pointers[i].existedBefore = true
        }
        var touched = false
        for event in frame.events {
            switch event.phase {
            case .down:
                guard isEnabled, !wasCancelled, pointers.count < maximumPointers,
                      index(of: event.id) == nil, element.contains(event.point), accepts(event.device) else { continue }
                pointers.append(TrackedPointer(id: event.id, downPosition: event.point, downTime: frame.t,
                                               start: event.point, position: event.point,
                                               existedBefore: false))
                touched = true
            case .move:
                guard let i = index(of: event.id) else { continue }
                pointers[i].position = event.point
                touched = true
            case .up:
                guard let i = index(of: event.id) else { continue }
                var pointer = pointers.remove(at: i)
                pointer.position = event.point
                lifted.append(pointer)
                touched = true
            case .cancel:
                guard index(of: event.id) != nil else { continue }
                wasCancelled = true
                touched = true
            }
        }
        if wasCancelled {
            lifted.append(contentsOf: pointers)
            pointers.removeAll(keepingCapacity: true)
        }
        guard touched else { return }
        value.t = frame.t
        process(t: frame.t)
    }

    /// Computes the new value and state after the frame's pointer changes were applied.
    open func process(t: Double) {}

    /// Makes the decisions that fall due when input time reaches `t` with no new input (a tap
    /// that waited past its interval fails). Called by `handle(_:)` before each frame and by the
    /// host for the end of input (`advance(to: .infinity)`); decisions are stamped with the time
    /// they fell due, not with `t`. Time never goes back: an earlier `t` does nothing.
    open func advance(to t: Double) {}

    /// `devices = "touchpad"` (or a list): only pointers from live devices matching one of these
    /// (a kind, or a name glob; see `PointerDevice.matches`) go down for this recognizer. Pointers
    /// without a device (event files) always do. Nil: every device.
    public var devices: [String]?

    @inline(__always)
    func accepts(_ device: PointerDevice?) -> Bool {
        guard let devices, let device else { return true }
        return devices.contains { device.matches($0) }
    }

    /// The earliest input time at which `advance(to:)` would decide something without new input
    /// (nil: nothing waits on time). A live host sleeps until then, so decisions come out on time
    /// while no input arrives.
    open var nextDecisionTime: Double? { nil }

    /// Whether the recognizer is in the middle of something (tracking pointers, or a tap waiting
    /// for its next tap): what `TapGestureRecognizer.require(toFail:)` waits on.
    open var isInProgress: Bool { !pointers.isEmpty }

    /// Drops every pointer and returns to possible without notifying (used when disabled).
    public func reset() {
        pointers.removeAll(keepingCapacity: true)
        lifted.removeAll(keepingCapacity: true)
        value.state = .possible
        value.pointers = 0
        didReset()
    }

    /// Subclasses clear their per-gesture state here (called by `reset()`).
    open func didReset() {}

    /// Writes a state and notifies every listener with the new snapshot.
    public func write(state: GestureState) {
        value.state = state
        value.pointers = pointers.count
        listeners.forEach { $0(value) }
    }

    @discardableResult
    public func addListener(_ call: @escaping (GestureValue) -> Void) -> Int {
        listeners.add(call)
    }

    public func removeListener(_ id: Int) {
        listeners.remove(id)
    }

    public var listenerCount: Int { listeners.count }

    /// Centroid of the tracked pointers (screen space); `.zero` with none.
    public var centroid: Point {
        guard !pointers.isEmpty else { return .zero }
        var sum = Point.zero
        for pointer in pointers { sum = sum + pointer.position }
        return sum / Double(pointers.count)
    }

    /// Whether the set of tracked pointers changed in this frame (a re-base is due).
    public var pointerSetChanged: Bool {
        !lifted.isEmpty || pointers.contains { !$0.existedBefore }
    }

    /// Mean movement in this frame of the pointers that were tracked before it, lifted ones
    /// included: what carries a value across a change of pointers without a jump.
    public var meanMovementOfPersistingPointers: Point {
        var sum = Point.zero
        var n = 0
        for pointer in pointers where pointer.existedBefore {
            sum = sum + (pointer.position - pointer.start)
            n += 1
        }
        for pointer in lifted where pointer.existedBefore && !wasCancelled {
            sum = sum + (pointer.position - pointer.start)
            n += 1
        }
        return n == 0 ? .zero : sum / Double(n)
    }

    @inline(__always)
    private func index(of id: Int) -> Int? {
        for i in pointers.indices where pointers[i].id == id { return i }
        return nil
    }
}
