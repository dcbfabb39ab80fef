import MotionGestures

/// The common loop of the evdev-based readers: pull events from the format, feed the decoder,
/// hand out frames, cancel what is still down at the end. Subclasses only produce events.
public class EvdevFileSource: FrameSource, EvdevSourceInfo {
    public let path: String
    let decoder: EvdevDecoder
    private var ended = false

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
        while let (event, place) = try nextEvent() {
            do {
                if let frame = try decoder.feed(event, place: place) { return frame }
            } catch let failure as EvdevDecoder.Failure {
                throw InputError(file: path, place: errorPlace(failure.place), failure.message)
            }
        }
        ended = true
        return decoder.finish()
    }
}
