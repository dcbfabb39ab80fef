import MotionGestures

/// The pointers down now, each at its latest position, and the time of the last frame: what a
/// new version of a script is handed at a reload (`ReloadingPipeline`), so a drag in progress
/// goes on. One per pipeline for `run --watch`; the daemon keeps one for all its plugins and
/// tracks each frame once (`PluginHost`), instead of once per plugin.
public final class PointersDown {
    /// In the order they went down; a handful at most, so a linear search beats hashing.
    private var events: [PointerEvent] = []
    public private(set) var lastFrameTime = 0.0

    public init() {}

    /// Notes which pointers a frame put down, moved or lifted.
    public func track(_ frame: Frame) {
        if frame.t > lastFrameTime { lastFrameTime = frame.t }
        // By index: an event is copied (its device retained) only when it is kept whole.
        var k = 0
        while k < frame.events.count {
            let i = index(of: frame.events[k].id)
            switch frame.events[k].phase {
            case .down, .move:
                if let i {
                    Self.update(&events[i], to: frame.events, k)
                } else {
                    events.append(frame.events[k])
                }
            default:
                if let i { events.remove(at: i) }
            }
            k += 1
        }
    }

    /// The same pointer on the same device (every move): its place, time and phase, without
    /// counting a reference to the device once more (one access to the array, not four).
    @inline(__always)
    private static func update(_ down: inout PointerEvent, to events: [PointerEvent], _ k: Int) {
        if down.device === events[k].device {
            down.t = events[k].t
            down.phase = events[k].phase
            down.x = events[k].x
            down.y = events[k].y
        } else {
            down = events[k]
        }
    }

    private func index(of id: Int) -> Int? {
        var i = 0
        while i < events.count {
            if events[i].id == id { return i }
            i += 1
        }
        return nil
    }

    public var isEmpty: Bool { events.isEmpty }

    /// The pointers down, by id.
    public var all: [PointerEvent] { events.sorted { $0.id < $1.id } }

    /// The pointers down, by id, each as `phase` at `t` where it is now, its device kept: what a
    /// reload's new version gets (`.down`), and the plugins at a pause (`.cancel`) and a resume.
    public func handedOver(as phase: PointerPhase, at t: Double) -> [PointerEvent] {
        all.map {
            var e = $0
            e.t = t
            e.phase = phase
            return e
        }
    }
}
