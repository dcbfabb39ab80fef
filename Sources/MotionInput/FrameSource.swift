import MotionGestures

/// Anything that produces pointer frames in input-time order: event files, live devices.
/// Times are seconds relative to the first event.
public protocol FrameSource: AnyObject {
    /// The next frame, or nil at the end of input. Throws `InputError` on malformed input.
    func nextFrame() throws -> Frame?

    /// Where the frame last returned starts in its input, for error messages: `file:line` for
    /// text formats, `file: byte N` for raw evdev, `file: end of input` for the cancel the
    /// reader adds at the end; nil when the source has no file. Built only when asked: the
    /// readers keep a number per frame, nothing more.
    var framePlace: String? { get }
}

extension FrameSource {
    public var framePlace: String? { nil }

    /// Reads every remaining frame (for tests and small files).
    public func readAll() throws -> [Frame] {
        var frames: [Frame] = []
        while let frame = try nextFrame() { frames.append(frame) }
        return frames
    }
}

/// What evdev-based sources (event files other than JSON Lines, live devices) report besides frames,
/// for diagnostics: the device as described, and the events that were ignored.
public protocol EvdevSourceInfo: AnyObject {
    var device: DeviceDescription { get }
    /// Events of types the kernel does not define: ignored and counted.
    var unknownEventCount: Int { get }
    /// `SYN_DROPPED` markers seen (the kernel's buffer overflowed).
    var droppedCount: Int { get }
}
