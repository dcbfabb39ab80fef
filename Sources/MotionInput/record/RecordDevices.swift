import MotionGestures

/// Records the devices of `set` into one recording of several devices until input ends or is
/// stopped (`set.stop()`, or a byte on its control's stop descriptor from a SIGINT handler): the
/// devices open at the start, in their order. Each device's raw events go into a ring on its reader; they are
/// written in one timestamp order once no event still to be read can come before them: a
/// second behind the newest event of any device (an event later than that is written at the
/// time of the one before it, and counted). `focusChanges` as for one device.
@discardableResult
public func recordEvemu(from set: LiveDeviceSet, to path: String, axes: [UInt16: AbsInfo] = [:],
                        focusChanges: (() -> [AppInfo?])? = nil) throws -> (events: Int, endReason: String, lateEvents: Int) {
    let members = set.members
    var devices: [(description: DeviceDescription, keptKind: String?)] = []
    var rings: [RawEventRing] = []
    for member in members {
        var description = member.device.reader.device
        for (code, info) in axes {
            description.absinfo[code] = info
            description.add(type: EV.ABS, code: code)
        }
        if description.name.isEmpty { description.name = member.tag.name }
        devices.append((description, member.tag.kind))
        // Emptied after every wake-up, so a ring of this size holds more than one read gives.
        let ring = RawEventRing(capacity: 65_536)
        member.device.reader.recorder = ring
        rings.append(ring)
    }
    let recording = MergedRecording(writer: try EvemuWriter(path: path, devices: devices), devices: devices.count)
    var newest = Int64.min
    func take() {
        for (k, ring) in rings.enumerated() {
            ring.drain { event in
                recording.append(event, device: k)
                newest = max(newest, event.sec &* 1_000_000 &+ event.usec)
            }
        }
    }
    while true {
        for app in focusChanges?() ?? [] {
            recording.noteFocus(app, at: Int64((LiveEventReader.now() * 1_000_000).rounded()))
        }
        let next = try set.nextFrame(timeout: focusPollInterval)
        take()
        if case .end(let reason) = next {
            try recording.finish()
            return (recording.written, reason, recording.lateEvents)
        }
        if newest > Int64.min { try recording.flush(upTo: newest - 1_000_000) }
    }
}
