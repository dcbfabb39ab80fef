#if canImport(Glibc)
import Glibc
#endif

/// The virtual keyboard and mouse: a uinput device (`/dev/uinput`), created when the first
/// event is written and destroyed when this object goes away (the kernel then releases any key
/// still down, even if the process is killed).
///
/// A path that is not a character device (a regular file or a FIFO, given with `--uinput`)
/// receives the same `struct input_event` records without any ioctl: what the device would be
/// sent, for tests and for looking at what a script types. /dev/uinput itself is never created.
public final class UinputDevice: InputEventSink {
    public static let defaultPath = "/dev/uinput"
    /// The name the device shows in `/proc/bus/input/devices` and `libinput list-devices`.
    public static let deviceName = "motionscript virtual input"

    public let path: String
    private var fd: Int32 = -1
    private var isUinput = false
    private var buffer: [UInt8] = []

    public init(path: String = UinputDevice.defaultPath) {
        self.path = path
    }

    deinit {
        guard fd >= 0 else { return }
        if isUinput { _ = ioctl(fd, UinputIoctl.devDestroy) }
        close(fd)
    }

    public func write(_ events: [InputEvent]) throws {
        if fd < 0 { try open() }
        buffer.removeAll(keepingCapacity: true)
        for event in events { event.appendRecord(to: &buffer) }
        // A FIFO whose reader went away would raise SIGPIPE and end the process, losing its
        // output: the signal is held back for the write, and a broken pipe is an error.
        let guarded = !isUinput
        var pipeSignal = sigset_t(), saved = sigset_t()
        if guarded {
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, &saved)
        }
        defer { if guarded { pthread_sigmask(SIG_SETMASK, &saved, nil) } }
        var written = 0
        while written < buffer.count {
            let n = buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n > 0 {
                written += n
                continue
            }
            let e = n < 0 ? errno : EIO
            if e == EINTR { continue }
            if e == EAGAIN, waitWritable() { continue }
            if e == EPIPE {
                // Take the pending SIGPIPE before the mask is restored.
                var now = timespec()
                _ = sigtimedwait(&pipeSignal, nil, &now)
                throw ActionError("cannot write to the virtual input device \(path): nothing reads it any more (the reader of the pipe went away)")
            }
            if e == EAGAIN {
                throw ActionError("cannot write to the virtual input device \(path): its reader has not read for \(Self.writeWait) s")
            }
            throw ActionError("cannot write to the virtual input device \(path): \(String(cString: strerror(e)))")
        }
    }

    /// How long a write waits for a FIFO's reader to make room.
    static let writeWait = 1.0

    /// Waits for room in a FIFO (non-blocking: a reader that stops reading must not hang the
    /// host); false after `writeWait` seconds.
    private func waitWritable() -> Bool {
        var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        while true {
            let rc = poll(&ready, 1, Int32(Self.writeWait * 1000))
            if rc < 0 && errno == EINTR { continue }
            return rc > 0
        }
    }

    /// Opens (and creates, on uinput) the device; done by the first write, or at start-up by
    /// `ActionHost.openDevice()`. Idempotent.
    ///
    /// Only an explicit path other than /dev/uinput may be a new regular file: /dev/uinput
    /// must be the kernel's node, never a file created there (as root, without the module,
    /// every key would silently go into it). A FIFO is opened without waiting for a reader:
    /// with none, it is an error at once.
    public func open() throws {
        guard fd < 0 else { return }
        do {
            try openOnce()
        } catch let error as ActionError {
            // Every key action tries again (the module may be loaded, access granted, since);
            // what to do is said at the first failure, later ones only say that it failed.
            defer { lastOpenFailure = error }
            guard let last = lastOpenFailure, last == error else { throw error }
            throw ActionError(Self.shortened(error.message))
        }
        lastOpenFailure = nil
    }

    /// The last error `open` threw (nil: none since it last worked).
    private var lastOpenFailure: ActionError?

    /// An open error's first sentence: `cannot open … : Permission denied` without the advice.
    static func shortened(_ message: String) -> String {
        let first = message.range(of: ". ").map { String(message[..<$0.lowerBound]) } ?? message
        return first + " (as said when it first failed; see there, or docs/desktop.md)"
    }

    private func openOnce() throws {
        var info = stat()
        let exists = stat(path, &info) == 0
        let kind = exists ? info.st_mode & S_IFMT : 0
        let isCharacterDevice = kind == S_IFCHR
        if path == Self.defaultPath {
            guard exists else { throw Self.openError(path: path, errno: ENOENT) }
            guard isCharacterDevice else {
                throw ActionError("cannot use \(path) for the virtual keyboard and mouse: it is not the kernel's uinput device but \(kind == S_IFREG ? "a regular file" : "another kind of file"). Remove it, then load the uinput module: `sudo modprobe uinput` (or give --uinput PATH to write the events to a file)")
            }
        }
        let flags: Int32
        switch kind {
        case S_IFCHR, S_IFIFO: flags = O_WRONLY | O_NONBLOCK | O_CLOEXEC
        default: flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
        }
        let opened = Glibc.open(path, flags, 0o644)
        guard opened >= 0 else {
            let e = errno
            if e == ENXIO && kind == S_IFIFO {
                throw ActionError("cannot open \(path) for the virtual keyboard and mouse: it is a FIFO and nothing reads it")
            }
            throw Self.openError(path: path, errno: e)
        }
        fd = opened
        guard isCharacterDevice else { return }
        do {
            try setUp()
            isUinput = true
        } catch {
            close(fd)
            fd = -1
            throw error
        }
    }

    /// Declares every key, the mouse buttons and axes, then creates the device.
    private func setUp() throws {
        func request(_ name: String, _ rc: Int32) throws {
            guard rc >= 0 else {
                throw ActionError("\(path) is not a uinput device (\(name) failed: \(String(cString: strerror(errno))))")
            }
        }
        try request("UI_SET_EVBIT", ioctl(fd, UinputIoctl.setEvBit, CInt(InputEvent.key)))
        try request("UI_SET_EVBIT", ioctl(fd, UinputIoctl.setEvBit, CInt(InputEvent.rel)))
        for (_, code) in KeyCodeTable.keys { try request("UI_SET_KEYBIT", ioctl(fd, UinputIoctl.setKeyBit, CInt(code))) }
        for (_, code) in MouseButton.codes { try request("UI_SET_KEYBIT", ioctl(fd, UinputIoctl.setKeyBit, CInt(code))) }
        for axis in InputEvent.relativeAxes { try request("UI_SET_RELBIT", ioctl(fd, UinputIoctl.setRelBit, CInt(axis))) }
        var setup = [UInt8](repeating: 0, count: UinputIoctl.setupSize)
        setup[0] = 0x06  // BUS_VIRTUAL
        setup[2] = 0x09; setup[3] = 0x12  // vendor 0x1209 (pid.codes, open source)
        setup[4] = 0x01; setup[5] = 0x00
        for (i, byte) in Self.deviceName.utf8.prefix(79).enumerated() { setup[8 + i] = byte }
        try request("UI_DEV_SETUP", setup.withUnsafeMutableBytes { ioctl(fd, UinputIoctl.devSetup, $0.baseAddress!) })
        try request("UI_DEV_CREATE", ioctl(fd, UinputIoctl.devCreate))
        // The desktop opens a new device when udev tells it: give it a moment, so the first
        // chord is not typed into nothing.
        usleep(100_000)
    }

    static func openError(path: String, errno code: Int32) -> ActionError {
        let reason = String(cString: strerror(code))
        switch code {
        case EACCES, EPERM:
            return ActionError("cannot open \(path) for the virtual keyboard and mouse: \(reason). Grant your user access with a udev rule, /etc/udev/rules.d/70-motionscript.rules: KERNEL==\"uinput\", SUBSYSTEM==\"misc\", GROUP=\"motionscript\", MODE=\"0660\", OPTIONS+=\"static_node=uinput\" (then `sudo groupadd -f motionscript && sudo usermod -aG motionscript $USER`, `sudo udevadm control --reload && sudo udevadm trigger`, and log in again); docs/desktop.md has the whole rule. Or run with --dry-run to only print the actions")
        case ENOENT where path == defaultPath:
            return ActionError("cannot open \(path) for the virtual keyboard and mouse: \(reason). Load the uinput module: `sudo modprobe uinput` (and add uinput to /etc/modules-load.d/ to keep it)")
        default:
            return ActionError("cannot open \(path) for the virtual keyboard and mouse: \(reason)")
        }
    }
}

/// uinput ioctl requests (x86-64 numbering: dir << 30 | size << 16 | 'U' << 8 | nr).
enum UinputIoctl {
    private static func io(_ nr: UInt) -> UInt { (0x55 << 8) | nr }
    private static func iow(_ nr: UInt, size: UInt) -> UInt { (1 << 30) | (size << 16) | (0x55 << 8) | nr }

    /// `struct uinput_setup`: input_id (4 × u16), name[80], ff_effects_max (u32).
    static let setupSize = 92
    static let devCreate = io(1)                           // UI_DEV_CREATE 0x5501
    static let devDestroy = io(2)                          // UI_DEV_DESTROY 0x5502
    static let devSetup = iow(3, size: UInt(setupSize))    // UI_DEV_SETUP 0x405c5503
    static let setEvBit = iow(100, size: 4)                // UI_SET_EVBIT 0x40045564
    static let setKeyBit = iow(101, size: 4)               // UI_SET_KEYBIT 0x40045565
    static let setRelBit = iow(102, size: 4)               // UI_SET_RELBIT 0x40045566
}
