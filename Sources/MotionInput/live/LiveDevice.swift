import MotionGestures

/// Pointer frames from a live source, decoded exactly like the event files. Each frame is delivered as
/// soon as its `SYN_REPORT` arrives. When the source ends (EOF, hang-up, device unplugged) or is
/// stopped, the pointers still down are cancelled in one last frame and `endReason` says why.
///
/// Ranges for `--surface` come from EVIOCGABS on an evdev node; on pipes and FIFOs pass them in
/// `options.axes`. After a `SYN_DROPPED` on an evdev node the queued events are drained and the
/// device state is read back with ioctls (`resync(after:)`); on pipes state resynchronizes from the
/// following frames, as with files. Unlike files, a position for a slot whose tracking id was never
/// seen is ignored (fingers may already be down when reading starts).
public final class LiveDevice: FrameSource, EvdevSourceInfo {
    /// What `nextFrame(timeout:)` produced.
    public enum Next: Equatable {
        case frame(Frame)
        case timeout
        /// The source ended or was stopped; no more frames.
        case end(String)
    }

    public let reader: LiveEventReader
    private let decoder: EvdevDecoder
    private var ended = false

    /// This machine's CLOCK_MONOTONIC in seconds; tests replace it to control time.
    public var monotonicNow: () -> Double {
        get { replacedClock ?? LiveEventReader.now }
        set { replacedClock = newValue }
    }
    /// The clock tests put in; nil: this machine's, read directly (no closure call per frame).
    private var replacedClock: (() -> Double)?
    @inline(__always)
    private func clockNow() -> Double {
        if let replacedClock { return replacedClock() }
        return LiveEventReader.now()
    }
    /// True when event timestamps are read on `monotonicNow`'s clock (an evdev node switched to
    /// CLOCK_MONOTONIC): input time between events is then read off that clock. Otherwise (a pipe
    /// from another machine, a kernel without EVIOCSCLOCKID) it is estimated as the last event's
    /// time plus the time elapsed here since it arrived.
    public var timestampsAreMonotonic: Bool
    /// Sees every event of the device as it is decoded (the `--proxy` arbiter's input), with
    /// whether it completed a pointer frame (the one `nextFrame` hands over for it): the
    /// device's own events, and after `SYN_DROPPED` the marker, an empty report and the state
    /// read back. Not the start-up state (`currentState()` gives it). Held without reference
    /// counting: whoever sets it clears it before it goes.
    public unowned(unsafe) var rawTap: LiveRawTap?
    /// Told what happened when the kernel dropped events (`SYN_DROPPED`), for stderr.
    public var diagnostics: ((String) -> Void)?
    /// `SYN_DROPPED` resynchronizations done from the device state.
    public private(set) var resyncCount = 0

    /// The device state when reading started, fed (stamped with the first event's time) before
    /// the first event; see `LiveResync.seed`.
    private var seed: [InputEventRecord]?
    private var origin: Double?
    /// The timestamp (seconds, device clock) of the first event: input time 0. Nil before it.
    public var timeOrigin: Double? { origin }
    /// The same in whole microseconds, for exact offsets between devices.
    public private(set) var timeOriginMicroseconds: Int64?
    private var lastEventT = 0.0
    private var lastEventLocal = 0.0
    /// The timestamp `lastEventT` was worked out from.
    private var lastSec: Int64 = 0
    private var lastUsec: Int64 = 0

    /// Opens `/dev/input/eventN` (or a FIFO of raw records); `grab` takes the device from everyone else
    /// until `close()`.
    public convenience init(path: String, options: EventFileOptions = EventFileOptions(), grab: Bool = false) throws {
        try self.init(reader: LiveEventReader(path: path, grab: grab), options: options)
    }

    public init(reader: LiveEventReader, options: EventFileOptions = EventFileOptions()) {
        self.reader = reader
        decoder = EvdevDecoder(device: reader.device, options: options, strict: false)
        timestampsAreMonotonic = reader.clockIsMonotonic
        if reader.isEvdevNode { seed = LiveResync.seed(fd: reader.fileDescriptor, device: reader.device) }
    }

