import MotionInput
import MotionGestures

/// The daemon's flight recorder: the last raw input of every device it reads, each in a ring
/// of its own (`RawEventRing`, on the device's reader), so `ctl record` can turn what just
/// happened into a recording. The window is `seconds` long; the rings' capacity bounds memory
/// whatever the event rate (`maxEventsPerDevice` × 32 bytes).
public final class FlightRecorder {
    public var seconds: Double
    public let maxEventsPerDevice: Int

    struct Track {
        let node: String
        let tag: PointerDevice
        let description: DeviceDescription
        let ring: RawEventRing
    }

    private var tracks: [Track] = []

    /// 60 s; 120,000 events a device (a touchpad at 125 Hz with five fingers sends ~9,000 events
    /// a minute, a touchscreen at 240 Hz some 30,000): ~4 MB at most.
    public init(seconds: Double = 60, maxEventsPerDevice: Int = 120_000) {
        self.seconds = seconds
        self.maxEventsPerDevice = maxEventsPerDevice
    }

    /// Gives every device of `set` without a ring one (devices plugged in since included).
    public func attach(to set: LiveDeviceSet) {
        guard seconds > 0 else { return }
        for member in set.members where member.device.reader.recorder == nil {
            let ring = tracks.first { $0.node == member.node }?.ring ?? RawEventRing(capacity: maxEventsPerDevice)
            member.device.reader.recorder = ring
            tracks.removeAll { $0.node == member.node }
            tracks.append(Track(node: member.node, tag: member.tag, description: member.device.reader.device, ring: ring))
        }
    }

    public struct Written: Equatable {
        public var path: String
        public var device: String
        public var events: Int
        /// Devices with input in the window that the file does not hold.
        public var left: [String]
    }

    /// Writes the last `lastSeconds` (at most the recorder's window) as an evemu recording of
    /// the device that had the most input then; the others are named in `left`.
    public func write(lastSeconds: Double, to path: String) throws -> Written {
        guard seconds > 0 else { throw ControlError("the flight recorder is off (daemon --flight-recorder 0)") }
        let end = tracks.compactMap(\.ring.lastMicroseconds).max()
        guard let end else { throw ControlError("no input recorded yet") }
        let since = end - Int64(min(lastSeconds, seconds) * 1_000_000)
        let windows = tracks.map { ($0, $0.ring.events(since: since)) }.filter { !$0.1.isEmpty }
        guard let (track, events) = windows.max(by: { $0.1.count < $1.1.count }) else {
            throw ControlError("no input in the last \(lastSeconds) s")
        }
        var description = track.description
        if description.name.isEmpty { description.name = track.tag.name }
        let writer = try EvemuWriter(path: path, device: description, keptKind: track.tag.kind)
        for event in events { try writer.write(event) }
        try writer.close()
        return Written(path: path, device: "\(track.node) (\(track.tag.kind): \(track.tag.name))", events: events.count,
                       left: windows.filter { $0.0.node != track.node }.map(\.0.node))
    }
}
