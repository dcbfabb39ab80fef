#if canImport(Glibc)
import Glibc
#endif

/// Reads raw evdev bytes (`cat /dev/input/eventN > file`): 24-byte little-endian `struct input_event`s,
/// in fixed-size chunks. A truncated final record is an error at its byte offset, raised only after
/// every complete frame before it was delivered.
public final class RawEvdevReader: EvdevFileSource {
    private let file: UnsafeMutablePointer<FILE>
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    /// File offset of `buffer[0]`.
    private var base = 0

    public init(path: String, options: EventFileOptions = EventFileOptions()) throws {
        guard let file = fopen(path, "rb") else {
            throw InputError(file: path, "cannot open: \(String(cString: strerror(errno)))")
        }
        self.file = file
        buffer = [UInt8](repeating: 0, count: InputEventRecord.rawSize * 2048)
        super.init(path: path, decoder: EvdevDecoder(device: DeviceDescription(), options: options))
    }

    deinit {
        fclose(file)
    }

    override func errorPlace(_ place: Int) -> InputError.Place { .byteOffset(place) }

    override func nextEvent() throws -> (event: InputEventRecord, place: Int)? {
        let size = InputEventRecord.rawSize
        if end - start < size {
            // Move the partial record to the front and refill.
            let leftover = end - start
            if leftover > 0 {
                buffer.withUnsafeMutableBytes { b in
                    b.baseAddress!.copyMemory(from: b.baseAddress! + start, byteCount: leftover)
                }
            }
            base += start
            start = 0
            end = leftover
            while end < size {
                let n = buffer.withUnsafeMutableBytes { b in fread(b.baseAddress! + end, 1, b.count - end, file) }
                if n == 0 {
                    if ferror(file) != 0 {
                        throw InputError(file: path, place: .byteOffset(base + end), "read error: \(String(cString: strerror(errno)))")
                    }
                    if end == 0 { return nil }
                    throw InputError(file: path, place: .byteOffset(base),
                                     "truncated input_event: \(end) of \(size) bytes at the end of the file")
                }
                end += n
            }
        }
        let offset = base + start
        let event = buffer.withUnsafeBytes { InputEventRecord.decodeRaw($0, at: start) }
        start += size
        return (event, offset)
    }
}