    public var device: DeviceDescription { decoder.device }
    /// The device every pointer event names (nil: none), set as the decoder makes the event.
    public var pointerDevice: PointerDevice? {
        get { decoder.deviceTag }
        set { decoder.deviceTag = newValue }
    }
    public var unknownEventCount: Int { decoder.unknownEventCount }
    public var droppedCount: Int { decoder.droppedCount }
    /// Why input ended, once it has ("end of input", "device disappeared", "stopped", ...).
    public var endReason: String? { reader.endReason }

    /// Wakes a waiting `nextFrame`/`run` and ends input (thread-safe; see `LiveEventReader.stopFileDescriptor`
    /// for signal handlers).
    public func stop() { reader.stop() }

    /// Releases the grab and closes the device.
    public func close() { reader.close() }

    /// The input time now, on the device's clock (seconds since the first event, like frame
    /// times); nil before the first event, when input time has no origin yet.
    public func inputTimeNow() -> Double? {
        guard let origin else { return nil }
        // Whole microseconds, like the event timestamps (and the times they print as).
        func micro(_ t: Double) -> Double { (t * 1_000_000).rounded(.down) / 1_000_000 }
        if timestampsAreMonotonic { return max(lastEventT, micro(clockNow() - origin)) }
        return micro(lastEventT + max(0, clockNow() - lastEventLocal))
    }

    @inline(__always)
    private func note(_ event: InputEventRecord) {
        // The events of a frame share one timestamp (and arrive together): only a new one is
        // worked out, and the local time it arrived read (one clock read per frame, not per event).
        if event.sec == lastSec, event.usec == lastUsec, origin != nil { return }
        (lastSec, lastUsec) = (event.sec, event.usec)
        let time = Double(event.sec) + Double(event.usec) / 1_000_000
        if origin == nil {
            origin = time
            timeOriginMicroseconds = event.sec &* 1_000_000 &+ event.usec
        }
        lastEventT = time - origin!
        // Only the estimate of input time between events of a clock other than ours needs the
        // local time of each event (a clock read per event otherwise: a system call in a VM
        // whose clock source has no vDSO).
        if !timestampsAreMonotonic { lastEventLocal = clockNow() }
    }

    /// The next frame, waiting at most `timeout` seconds for it (nil: no limit).
    public func nextFrame(timeout: Double?) throws -> Next {
        if ended { return .end(reader.endReason ?? "end of input") }
        let deadline = timeout.map { LiveEventReader.now() + $0 }
        while true {
            let left = deadline.map { max(0, $0 - LiveEventReader.now()) }
            switch try reader.next(timeout: left) {
            case .event(let event):
                if let frame = try process(event) { return .frame(frame) }
            case .timeout:
                return .timeout
            case .end(let reason):
                ended = true
                if let cancel = decoder.finish() { return .frame(cancel) }
                return .end(reason)
            }
        }
    }

    /// Feeds one event to the decoder (the start-up state first, a resynchronization after
    /// `SYN_DROPPED`); the frame it completes, if any.
    @inline(__always)
    private func process(_ event: InputEventRecord) throws -> Frame? {
        note(event)
        // The usual event: straight to the decoder (the start-up state and SYN_DROPPED aside).
        if seed == nil, event.type != EV.SYN || event.code != SYN.DROPPED {
            do {
                let frame = try decoder.feed(event, place: 0)
                if let rawTap { rawTap.take(event, madeFrame: frame != nil) }
                return frame
            } catch let failure as EvdevDecoder.Failure {
                throw InputError(file: reader.path, failure.message)
            }
        }
        return try processRare(event)
    }

    private func processRare(_ event: InputEventRecord) throws -> Frame? {
        do {
            if let state = seed {
                seed = nil
                for var e in state {
                    (e.sec, e.usec) = (event.sec, event.usec)
                    _ = try decoder.feed(e, place: 0)
                }
            }
            if event.type == EV.SYN, event.code == SYN.DROPPED, reader.isEvdevNode {
                return try resync(after: event)
            }
            return try feedTapped(event)
        } catch let failure as EvdevDecoder.Failure {
            throw InputError(file: reader.path, failure.message)
        }
    }

    /// The decoder's frame for `event`, the tap told.
    private func feedTapped(_ event: InputEventRecord) throws -> Frame? {
        let frame = try decoder.feed(event, place: 0)
        rawTap?.take(event, madeFrame: frame != nil)
        return frame
    }

