import MotionInput
import MotionGestures
import MotionControl

/// The daemon's flight recorder: the last raw input of every device it reads, each in a ring
/// of its own (`RawEventRing`, on the device's reader), so `ctl record` can turn what just
/// happened into a recording. The window is `seconds` long; the rings' capacity bounds memory
/// whatever the event rate (`maxEventsPerDevice` × 32 bytes).
public final class FlightRecorder: RawRecording {
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
    public init(seconds: Double = 60, maxEventsPerDevice: Int = 120_000, axes: [UInt16: AbsInfo] = [:]) {
        self.seconds = seconds
        self.maxEventsPerDevice = maxEventsPerDevice
        self.axes = axes
    }

    /// The daemon's `--axes`, which its decoders put over each device's own ranges: written as
    /// every device's `A:` lines, so a replay of the recording reads positions in the units
    /// the daemon read them in (a pipe describes no axes; `daemon … --events FILE --dry-run`
    /// then shows what happened live).
    public let axes: [UInt16: AbsInfo]

    /// Records every device of `set`, present and joining later (`LiveDeviceSet.recording`).
    public func attach(to set: LiveDeviceSet) {
        set.recording = self
    }

    /// A device joined the set: its ring, the one it had when it was here before (a device
    /// back after it went away keeps its window), else a new one; none while off.
    public func ring(for member: LiveDeviceSet.Member) -> RawEventRing? {
        guard seconds > 0 else { return nil }
        let ring = tracks.first { $0.node == member.node }?.ring ?? RawEventRing(capacity: maxEventsPerDevice)
        tracks.removeAll { $0.node == member.node }
        tracks.append(Track(node: member.node, tag: member.tag, description: member.device.reader.device, ring: ring))
        return ring
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
        let recording = MergedRecording(writer: writer, devices: 1)
        for change in focus { recording.noteFocus(change.app, at: change.micros) }
        for event in events { recording.append(event, device: 0) }
        try recording.flush()
    }

    public struct Written: Equatable {
        public var path: String
        /// The devices written, device 1 (the one with the most input) first.
        public var devices: [String]
        public var events: Int
    }

    /// Writes the last `lastSeconds` (at most the recorder's window) as an evemu recording: of
    /// the one device that had input then, or of several (docs/input.md), the one with the most
    /// input first, so a tool that reads one device of the file reads that one.
    public func write(lastSeconds: Double, to path: String) throws -> Written {
        guard seconds > 0 else { throw ControlError("the flight recorder is off (daemon --flight-recorder 0)") }
        let end = tracks.compactMap(\.ring.lastMicroseconds).max()
        guard let end else { throw ControlError("no input recorded yet") }
        let since = end - Int64(min(lastSeconds, seconds) * 1_000_000)
        var windows = tracks.enumerated().map { (index: $0.offset, track: $0.element, events: $0.element.ring.events(since: since)) }
            .filter { !$0.events.isEmpty }
        guard !windows.isEmpty else { throw ControlError("no input in the last \(lastSeconds) s") }
        windows.sort { $0.events.count != $1.events.count ? $0.events.count > $1.events.count : $0.index < $1.index }
        let devices = windows.map { window in
            var description = window.track.description
            if description.name.isEmpty { description.name = window.track.tag.name }
            for (code, info) in axes {
                description.absinfo[code] = info
                description.add(type: EV.ABS, code: code)
            }
            return (description: description, keptKind: Optional(window.track.tag.kind))
        }
        // Ties in time go as the live set took them: in the tracks' order.
        let recording = MergedRecording(writer: try EvemuWriter(file: DaemonOutputFile.open(path), path: path, devices: devices), devices: windows.count,
                                        tieOrder: windows.indices.sorted { windows[$0].index < windows[$1].index })
        for change in focusChanges { recording.noteFocus(change.app, at: change.micros) }
        for (k, window) in windows.enumerated() {
            for event in window.events { recording.append(event, device: k) }
        }
        try recording.finish()
        return Written(path: path, devices: windows.map { "\($0.track.node) (\($0.track.tag.kind): \($0.track.tag.name))" },
                       events: windows.reduce(0) { $0 + $1.events.count })
    }
}
