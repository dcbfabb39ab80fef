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
    /// Focus changes (`apps =`) on the events' clock (CLOCK_MONOTONIC, µs), so a recording
    /// replays the live decision: the one in effect when the window starts, and those since.
    public private(set) var focusChanges: [(micros: Int64, app: AppInfo?)] = []
    static let maxFocusChanges = 256

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

    /// The desktop provider reported a focus change now (`at`: CLOCK_MONOTONIC seconds).
    public func noteFocus(_ app: AppInfo?, at seconds: Double) {
        guard self.seconds > 0 else { return }
        let micros = Int64(seconds * 1_000_000)
        focusChanges.append((micros, app))
        // Older than the window: only the last of those still matters (the focus at its start).
        let horizon = micros - Int64(self.seconds * 1_000_000)
        var drop = 0
        while drop + 1 < focusChanges.count, focusChanges[drop + 1].micros <= horizon { drop += 1 }
        drop = max(drop, focusChanges.count - Self.maxFocusChanges)
        if drop > 0 { focusChanges.removeFirst(drop) }
    }

    /// Writes `events` with the focus changes among them as app comments (`AppComment`): first
    /// the focus in effect at the first event, then each change before the event it precedes.
    public static func write(_ events: [InputEventRecord], focus: [(micros: Int64, app: AppInfo?)], to writer: EvemuWriter) throws {
        var next = 0
        let start = events.first.map { $0.sec * 1_000_000 + $0.usec } ?? 0
        var initial: AppInfo??
        while next < focus.count, focus[next].micros <= start { initial = .some(focus[next].app); next += 1 }
        if case .some(let app) = initial { try writer.write(app: app) }
        for event in events {
            let t = event.sec * 1_000_000 + event.usec
            while next < focus.count, focus[next].micros <= t { try writer.write(app: focus[next].app); next += 1 }
            try writer.write(event)
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
        try Self.write(events, focus: focusChanges, to: writer)
        try writer.close()
        return Written(path: path, device: "\(track.node) (\(track.tag.kind): \(track.tag.name))", events: events.count,
                       left: windows.filter { $0.0.node != track.node }.map(\.0.node))
    }
}
