/// Reads raw evdev bytes (`cat /dev/input/eventN > file`): 24-byte little-endian `struct input_event`s,
/// in fixed-size chunks. A truncated final record is an error at its byte offset, raised only after
/// every complete frame before it was delivered.
///
/// Bytes that cannot be the kernel's are errors at their offset rather than decoded forever: a
/// `tv_usec` outside 0...999999, or a long run of empty frames (the kernel never sends a
/// `SYN_REPORT` with no events before it; `/dev/zero` is nothing else).
public final class RawEvdevReader: EvdevFileSource {
    private let input: InputBytes
    /// Read buffer (not an array: no reference counting or uniqueness check per event).
    private let buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    /// Input offset of `buffer[0]`.
    private var base = 0
    /// `SYN_REPORT`s in a row with nothing between them.
    private var emptyFrames = 0
    private var frameIsEmpty = true

    /// More empty frames in a row than this is not evdev input.
    static let maxEmptyFrames = 1000

    public convenience init(path: String, options: EventFileOptions = EventFileOptions()) throws {
        try self.init(input: InputBytes(path: path), options: options)
    }

    init(input: InputBytes, options: EventFileOptions = EventFileOptions()) throws {
        self.input = input
        buffer = .allocate(byteCount: InputEventRecord.rawSize * 2048, alignment: 8)
        super.init(path: input.path, decoder: EvdevDecoder(device: DeviceDescription(), options: options))
    }

    deinit {
        buffer.deallocate()
    }

    override func errorPlace(_ place: Int) -> InputError.Place { .byteOffset(place) }

    override func nextEvent() throws -> (event: InputEventRecord, place: Int)? {
        let size = InputEventRecord.rawSize
        if end - start < size {
            // Move the partial record to the front and refill.
            let leftover = end - start
            if leftover > 0 {
                buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: leftover)
            }
            base += start
            start = 0
            end = leftover
            while end < size {
                let n = try input.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]))
                if n == 0 {
                    if end == 0 { return nil }
                    throw InputError(file: path, place: .byteOffset(base),
                                     "truncated input_event: \(end) of \(size) bytes at the end of the file")
                }
                end += n
            }
        }
        let offset = base + start
        let event = InputEventRecord.decodeRaw(UnsafeRawBufferPointer(buffer), at: start)
        start += size
        guard event.usec >= 0, event.usec < 1_000_000 else {
            throw InputError(file: path, place: .byteOffset(offset),
                             "not an input_event: tv_usec \(event.usec) is outside 0...999999 (not raw evdev bytes?)")
        }
        if event.type == EV.SYN, event.code == SYN.REPORT {
            if frameIsEmpty {
                emptyFrames += 1
                if emptyFrames > Self.maxEmptyFrames {
                    throw InputError(file: path, place: .byteOffset(offset),
                                     "not evdev input: more than \(Self.maxEmptyFrames) empty frames (SYN_REPORT with no events) in a row")
                }
            } else {
                emptyFrames = 0
            }
            frameIsEmpty = true
        } else {
            frameIsEmpty = false
        }
        return (event, offset)
    }
}
