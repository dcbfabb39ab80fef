import MotionGestures

/// A recording of several devices (evemu with `# motionscript devices: N`) read as one input,
/// as `LiveDeviceSet` reads the devices live: t 0 is the first frame of any device, each
/// device's frames are offset by their timestamps, every event names its device and ids stay
/// unique among the pointers down (`DeviceFrameTagger`). The file holds the devices' events in
/// one timestamp order: time going backwards from one line to the next, whatever the devices,
/// is an error at its place, as in a recording of one device.
final class FileDeviceTimeline {
    private var tagger = DeviceFrameTagger()
    private var ids: [DevicePointerIds]
    /// Each device's t 0 from the shared one, in microseconds; nil until its first frame.
    private var offsets: [Int64?]
    private var origin: (sec: Int64, usec: Int64)?
    private var first: (sec: Int64, usec: Int64)?
    private var lastEventT = 0.0
    private var lastFrameT = 0.0

    init(devices: Int) {
        ids = Array(repeating: DevicePointerIds(), count: devices)
        offsets = Array(repeating: nil, count: devices)
    }

    /// The problem with `event`'s time after the events before it, of any device (nil: fine).
    @inline(__always)
    func check(_ event: InputEventRecord) -> String? {
        // As the decoder: events of unknown types are not data, their time neither.
        guard EV.isKnownType(event.type) else { return nil }
        guard let first else {
            self.first = (event.sec, event.usec)
            return nil
        }
        let t = InputTime.seconds(sec: event.sec, usec: event.usec, sinceSec: first.sec, usec: first.usec)
        if let problem = InputTime.problem(t, after: lastEventT) { return problem }
        lastEventT = t
        return nil
    }

    /// Puts a frame of device `k` (decoded by `decoder`) on the shared time line.
    func place(_ frame: inout Frame, device k: Int, decoder: EvdevDecoder) {
        let offset = offset(of: k, decoder)
        tag(&frame, t: DeviceFrameTagger.shifted(frame.t, by: offset), device: k)
        lastFrameT = frame.t
    }

    /// The pointers still down on every device, cancelled in one frame at the last time of
    /// the input (each device's cancel alone would be stamped with its own last event).
    func finish(_ decoders: [EvdevDecoder]) -> Frame? {
        var t = lastFrameT
        var events: [PointerEvent] = []
        for (k, decoder) in decoders.enumerated() {
            guard let offset = offsets[k] else { continue }
            t = max(t, DeviceFrameTagger.shifted(decoder.lastTime, by: offset))
            guard var cancel = decoder.finish() else { continue }
            tag(&cancel, t: t, device: k)
            events.append(contentsOf: cancel.events)
        }
        guard !events.isEmpty else { return nil }
        for i in events.indices { events[i].t = t }
        return Frame(t: t, events: events)
    }

    private func offset(of k: Int, _ decoder: EvdevDecoder) -> Int64 {
        if let offset = offsets[k] { return offset }
        let o = decoder.origin
        if origin == nil { origin = o }
        // Both within InputTime.maxSpan of the first event (checked), so this fits.
        let seconds = InputTime.seconds(sec: o.sec, usec: o.usec, sinceSec: origin!.sec, usec: origin!.usec)
        let offset = Int64((seconds * 1_000_000).rounded())
        offsets[k] = offset
        return offset
    }

    private func tag(_ frame: inout Frame, t: Double, device k: Int) {
        // Taken out while tagging, so the other devices' can be looked at meanwhile.
        var own = ids[k]
        ids[k] = DevicePointerIds()
        tagger.tag(&frame, t: t, device: nil, ids: &own) { id in
            ids.contains { $0.gives(id) }
        }
        ids[k] = own
    }
}
