import MotionGestures

/// Pointer frames from a live source, decoded exactly like the event files. Each frame is delivered as
/// soon as its `SYN_REPORT` arrives. When the source ends (EOF, hang-up, device unplugged) or is
/// stopped, the pointers still down are cancelled in one last frame and `endReason` says why.
///
/// Ranges for `--surface` come from EVIOCGABS on an evdev node; on pipes and FIFOs pass them in
/// `options.axes`. After a `SYN_DROPPED` on an evdev node the device state is read back with ioctls
/// (`LiveResync`); on pipes state resynchronizes from the following frames, as with files. Unlike files, a position for a slot whose tracking id was never seen is ignored
/// (fingers may already be down when reading starts).
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

    /// Opens `/dev/input/eventN` (or a FIFO of raw records); `grab` takes the device from everyone else
    /// until `close()`.
    public convenience init(path: String, options: EventFileOptions = EventFileOptions(), grab: Bool = false) throws {
        try self.init(reader: LiveEventReader(path: path, grab: grab), options: options)
    }

    public init(reader: LiveEventReader, options: EventFileOptions = EventFileOptions()) {
        self.reader = reader
        decoder = EvdevDecoder(device: reader.device, options: options, strict: false)
    }

    public var device: DeviceDescription { decoder.device }
    public var unknownEventCount: Int { decoder.unknownEventCount }
    public var droppedCount: Int { decoder.droppedCount }
    /// Why input ended, once it has ("end of input", "device disappeared", "stopped", ...).
    public var endReason: String? { reader.endReason }

    /// Wakes a waiting `nextFrame`/`run` and ends input (thread-safe; see `LiveEventReader.stopFileDescriptor`
    /// for signal handlers).
    public func stop() { reader.stop() }

    /// Releases the grab and closes the device.
    public func close() { reader.close() }

    /// The next frame, waiting at most `timeout` seconds for it (nil: no limit).
    public func nextFrame(timeout: Double?) throws -> Next {
        if ended { return .end(reader.endReason ?? "end of input") }
        let deadline = timeout.map { LiveEventReader.now() + $0 }
        while true {
            let left = deadline.map { max(0, $0 - LiveEventReader.now()) }
            switch try reader.next(timeout: left) {
            case .event(let event):
                do {
                    let wasDropping = decoder.isDropping
                    if let frame = try decoder.feed(event, place: 0) { return .frame(frame) }
                    if wasDropping, !decoder.isDropping, reader.isEvdevNode,
                       let sync = LiveResync.read(fd: reader.fileDescriptor, device: decoder.device, sec: event.sec, usec: event.usec) {
                        var resynced: Frame?
                        for e in sync { resynced = try decoder.feed(e, place: 0) ?? resynced }
                        if let resynced { return .frame(resynced) }
                    }
                } catch let failure as EvdevDecoder.Failure {
                    throw InputError(file: reader.path, failure.message)
                }
            case .timeout:
                return .timeout
            case .end(let reason):
                ended = true
                if let cancel = decoder.finish() { return .frame(cancel) }
                return .end(reason)
            }
        }
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
