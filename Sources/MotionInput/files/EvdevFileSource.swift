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
        while let (event, place) = try nextEvent() {
            if startPlace < 0 { startPlace = place }
            do {
                if let frame = try decoder.feed(event, place: place) {
                    (framePlaceNumber, startPlace) = (startPlace, -1)
                    return frame
                }
                // A report that made no frame (nothing changed): the next frame starts after it.
                if event.type == EV.SYN, event.code == SYN.REPORT { startPlace = -1 }
            } catch let failure as EvdevDecoder.Failure {
                throw InputError(file: path, place: errorPlace(failure.place), failure.message)
            }
        }
        ended = true
        framePlaceNumber = -1
        return decoder.finish()
    }
}
