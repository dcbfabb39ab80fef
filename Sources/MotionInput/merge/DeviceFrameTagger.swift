import MotionGestures

/// Frames of several devices on one time line (`LiveDeviceSet`, and multi-device evemu
/// recordings, so a replay gives the ids the live run gave): every event takes the frame's
/// time and names its device, and pointer ids stay unique among the pointers down: an id
/// already down on another device is replaced by a fresh one (from 1,000,000) until that
/// pointer lifts.
struct DeviceFrameTagger {
    private var nextFreshId = 1_000_000

    /// `ids`: the device's own id → the id given out, for its pointers down. `downElsewhere`
    /// says whether another device has an id down. `device` nil keeps what the events name.
    mutating func tag(_ frame: inout Frame, t: Double, device: PointerDevice?, ids: inout DevicePointerIds,
                      downElsewhere: (Int) -> Bool) {
        frame.t = t
        for k in frame.events.indices {
            let raw = frame.events[k].id
            let phase = frame.events[k].phase
            // A device with no pointer down under another id keeps its own (no search).
            var id = ids.isEmpty ? raw : ids[raw] ?? raw
            if phase == .down {
                if downElsewhere(id) {
                    id = nextFreshId
                    nextFreshId += 1
                }
                ids[raw] = id
            }
            // Only what changes is written: a live frame's events array is shared with its
            // decoder, and a write would copy it (an allocation per frame). The write is a call
            // of its own, so no mutable access to the array (which makes it unique) is begun
            // for a frame that needs none.
            if frame.events[k].id != id || frame.events[k].t != t || (device != nil && frame.events[k].device !== device) {
                Self.write(&frame.events, at: k, id: id, t: t, device: device)
            }
            if phase == .up || phase == .cancel { ids[raw] = nil }
        }
    }

    @inline(never)
    private static func write(_ events: inout [PointerEvent], at k: Int, id: Int, t: Double, device: PointerDevice?) {
        if events[k].id != id { events[k].id = id }
        if events[k].t != t { events[k].t = t }
        if let device, events[k].device !== device { events[k].device = device }
    }

    /// `t` moved by `offset` microseconds, in whole microseconds so it stays the correctly
    /// rounded decimal the decoder gave.
    static func shifted(_ t: Double, by offset: Int64) -> Double {
        offset == 0 ? t : Double(Int64((t * 1_000_000).rounded()) &+ offset) / 1_000_000
    }
}
