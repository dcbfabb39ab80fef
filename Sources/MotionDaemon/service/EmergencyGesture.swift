import MotionGestures
import MotionPluginHost

/// The emergency stop's touch gesture: five fingers held still for 3 s — nothing anyone does by
/// accident. It fires at the first frame once they have been down and still that long (a still
/// finger may send no events: at the latest when they lift), once per touch.
public struct EmergencyGesture {
    public var fingers = 5
    public var seconds = 3.0
    /// How far (input units) a finger may move and still count as held still.
    public var maxMovement = 50.0

    /// Where each finger down was when it last counted as still (its anchor).
    struct Anchor {
        var id: Int
        var x: Double
        var y: Double
    }

    /// The fingers down while they are few (the gesture's own case and any hand): searched
    /// linearly, which costs less per frame than hashing each event's id.
    private var few: [Anchor] = []
    /// Past `linearLimit` fingers down (an event file may hold any number), the same in a
    /// dictionary, so a frame moving n fingers costs O(n), not O(n²); back to `few` once all lift.
    private var many: [Int: (x: Double, y: Double)]?
    static let linearLimit = 16
    private var stillSince: Double?
    private var fired = false

    /// Room for `linearLimit` fingers made here, at the daemon's start: the first frame would
    /// otherwise grow the array, and instantiate its storage's type in the Swift runtime (some
    /// 11,000 instructions, docs/performance.md "The first frames"), on the per-frame path.
    public init() { few.reserveCapacity(Self.linearLimit) }

    /// The fingers `few` holds without growing (tests).
    var reservedFingers: Int { few.capacity }

    private var count: Int { many?.count ?? few.count }

    private func index(of id: Int) -> Int? {
        var i = 0
        while i < few.count {
            if few[i].id == id { return i }
            i += 1
        }
        return nil
    }

    /// Feeds a frame; true when the gesture fires with it.
    public mutating func observe(_ frame: Frame) -> Bool {
        var fires = false
        // Judged on the fingers as they were before this frame's lifts.
        if let since = stillSince, !fired, count == fingers, frame.t - since >= seconds {
            fires = true
            fired = true
        }
        for e in frame.events {
            switch e.phase {
            case .down:
                setAnchor(e.id, e.x, e.y)
                stillSince = count == fingers ? frame.t : nil
            case .move:
                if many != nil {
                    if let start = many![e.id], abs(e.x - start.x) > maxMovement || abs(e.y - start.y) > maxMovement {
                        many![e.id] = (e.x, e.y)
                        if count == fingers { stillSince = frame.t }
                    }
                } else if let i = index(of: e.id), abs(e.x - few[i].x) > maxMovement || abs(e.y - few[i].y) > maxMovement {
                    few[i].x = e.x
                    few[i].y = e.y
                    if count == fingers { stillSince = frame.t }
                }
            case .up, .cancel:
                remove(e.id)
                stillSince = nil
            }
        }
        if count == 0 { fired = false }
        return fires
    }

    private mutating func setAnchor(_ id: Int, _ x: Double, _ y: Double) {
        if many != nil {
            many![id] = (x, y)
        } else if let i = index(of: id) {
            few[i] = Anchor(id: id, x: x, y: y)
        } else if few.count < Self.linearLimit {
            few.append(Anchor(id: id, x: x, y: y))
        } else {
            var all: [Int: (x: Double, y: Double)] = [:]
            for anchor in few { all[anchor.id] = (anchor.x, anchor.y) }
            all[id] = (x, y)
            many = all
            few.removeAll()
        }
    }

    private mutating func remove(_ id: Int) {
        if many != nil {
            many![id] = nil
            if many!.isEmpty { many = nil }
        } else if let i = index(of: id) {
            few.remove(at: i)
        }
    }
}

/// The emergency gesture as a stage of the frame chain (`FrameChain.watch`): every frame, paused
/// or not, before the host. The gesture is held here, where the chain reaches it without the
/// service: a frame loads no weak reference; `fired` (the service's pause or resume) is called
/// only when the gesture fires, after the gesture's access ended. Host's thread only
/// (`HostThreadState`: the gesture calls out to nothing while it observes).
public final class EmergencyWatch: FrameWatch {
    let gesture = HostThreadState(EmergencyGesture())
    /// What the gesture does (`DaemonService`: pause, or resume when paused).
    var fired: (() -> Void)?

    public init() {}

    public func observe(_ frame: Frame) {
        if gesture.value.observe(frame) { fired?() }
    }
}