    /// The device's state now, read back from the kernel (every slot's tracking id and
    /// position, the selected slot, the single-touch position, BTN_TOUCH and BTN_LEFT) as one
    /// frame of events: what `--proxy` takes the device over in. Nil for a pipe, or when the
    /// ioctls fail.
    public func currentState() -> [InputEventRecord]? {
        guard reader.isEvdevNode else { return nil }
        return LiveResync.read(fd: reader.fileDescriptor, device: decoder.device, sec: 0, usec: 0)
    }

    /// The next frame among the events already read (nil: none complete), without reading or
    /// waiting: `LiveDeviceSet` reads each device once per wake-up (`reader.fill()`) and then
    /// takes its frames from here.
    public func bufferedFrame() throws -> Frame? {
        guard !ended else { return nil }
        while let event = reader.nextBuffered() {
            if let frame = try process(event) { return frame }
        }
        return nil
    }

    /// One read of the source (`reader.fill()`) and every frame the events read complete, into
    /// `queue` (for `LiveDeviceSet`).
    func read(into queue: FrameQueue) throws -> LiveEventReader.Fill {
        let result = try reader.fill()
        // As `bufferedFrame()` in a loop, in one pass over the events.
        guard !ended else { return result }
        while let event = reader.nextBuffered() {
            if let frame = try process(event) { queue.append(frame) }
        }
        return result
    }

    /// Ends input from this device for `reason` (it went away, or reading stops): the frame
    /// cancelling the pointers still down, if any. Later calls return nil.
    public func end(_ reason: String) -> Frame? {
        guard !ended else { return nil }
        ended = true
        _ = reader.end(reason)
        return decoder.finish()
    }

    /// The kernel's client buffer overflowed. As libevdev does: what is still queued is stale
    /// (older than the state, with slot selections of a state that is gone), so it is drained
    /// and thrown away first; then the device state is read back (EVIOCGMTSLOTS, EVIOCGABS,
    /// EVIOCGKEY) and its difference from what was delivered comes out as one frame. Reading
    /// then goes on with events newer than that state.
    private func resync(after dropped: InputEventRecord) throws -> Frame? {
        let discarded = reader.discardQueued()
        var stamp = (sec: dropped.sec, usec: dropped.usec)
        if let last = discarded.last, (last.sec, last.usec) > (stamp.sec, stamp.usec) { stamp = last }
        // The marker, then an empty report: the decoder forgets the partial frame and is ready.
        _ = try feedTapped(dropped)
        _ = try feedTapped(InputEventRecord(sec: dropped.sec, usec: dropped.usec, type: EV.SYN, code: SYN.REPORT, value: 0))
        resyncCount += 1
        guard let state = LiveResync.read(fd: reader.fileDescriptor, device: decoder.device, sec: stamp.sec, usec: stamp.usec) else {
            diagnostics?("\(reader.path): the kernel dropped events (SYN_DROPPED) and the device state cannot be read back; going on from the next frames (\(discarded.frames) queued frames discarded)")
            return nil
        }
        if let last = state.last { note(last) }
        var frame: Frame?
        for event in state { frame = try feedTapped(event) ?? frame }
        let changed = frame.map { "\($0.events.count) pointer change\($0.events.count == 1 ? "" : "s")" } ?? "no pointer change"
        diagnostics?("\(reader.path): the kernel dropped events (SYN_DROPPED, reader too slow); discarded \(discarded.frames) stale queued frames (\(discarded.events) events) and resynchronized from the device state: \(changed)")
        return frame
    }

    /// Blocks for the next frame; nil once input ended or was stopped.
    public func nextFrame() throws -> Frame? {
        if case .frame(let frame) = try nextFrame(timeout: nil) { return frame }
        return nil
    }

    /// Calls `onFrame` for every frame until input ends or `stop()` is called; returns the end reason.
    @discardableResult
    public func run(onFrame: (Frame) throws -> Void) throws -> String {
        while true {
            switch try nextFrame(timeout: nil) {
            case .frame(let frame): try onFrame(frame)
            case .timeout: continue
            case .end(let reason): return reason
            }
        }
    }
}

/// What sees a live device's events as they are decoded (`LiveDevice.rawTap`).
public protocol LiveRawTap: AnyObject {
    /// One event, in the device's order; `madeFrame`: the decoder made a pointer frame of it
    /// (a `SYN_REPORT`), handed over by `nextFrame` after the frames made before it.
    func take(_ event: InputEventRecord, madeFrame: Bool)
}
