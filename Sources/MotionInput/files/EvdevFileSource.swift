import MotionGestures

/// The common loop of the evdev-based readers: pull events from the format, feed the decoder,
/// hand out frames, cancel what is still down at the end. Subclasses only produce events.
public class EvdevFileSource: FrameSource, EvdevSourceInfo {
    public let path: String
    let decoder: EvdevDecoder
    /// Every device's decoder, `decoder` first: more than one for a recording of several
    /// devices, whose `nextEvent` says in `eventDevice` whose each event is.
    let decoders: [EvdevDecoder]
    final var eventDevice = 0
    /// Several devices on one time line (nil with one device, the common case).
    private let timeline: FileDeviceTimeline?
    private var ended = false
    /// Focus changes a format read before the event it returns next (evemu's app comments,
    /// `AppComment`): they come out as frames of their own before that event's frame.
    final var focusBeforeNextEvent: [FocusChange] = []
    /// An event read after a focus change, fed at the next call.
    private var heldEvent: (event: InputEventRecord, place: Int)?
    /// The time of the last frame handed out: a focus change read between frames takes it.
    private var lastFrameTime = 0.0

    init(path: String, decoder: EvdevDecoder) {
        self.path = path
        self.decoder = decoder
        decoders = [decoder]
        timeline = nil
    }

    /// A recording of several devices (`decoders` in the file's order, at least one).
    init(path: String, decoders: [EvdevDecoder]) {
        self.path = path
        decoder = decoders[0]
        self.decoders = decoders
        timeline = decoders.count > 1 ? FileDeviceTimeline(devices: decoders.count) : nil
    }

    /// Told of every event after the decoder took it (`--proxy` in a replay: the clone's frames
    /// are the device's own events). Nil, the usual case: one check per event.
    public weak var rawEventTap: RawEventTap?
    /// Each device's description, in the file's order.
    public var deviceDescriptions: [DeviceDescription] { decoders.map(\.device) }
    /// Each device's tag (`p.device`; nil for a recording that keeps no device), in the file's order.
    public var deviceTags: [PointerDevice?] { decoders.map(\.deviceTag) }

    /// What the file said about the device (empty for raw files).
    public var device: DeviceDescription { decoder.device }
    /// Events of types the kernel does not define: ignored and counted.
    public var unknownEventCount: Int { decoders.reduce(0) { $0 + $1.unknownEventCount } }
    /// `SYN_DROPPED` markers in the input.
    public var droppedCount: Int { decoders.reduce(0) { $0 + $1.droppedCount } }

    /// The next event and its place (line or byte offset); nil at the end. Overridden by each format.
    func nextEvent() throws -> (event: InputEventRecord, place: Int)? {
        fatalError("subclass")
    }

    /// How a decoder place reads in an error: a line for text formats, a byte offset for raw.
    func errorPlace(_ place: Int) -> InputError.Place { .line(place) }

    /// The place of the first event since the last frame, and of the frame last returned
    /// (-1: the end-of-input cancel).
    private var startPlace = -1
    private var framePlaceNumber = -1

    public var framePlace: String? {
        guard framePlaceNumber >= 0 else { return "\(path): end of input" }
        switch errorPlace(framePlaceNumber) {
        case .line(let line): return "\(path):\(line)"
        case .byteOffset(let offset): return "\(path): byte \(offset)"
        case .none: return path
        }
    }

    public func nextFrame() throws -> Frame? {
        if ended { return nil }
        if let held = heldEvent {
            if !focusBeforeNextEvent.isEmpty { return Frame(t: lastFrameTime, focus: focusBeforeNextEvent.removeFirst()) }
            heldEvent = nil
            if let frame = try feed(held.event, place: held.place) { return frame }
        }
        while let (event, place) = try nextEvent() {
            // Rare (a focus change in the recording): the event waits for the next call.
            if !focusBeforeNextEvent.isEmpty {
                heldEvent = (event, place)
                framePlaceNumber = place
                return Frame(t: lastFrameTime, focus: focusBeforeNextEvent.removeFirst())
            }
            if let frame = try feed(event, place: place) { return frame }
        }
        if !focusBeforeNextEvent.isEmpty { return Frame(t: lastFrameTime, focus: focusBeforeNextEvent.removeFirst()) }
        ended = true
        framePlaceNumber = -1
        if let timeline { return timeline.finish(decoders) }
        return decoder.finish()
    }

    @inline(__always)
    private func feed(_ event: InputEventRecord, place: Int) throws -> Frame? {
        if startPlace < 0 { startPlace = place }
        if let timeline { return try feed(event, place: place, on: timeline) }
        do {
            let made = try decoder.feed(event, place: place)
            if let rawEventTap { rawEventTap.take(event, device: 0, madeFrame: made != nil, t: made?.t ?? decoder.lastTime) }
            guard let frame = made else {
                // A report that made no frame (nothing changed): the next frame starts after it.
                if event.type == EV.SYN, event.code == SYN.REPORT { startPlace = -1 }
                return nil
            }
            (framePlaceNumber, startPlace) = (startPlace, -1)
            lastFrameTime = frame.t
            return frame
        } catch let failure as EvdevDecoder.Failure {
            throw InputError(file: path, place: errorPlace(failure.place), failure.message)
        }
    }

    /// `feed` for a recording of several devices: the event goes to its device's decoder, and
    /// the frame onto the shared time line.
    private func feed(_ event: InputEventRecord, place: Int, on timeline: FileDeviceTimeline) throws -> Frame? {
        if let problem = timeline.check(event) {
            throw InputError(file: path, place: errorPlace(place), problem)
        }
        let device = decoders[eventDevice]
        do {
            guard var frame = try device.feed(event, place: place) else {
                rawEventTap?.take(event, device: eventDevice, madeFrame: false, t: device.lastTime)
                if event.type == EV.SYN, event.code == SYN.REPORT { startPlace = -1 }
                return nil
            }
            timeline.place(&frame, device: eventDevice, decoder: device)
            rawEventTap?.take(event, device: eventDevice, madeFrame: true, t: frame.t)
            (framePlaceNumber, startPlace) = (startPlace, -1)
            lastFrameTime = frame.t
            return frame
        } catch let failure as EvdevDecoder.Failure {
            throw InputError(file: path, place: errorPlace(failure.place), failure.message)
        }
    }
}

/// Sees a replay's evdev events as they are decoded (`EvdevFileSource.rawEventTap`).
public protocol RawEventTap: AnyObject {
    /// One event of device `device` (0: the first), in the file's order; `madeFrame`: the decoder
    /// made a frame of it (a `SYN_REPORT` that changed pointers), the one `nextFrame` returns
    /// next; `t`: the input time it belongs to.
    func take(_ event: InputEventRecord, device: Int, madeFrame: Bool, t: Double)
}
