import Synchronization
#if canImport(Glibc)
import CLinux
import Glibc
#endif

/// Reads `struct input_event` records from a live source: an evdev node (`/dev/input/eventN`), or any
/// readable descriptor carrying the same bytes (FIFO, pipe). A poll loop waits on the source and on a
/// self-pipe, so `stop()` (or a signal handler writing one byte to `stopFileDescriptor`) wakes it at
/// once. Records may arrive in pieces (a writer pausing mid-record): partial bytes are kept until the
/// record is complete.
public final class LiveEventReader {
    /// What the next poll produced.
    public enum Next: Equatable {
        case event(InputEventRecord)
        case timeout
        /// The source ended (EOF, hang-up, device gone) or `stop()` was called; the reason says which.
        case end(String)
    }

    public let path: String
    public let fileDescriptor: Int32
    /// From the ioctls on an evdev node; empty for pipes (pass axis ranges in the options instead).
    public let device: DeviceDescription
    /// True when `fileDescriptor` is an evdev node (the ioctls work).
    public let isEvdevNode: Bool
    /// Why reading ended, once it has.
    public private(set) var endReason: String?
    /// True when the event timestamps are this machine's CLOCK_MONOTONIC (EVIOCSCLOCKID took):
    /// input time can then be read off the clock between events.
    public internal(set) var clockIsMonotonic = false

    /// The flight recorder's ring for this device (nil: not recorded); every event read goes in.
    public var recorder: RawEventRing? {
        didSet { recording = recorder != nil }
    }
    /// `recorder != nil`, read per event without taking a reference to the recorder.
    private var recording = false

    private let ownsDescriptor: Bool
    private var grabbed = false
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// The wake-up pipe is open: `stop()`, from any thread, writes only while it is, and `close()`
    /// changes it under the same lock. Without it a `stop()` after `close()` wrote a byte into
    /// whatever took the descriptor's number next (another pipe, a socket: SIGPIPE once its peer
    /// closed).
    private let wakeOpen = Mutex<Bool>(true)
    /// The bytes read and not yet taken, allocated once: the per-event path reads them in place
    /// (no array uniqueness checks or reference counting per event).
    private let buffer: UnsafeMutableRawPointer
    private let bufferSize = InputEventRecord.rawSize * 256
    private var start = 0
    private var end = 0
    private var closed = false
    /// Bytes the drain thread read while the host was busy (`InputDrain`), older than anything
    /// still in the descriptor: `fill()` takes them first. Allocated at the first drain.
    private var backlog: UnsafeMutableRawPointer?
    private var backlogStart = 0
    private var backlogEnd = 0
    /// The drain stops reading this source (it ended, or a read failed): the host's own read
    /// finds out why.
    private var drainStopped = false
    /// The most a backlog holds: 8,192 events, a second or more of a touchpad with every finger down.
    static let backlogCapacity = InputEventRecord.rawSize * 8192
    /// Told the events the drain reads while the host is stalled (`--proxy`: the device's
    /// `LiveProxy.Device`, which passes them to the clone). Set while the host holds the drain's lock
    /// (before the first `nextFrame`, or inside it).
    public var stallPass: StallPassThrough?
    /// Backlog bytes before this offset were told to `stallPass`.
    private var stallPassed = 0
    /// The events handed to `stallPass`, decoded (made at the first stall).
    private var stallEvents: UnsafeMutablePointer<InputEventRecord>?
    private static let stallChunk = 256

    /// Write any byte here to make a pending poll return and end reading; safe from a signal handler
    /// (`write(2)` is async-signal-safe), e.g. keep it in a global and write to it on SIGINT/SIGTERM.
    public var stopFileDescriptor: Int32 { wakeWrite }
    /// The read end of that wake-up pipe: readable once `stop()` (or a signal) asked to stop, for
    /// a caller polling several readers at once.
    public var wakeFileDescriptor: Int32 { wakeRead }

