import MotionGestures

/// The common loop of the evdev-based readers: pull events from the format, feed the decoder,
/// hand out frames, cancel what is still down at the end. Subclasses only produce events.
public class EvdevFileSource: FrameSource, EvdevSourceInfo {
    public let path: String
    let decoder: EvdevDecoder
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
    }

    /// What the file said about the device (empty for raw files).
    public var device: DeviceDescription { decoder.device }
    /// Events of types the kernel does not define: ignored and counted.
    public var unknownEventCount: Int { decoder.unknownEventCount }
    /// `SYN_DROPPED` markers in the input.
    public var droppedCount: Int { decoder.droppedCount }

    /// The next event and its place (line or byte offset); nil at the end. Overridden by each format.
    func nextEvent() throws -> (event: InputEventRecord, place: Int)? {
        fatalError("subclass")
    }

    /// How a decoder place reads in an error: a line for text formats, a byte offset for raw.
    func errorPlace(_ place: Int) -> InputError.Place { .line(place) }

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
                return Frame(t: lastFrameTime, focus: focusBeforeNextEvent.removeFirst())
            }
            if let frame = try feed(event, place: place) { return frame }
        }
        if !focusBeforeNextEvent.isEmpty { return Frame(t: lastFrameTime, focus: focusBeforeNextEvent.removeFirst()) }
        ended = true
        return decoder.finish()
    }

    @inline(__always)
    private func feed(_ event: InputEventRecord, place: Int) throws -> Frame? {
        do {
            guard let frame = try decoder.feed(event, place: place) else { return nil }
            lastFrameTime = frame.t
            return frame
        } catch let failure as EvdevDecoder.Failure {
            throw InputError(file: path, place: errorPlace(failure.place), failure.message)
        }
    }
}
