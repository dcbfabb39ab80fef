#if canImport(Glibc)
import Glibc
#endif

/// evdev ioctl requests, computed in Swift because the `_IOC` macros do not reach Swift
/// (x86-64 numbering: dir << 30 | size << 16 | 'E' << 8 | nr). They fail with ENOTTY on pipes.
enum EvdevIoctl {
    private static func ior(_ nr: UInt, size: UInt) -> UInt { (2 << 30) | (size << 16) | (0x45 << 8) | nr }
    private static func iow(_ nr: UInt, size: UInt) -> UInt { (1 << 30) | (size << 16) | (0x45 << 8) | nr }

    static let getID = ior(0x02, size: 8)                         // EVIOCGID
    static func getName(_ len: UInt) -> UInt { ior(0x06, size: len) }  // EVIOCGNAME(len): 0x81004506 for 256
    static func getPhys(_ len: UInt) -> UInt { ior(0x07, size: len) }  // EVIOCGPHYS(len)
    static func getProp(_ len: UInt) -> UInt { ior(0x09, size: len) }  // EVIOCGPROP(len)
    static func getBit(_ type: UInt16, _ len: UInt) -> UInt { ior(0x20 + UInt(type), size: len) }  // EVIOCGBIT
    static func getAbs(_ code: UInt16) -> UInt { ior(0x40 + UInt(code), size: 24) }  // EVIOCGABS: 0x80184540 + abs
    static let grab = iow(0x90, size: 4)                          // EVIOCGRAB 0x40044590
    static let setClockID = iow(0xa0, size: 4)                    // EVIOCSCLOCKID 0x400445a0

    /// Bitmap sizes (bytes) per event type, as the kernel and evemu use them.
    static let bitmapBytes: [(type: UInt16, bytes: Int)] = [
        (EV.SYN, 8), (EV.KEY, 96), (EV.REL, 8), (EV.ABS, 8), (EV.MSC, 8), (EV.SW, 8), (EV.LED, 8), (EV.SND, 8), (EV.FF, 16),
    ]

    /// Reads a buffer-returning ioctl; nil with errno set on failure.
    static func read(_ fd: Int32, _ request: UInt, count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        let rc = buffer.withUnsafeMutableBytes { ioctl(fd, request, $0.baseAddress!) }
        return rc < 0 ? nil : buffer
    }

    /// The description of an open evdev node; nil (errno set) when `fd` is not one.
    static func describe(_ fd: Int32) -> DeviceDescription? {
        guard let nameBytes = read(fd, getName(256), count: 256) else { return nil }
        var d = DeviceDescription()
        d.name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
        // A device without a phys (many virtual ones) fails with ENOENT: it stays empty.
        if let phys = read(fd, getPhys(256), count: 256) {
            d.phys = String(decoding: phys.prefix { $0 != 0 }, as: UTF8.self)
        }
        if let id = read(fd, getID, count: 8) {
            func u16(_ i: Int) -> UInt16 { UInt16(id[i]) | UInt16(id[i + 1]) << 8 }
            (d.bus, d.vendor, d.product, d.version) = (u16(0), u16(2), u16(4), u16(6))
        }
        if let props = read(fd, getProp(8), count: 8) {
            for (i, byte) in props.enumerated() where byte != 0 {
                for bit in 0..<8 where byte & (1 << bit) != 0 { d.properties.insert(i * 8 + bit) }
            }
        }
        for (type, bytes) in bitmapBytes {
            if let bits = read(fd, getBit(type, UInt(bytes)), count: bytes) { d.setBits(type: type, bitmap: bits) }
        }
        for code in d.codes[EV.ABS] ?? [] {
            var info = [Int32](repeating: 0, count: 6)
            let rc = info.withUnsafeMutableBytes { ioctl(fd, getAbs(code), $0.baseAddress!) }
            if rc == 0 {
                d.absinfo[code] = AbsInfo(value: info[0], minimum: info[1], maximum: info[2], fuzz: info[3], flat: info[4], resolution: info[5])
            }
        }
        return d
    }
}