    /// Opens `path`: an evdev node (described through ioctls, grabbed when asked) or a FIFO of raw
    /// records. Anything else is an error that says why.
    public convenience init(path: String, grab: Bool = false) throws {
        var st = stat()
        guard stat(path, &st) == 0 else {
            let e = errno
            throw InputError(file: path, Self.openMessage(e, path: path))
        }
        let kind = st.st_mode & S_IFMT
        guard kind == S_IFCHR || kind == S_IFIFO else {
            let what = kind == S_IFREG ? "a regular file (use --events to replay a recording)" : kind == S_IFDIR ? "a directory" : "not a character device"
            throw InputError(file: path, "not an input device: \(what)")
        }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            throw InputError(file: path, Self.openMessage(e, path: path))
        }
        var device = DeviceDescription()
        var isNode = false
        var grabbed = false
        var monotonic = false
        if kind == S_IFCHR {
            guard let d = EvdevIoctl.describe(fd) else {
                let e = errno
                Glibc.close(fd)
                throw InputError(file: path, "not an input device: EVIOCGNAME failed (\(String(cString: strerror(e))))")
            }
            device = d
            isNode = true
            // Monotonic timestamps: wall-clock jumps must not distort gesture velocities. Best effort.
            var clock = Int32(CLOCK_MONOTONIC)
            monotonic = withUnsafeMutablePointer(to: &clock) { ioctl(fd, EvdevIoctl.setClockID, UnsafeMutableRawPointer($0)) } == 0
            if grab {
                guard ioctl(fd, EvdevIoctl.grab, 1 as CInt) == 0 else {
                    let e = errno
                    Glibc.close(fd)
                    throw InputError(file: path, "cannot grab the device (EVIOCGRAB: \(String(cString: strerror(e)))); another program may hold it")
                }
                grabbed = true
            }
        }
        try self.init(fd: fd, path: path, device: device, isEvdevNode: isNode, ownsDescriptor: true)
        self.grabbed = grabbed
        clockIsMonotonic = monotonic
    }

    /// Reads from an already open descriptor (e.g. the read end of a pipe). The descriptor is made
    /// non-blocking; it is closed on `close()` only when `ownsDescriptor`.
    public convenience init(fileDescriptor fd: Int32, name: String = "<pipe>", ownsDescriptor: Bool = false) throws {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        let device = EvdevIoctl.describe(fd)
        try self.init(fd: fd, path: name, device: device ?? DeviceDescription(), isEvdevNode: device != nil, ownsDescriptor: ownsDescriptor)
    }

    private init(fd: Int32, path: String, device: DeviceDescription, isEvdevNode: Bool, ownsDescriptor: Bool) throws {
        var fds: [Int32] = [0, 0]
        guard pipe2(&fds, O_CLOEXEC | O_NONBLOCK) == 0 else {
            let e = errno
            if ownsDescriptor { Glibc.close(fd) }
            throw InputError(file: path, "cannot create the wake-up pipe: \(String(cString: strerror(e)))")
        }
        self.path = path
        fileDescriptor = fd
        self.device = device
        self.isEvdevNode = isEvdevNode
        self.ownsDescriptor = ownsDescriptor
        wakeRead = fds[0]
        wakeWrite = fds[1]
        buffer = .allocate(byteCount: bufferSize, alignment: 8)
    }

    deinit {
        close()
        buffer.deallocate()
        backlog?.deallocate()
        stallEvents?.deallocate()
    }

    static func openMessage(_ e: Int32, path: String) -> String {
        switch e {
        case EACCES, EPERM:
            return "permission denied: add your user to the group 'input' (sudo usermod -aG input $USER, then log in again) or run with sudo"
        case ENOENT:
            return "no such device (see 'motionscript devices' for the input devices)"
        default:
            return "cannot open: \(String(cString: strerror(e)))"
        }
    }

    /// Whether this reader holds the device's grab (`EVIOCGRAB`): nobody else reads its events.
    public var isGrabbed: Bool { grabbed }

    /// Takes the device from everyone else (`true`) or gives it back (`false`), as `--proxy`
    /// does once no finger is down; `close()` gives a grab back. False (errno set) when the
    /// ioctl failed: a pipe, or another reader holds the grab.
    @discardableResult
    public func setGrabbed(_ on: Bool) -> Bool {
        guard !closed, isEvdevNode else {
            errno = closed ? EBADF : ENOTTY
            return false
        }
        guard on != grabbed else { return true }
        guard ioctl(fileDescriptor, EvdevIoctl.grab, (on ? 1 : 0) as CInt) == 0 else { return false }
        grabbed = on
        return true
    }

    /// Makes a pending or future `next` return `.end("stopped")`. Thread-safe.
    public func stop() {
        wakeOpen.withLock { open in
            guard open else { return }
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        }
    }

    /// Releases the grab and closes the descriptors (idempotent).
    public func close() {
        guard !closed else { return }
        closed = true
        if grabbed { _ = ioctl(fileDescriptor, EvdevIoctl.grab, 0 as CInt) }
        grabbed = false
        if ownsDescriptor { Glibc.close(fileDescriptor) }
        wakeOpen.withLock { open in
            open = false
            Glibc.close(wakeRead)
            Glibc.close(wakeWrite)
        }
    }

    /// The next complete event, waiting at most `timeout` seconds (nil: without limit).
    public func next(timeout: Double? = nil) throws -> Next {
        if let reason = endReason { return .end(reason) }
        let size = InputEventRecord.rawSize
        let deadline = timeout.map { Self.now() + $0 }
        while true {
            if end - start >= size {
                let event = InputEventRecord.decodeRaw(buffer, at: start)
                start += size
                if recording { recorder.unsafelyUnwrapped.append(event) }
                return .event(event)
            }
            compact()
            if backlogEnd != backlogStart {
                takeBacklog()
                continue
            }
            var fds = [pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let rc = pollWait(&fds, seconds: deadline.map { $0 - Self.now() })
            if rc < 0 {
                if errno == EINTR { continue }
                throw InputError(file: path, "poll failed: \(String(cString: strerror(errno)))")
            }
            if fds[1].revents != 0 { return finish("stopped") }
            if rc == 0 {
                if let deadline, Self.now() >= deadline { return .timeout }
                continue
            }
            if fds[0].revents & Int16(POLLNVAL) != 0 { return finish("device closed") }
            // Poll before reading: a FIFO without a writer yet reads as EOF, but polls as idle.
            let n = read(fileDescriptor, buffer + end, bufferSize - end)
            if n > 0 {
                end += n
                continue
            }
            if n == 0 { return finish("end of input") }
            let e = errno
            switch e {
            case EAGAIN, EWOULDBLOCK, EINTR:
                continue
            case ENODEV:
                return finish("device disappeared (unplugged or removed)")
            default:
                throw InputError(file: path, "read error: \(String(cString: strerror(e)))")
            }
        }
    }

    /// What one `fill()` did.
    public enum Fill: Equatable {
        /// Bytes were read (complete events may now be buffered).
        case data
        /// Nothing to read now.
        case empty
        /// The source ended (EOF, device gone); the reason says which.
        case end(String)
    }

    /// The next complete event among the bytes already read, without reading or waiting: for a
    /// caller that waits on many readers at once (`LiveDeviceSet`) and reads each only when its
    /// wait said it is readable.
    @inline(__always)
    public func nextBuffered() -> InputEventRecord? {
        // Plain arithmetic: start <= end <= bufferSize.
        guard end &- start >= InputEventRecord.rawSize else { return nil }
        let event = InputEventRecord.decodeRaw(buffer, at: start)
        start &+= InputEventRecord.rawSize
        if recording { recorder.unsafelyUnwrapped.append(event) }
        return event
    }

    /// One non-blocking read(2) of what the source has, appended to the buffer (after the
    /// bytes of an incomplete event). Call after a wait said the descriptor is readable; the
    /// events come out of `nextBuffered()`.
    public func fill() throws -> Fill {
        if let reason = endReason { return .end(reason) }
        func ended(_ reason: String) -> Fill {
            if case .end(let said) = finish(reason) { return .end(said) }
            return .end(reason)
        }
        compact()
        if backlogEnd != backlogStart {
            takeBacklog()
            return .data
        }
        while true {
            let n = read(fileDescriptor, buffer + end, bufferSize - end)
            if n > 0 {
                end += n
                return .data
            }
            if n == 0 { return ended("end of input") }
            let e = errno
            switch e {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .empty
            case ENODEV: return ended("device disappeared (unplugged or removed)")
            case EBADF: return ended("device closed")
            default: throw InputError(file: path, "read error: \(String(cString: strerror(e)))")
            }
        }
    }

    /// Whether bytes the drain read wait in the backlog.
    var hasBacklog: Bool { backlogEnd != backlogStart }

    /// Moves what fits of the backlog into the buffer (after `compact()`).
    private func takeBacklog() {
        let n = min(bufferSize - end, backlogEnd - backlogStart)
        (buffer + end).copyMemory(from: backlog! + backlogStart, byteCount: n)
        end += n
        backlogStart += n
        if backlogStart == backlogEnd { (backlogStart, backlogEnd, stallPassed) = (0, 0, 0) }
    }

    /// What one `drainIntoBacklog()` did.
    enum Drain: Equatable {
        case nothing
        case took
        /// Took what fitted; the backlog is full, the rest stays in the kernel.
        case full
    }

    /// The drain thread's read (`InputDrain`, while the host is busy and holds none of this
    /// reader's state): everything the descriptor has now, appended to the backlog, up to its
    /// capacity. Never waits; stops at the end of the source or an error, which it leaves for
    /// the host's own read to find.
    func drainIntoBacklog() -> Drain {
        guard !closed, endReason == nil, !drainStopped else { return .nothing }
        if backlog == nil { backlog = .allocate(byteCount: Self.backlogCapacity, alignment: 8) }
        let storage = backlog!
        if backlogStart > 0 {
            let kept = backlogEnd - backlogStart
            if kept > 0 { storage.copyMemory(from: storage + backlogStart, byteCount: kept) }
            stallPassed = max(0, stallPassed - backlogStart)
            (backlogStart, backlogEnd) = (0, kept)
        }
        var took = false
        while backlogEnd < Self.backlogCapacity {
            let n = read(fileDescriptor, storage + backlogEnd, Self.backlogCapacity - backlogEnd)
            if n > 0 {
                backlogEnd += n
                took = true
                continue
            }
            if n < 0 && errno == EINTR { continue }
            // EAGAIN: all read. End of file (or a FIFO without a writer yet, which reads as
            // one), an error: left for the host's next read, which sees it too; after an error
            // the drain stops reading this source.
            if n < 0 && errno != EAGAIN && errno != EWOULDBLOCK { drainStopped = true }
            return took ? .took : .nothing
        }
        return .full
    }

    /// The drain thread, the host stalled (`InputDrain`): the backlog's events not yet told to
    /// `stallPass`, told now in order. Only whole events from an event boundary (an evdev node's
    /// reads always are); nothing without `stallPass`.
    func passStalled() {
        guard let stallPass else { return }
        let size = InputEventRecord.rawSize
        var from = max(stallPassed, backlogStart)
        guard let storage = backlog, backlogEnd > from, (backlogEnd - from) % size == 0 else { return }
        if stallEvents == nil { stallEvents = .allocate(capacity: Self.stallChunk) }
        let events = stallEvents!
        while from < backlogEnd {
            let count = min((backlogEnd - from) / size, Self.stallChunk)
            for k in 0..<count { events[k] = InputEventRecord.decodeRaw(UnsafeRawPointer(storage), at: from + k * size) }
            stallPass.stalled(UnsafeBufferPointer(start: events, count: count))
            from += count * size
        }
        stallPassed = from
    }

    /// Moves the bytes of an incomplete event to the front of the buffer.
    private func compact() {
        guard start > 0 else { return }
        let leftover = end - start
        if leftover > 0 {
            buffer.copyMemory(from: buffer + start, byteCount: leftover)
        }
        start = 0
        end = leftover
    }

    /// Ends reading for `reason` (the set that waits on this reader saw it go), as the reader
    /// itself would have.
    func end(_ reason: String) -> String {
        if let endReason { return endReason }
        _ = finish(reason)
        return endReason ?? reason
    }

    /// What `discardQueued()` threw away.
    public struct Discarded: Equatable {
        public var events = 0
        /// Complete frames among them (`SYN_REPORT`s).
        public var frames = 0
        /// The timestamp of the last event thrown away (nil when none).
        public var last: (sec: Int64, usec: Int64)?

        public static func == (a: Discarded, b: Discarded) -> Bool {
            a.events == b.events && a.frames == b.frames && a.last?.sec == b.last?.sec && a.last?.usec == b.last?.usec
        }
    }

    /// After `SYN_DROPPED`: everything still queued is older than the device state about to be
    /// read back, and its slot selections refer to a state that is gone. Like libevdev's drain,
    /// throws away what this reader buffered and reads the descriptor until it has nothing more
    /// (EAGAIN), discarding that too. Bounded: a device that never pauses stops the drain after
    /// 64 KiB of events.
    public func discardQueued() -> Discarded {
        var discarded = Discarded()
        let size = InputEventRecord.rawSize
        func count() {
            while end - start >= size {
                let event = InputEventRecord.decodeRaw(buffer, at: start)
                start += size
                discarded.events += 1
                if event.type == EV.SYN && event.code == SYN.REPORT { discarded.frames += 1 }
                discarded.last = (event.sec, event.usec)
            }
        }
        count()
        // What the drain read is older still.
        while backlogEnd != backlogStart {
            compact()
            takeBacklog()
            count()
        }
        var budget = 65536
        while budget > 0, endReason == nil {
            compact()
            let n = read(fileDescriptor, buffer + end, bufferSize - end)
            if n <= 0 { break }  // EAGAIN: drained (EOF and errors are seen by the next `next`)
            end += n
            budget -= n
            count()
        }
        return discarded
    }

    private func finish(_ reason: String) -> Next {
        var reason = reason
        let stray = end - start
        if stray > 0 { reason += " (\(stray) bytes of an incomplete event dropped)" }
        endReason = reason
        (backlogStart, backlogEnd) = (0, 0)
        return .end(reason)
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
