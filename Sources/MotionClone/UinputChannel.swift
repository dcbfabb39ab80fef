#if canImport(Glibc)
import Glibc
#endif

/// Where a clone's uinput requests go: the kernel (`UinputFile`, /dev/uinput) or, in tests, a
/// fake that records them. The requests are the kernel's: `ioctl(2)` numbers and arguments
/// (`UinputRequest`), and `write(2)` of `struct input_event` records.
public protocol UinputChannel: AnyObject {
    /// `ioctl(fd, request, value)`: 0 or more when it took, -1 (errno set) when not.
    func control(_ request: UInt, value: Int32) -> Int32
    /// `ioctl(fd, request, pointer)`.
    func control(_ request: UInt, pointer: UnsafeMutableRawPointer) -> Int32
    /// One `write(2)`: the bytes written, -1 (errno set) on failure.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int
    /// Closes the descriptor (the kernel destroys a device still created).
    func close()
}

/// /dev/uinput itself. Opened non-blocking: a write to uinput never waits, and nothing here may.
public final class UinputFile: UinputChannel {
    public static let defaultPath = "/dev/uinput"
    public let path: String
    private var fd: Int32

    public init(path: String = UinputFile.defaultPath) throws {
        self.path = path
        var info = stat()
        guard stat(path, &info) == 0 else { throw CloneError(Self.openMessage(path, errno)) }
        // A regular file there would swallow every frame: the desktop would get nothing.
        guard info.st_mode & S_IFMT == S_IFCHR else {
            throw CloneError("cannot make a clone through \(path): it is not the kernel's uinput device")
        }
        fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw CloneError(Self.openMessage(path, errno)) }
    }

    deinit { close() }

    static func openMessage(_ path: String, _ code: Int32) -> String {
        let reason = String(cString: strerror(code))
        switch code {
        case EACCES, EPERM:
            return "cannot open \(path) to make the touchpad's clone: \(reason) (grant access as for the virtual keyboard: docs/desktop.md)"
        case ENOENT:
            return "cannot open \(path) to make the touchpad's clone: \(reason) (load the uinput module: sudo modprobe uinput)"
        default:
            return "cannot open \(path) to make the touchpad's clone: \(reason)"
        }
    }

    public func control(_ request: UInt, value: Int32) -> Int32 {
        guard fd >= 0 else { errno = EBADF; return -1 }
        return ioctl(fd, request, CInt(value))
    }

    public func control(_ request: UInt, pointer: UnsafeMutableRawPointer) -> Int32 {
        guard fd >= 0 else { errno = EBADF; return -1 }
        return ioctl(fd, request, pointer)
    }

    public func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard fd >= 0 else { errno = EBADF; return -1 }
        while true {
            let n = Glibc.write(fd, bytes.baseAddress, bytes.count)
            if n < 0 && errno == EINTR { continue }
            return n
        }
    }

    public func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }
}

/// A clone that could not be made or written (said as a diagnostic; the device then stays the
/// desktop's, ungrabbed).
public struct CloneError: Error, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// uinput ioctl requests (x86-64 and arm64 numbering: dir << 30 | size << 16 | 'U' << 8 | nr),
/// from linux/uinput.h.
public enum UinputRequest {
    private static func io(_ nr: UInt) -> UInt { (0x55 << 8) | nr }
    private static func iow(_ nr: UInt, size: UInt) -> UInt { (1 << 30) | (size << 16) | (0x55 << 8) | nr }
    private static func ior(_ nr: UInt, size: UInt) -> UInt { (2 << 30) | (size << 16) | (0x55 << 8) | nr }

    /// `struct uinput_setup`: input_id (bustype, vendor, product, version: 4 × u16), name[80],
    /// ff_effects_max (u32).
    public static let setupSize = 92
    /// `struct uinput_abs_setup`: code (u16, 2 bytes of padding), `struct input_absinfo` (6 × s32).
    public static let absSetupSize = 28
    /// The longest name uinput takes (UINPUT_MAX_NAME_SIZE, its NUL included).
    public static let maxNameBytes = 80

    public static let devCreate = io(1)                              // UI_DEV_CREATE 0x5501
    public static let devDestroy = io(2)                             // UI_DEV_DESTROY 0x5502
    public static let devSetup = iow(3, size: UInt(setupSize))       // UI_DEV_SETUP 0x405c5503
    public static let absSetup = iow(4, size: UInt(absSetupSize))    // UI_ABS_SETUP 0x401c5504
    public static let setEvBit = iow(100, size: 4)                   // UI_SET_EVBIT 0x40045564
    public static let setKeyBit = iow(101, size: 4)                  // UI_SET_KEYBIT
    public static let setRelBit = iow(102, size: 4)                  // UI_SET_RELBIT
    public static let setAbsBit = iow(103, size: 4)                  // UI_SET_ABSBIT
    public static let setMscBit = iow(104, size: 4)                  // UI_SET_MSCBIT
    public static let setPhys = iow(108, size: 8)                    // UI_SET_PHYS (a char *) 0x4008556c
    public static let setSwBit = iow(109, size: 4)                   // UI_SET_SWBIT
    public static let setPropBit = iow(110, size: 4)                 // UI_SET_PROPBIT 0x4004556e
    /// UI_GET_SYSNAME(len): the clone's `inputN` in /sys/devices/virtual/input.
    public static func getSysname(_ len: UInt) -> UInt { ior(44, size: len) }
}
