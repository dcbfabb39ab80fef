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
        for event in frame.events {
            let i = index(of: event.id)
            switch event.phase {
            case .down, .move:
                if let i {
                    // The same pointer on the same device (every move): its place, time and
                    // phase, without counting a reference to the device once more.
                    if events[i].device === event.device {
                        events[i].t = event.t
                        events[i].phase = event.phase
                        events[i].x = event.x
                        events[i].y = event.y
                    } else {
                        events[i] = event
                    }
                } else {
                    events.append(event)
                }
            default:
                if let i { events.remove(at: i) }
            }
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
}
