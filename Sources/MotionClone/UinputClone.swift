#if canImport(Glibc)
import Glibc
#endif
import MotionInput
import MotionProxy

/// The desktop's clone of a proxied device (docs/desktop.md, "The proxy"): a uinput device made
/// with the device's identity (`CloneIdentity`: name, bus, ids, version, properties, every key
/// and axis with its range, fuzz, flat and resolution, `MSC_TIMESTAMP`) and the phys
/// `motionscript-clone/<the device's phys>`, so libinput applies the same quirks and the user's
/// saved settings, and motionscript never opens it. What the arbiter passes is written here.
///
/// Each frame is one `write(2)` (its events and `SYN_REPORT` together: the kernel hands the
/// desktop a whole frame at once). A frame due later than now (released after being held, its
/// pace kept: `CloneSink`'s `due`) waits in a queue until a timer (`schedule`, the event loop's
/// `register(at:)`) says its time came; nothing here sleeps. Per frame nothing is allocated (the
/// buffers grow once, to the largest frame seen).
///
/// The clone goes with `close()` (`UI_DEV_DESTROY`), and with the process on every other path:
/// the kernel destroys a uinput device whose descriptor closes, SIGKILL included.
public final class UinputClone: CloneSink {
    public let identity: CloneIdentity
    /// The clone's phys (`CloneIdentity.phys(cloning:)` of the real device's).
    public let phys: String
    /// `inputN` (UI_GET_SYSNAME), nil when the kernel did not say.
    public let sysname: String?
    /// The clone's event node (`/dev/input/eventN`), found from `sysname`; nil when not found.
    public let node: String?
    /// Told once when a write fails (then once more when writes work again).
    public var diagnostics: ((String) -> Void)?
    /// Asked to run `writeDue(now:)` at a monotonic time (nil: nothing waits); set by `attach(to:)`.
    public var schedule: ((Double?) -> Void)?
    /// Monotonic seconds now: `due` times are on the device's clock, CLOCK_MONOTONIC (tests inject).
    public var now: () -> Double = UinputClone.monotonicNow

    private let channel: UinputChannel
    private var closed = false
    /// The bytes of the frame being written.
    private var bytes: UnsafeMutableRawPointer
    private var byteCapacity: Int
    /// Frames due later: their events end to end from `pendingStart`, where each ends, when due.
    private var pending: [InputEventRecord] = []
    private var pendingEnds: [Int] = []
    private var pendingDues: [Double] = []
    private var pendingHead = 0
    private var pendingStart = 0
    private var failing = false
    /// Covers the queue and the writes: `write`/`writeDue` run on the host's thread (the timer
    /// on its event loop), `writeNow` on the input drain's while the host is stalled.
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Frames written, and writes that failed (for status and tests).
    public private(set) var framesWritten = 0
    public private(set) var failedWrites = 0

    /// Makes the clone through `channel` (the kernel's /dev/uinput: `UinputFile()`), `realPhys`
    /// being the real device's phys (`DeviceDescription.phys`). Throws `CloneError` saying which
    /// request failed; nothing is left made then.
    public init(identity: CloneIdentity, realPhys: String, channel: UinputChannel) throws {
        self.identity = identity
        self.channel = channel
        phys = CloneIdentity.phys(cloning: realPhys)
        byteCapacity = 64 * InputEventRecord.rawSize
        bytes = .allocate(byteCount: byteCapacity, alignment: 8)
        pthread_mutex_init(lock, nil)
        pending.reserveCapacity(4096)
        pendingEnds.reserveCapacity(256)
        pendingDues.reserveCapacity(256)
        do {
            try Self.setUp(identity: identity, phys: phys, channel: channel)
        } catch {
            channel.close()
            bytes.deallocate()
            pthread_mutex_destroy(lock)
            lock.deallocate()
            throw error
        }
        sysname = Self.sysname(channel)
        node = sysname.flatMap(Self.eventNode(sysname:))
    }

    /// A clone through /dev/uinput.
    public convenience init(identity: CloneIdentity, realPhys: String, path: String = UinputFile.defaultPath) throws {
        try self.init(identity: identity, realPhys: realPhys, channel: UinputFile(path: path))
    }

    deinit {
        close()
        bytes.deallocate()
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// Every request that makes the clone, in the order uinput wants them: the event types and
    /// their codes, the properties, each axis's `UI_ABS_SETUP`, the phys, then `UI_DEV_SETUP`
    /// (name and ids) and `UI_DEV_CREATE`. Force feedback, LEDs, sounds and autorepeat are not
    /// cloned (a touchpad has none; the clone would have to answer the desktop's requests).
    static func setUp(identity: CloneIdentity, phys: String, channel: UinputChannel) throws {
        func check(_ what: String, _ rc: Int32) throws {
            guard rc >= 0 else {
                throw CloneError("cannot make the clone of \(identity.name): \(what) failed (\(String(cString: strerror(errno))))")
            }
        }
        let d = identity.device
        let bitRequests: [(type: UInt16, request: UInt)] = [
            (EV.KEY, UinputRequest.setKeyBit), (EV.REL, UinputRequest.setRelBit), (EV.ABS, UinputRequest.setAbsBit),
            (EV.MSC, UinputRequest.setMscBit), (EV.SW, UinputRequest.setSwBit),
        ]
        for (type, request) in bitRequests {
            var codes = d.codes[type] ?? []
            if type == EV.ABS { codes.formUnion(d.absinfo.keys) }
            guard !codes.isEmpty else { continue }
            try check("UI_SET_EVBIT \(type)", channel.control(UinputRequest.setEvBit, value: Int32(type)))
            for code in codes.sorted() { try check("setting code \(code) of type \(type)", channel.control(request, value: Int32(code))) }
        }
        for property in d.properties.sorted() {
            try check("UI_SET_PROPBIT \(property)", channel.control(UinputRequest.setPropBit, value: Int32(property)))
        }
        for code in d.absinfo.keys.sorted() {
            let info = d.absinfo[code]!
            var setup = [UInt8](repeating: 0, count: UinputRequest.absSetupSize)
            func put(_ value: Int32, at offset: Int) {
                withUnsafeBytes(of: value.littleEndian) { for (i, b) in $0.enumerated() { setup[offset + i] = b } }
            }
            setup[0] = UInt8(code & 0xff)
            setup[1] = UInt8(code >> 8)
            put(info.value, at: 4)
            put(info.minimum, at: 8)
            put(info.maximum, at: 12)
            put(info.fuzz, at: 16)
            put(info.flat, at: 20)
            put(info.resolution, at: 24)
            try check("UI_ABS_SETUP \(code)", setup.withUnsafeMutableBytes { channel.control(UinputRequest.absSetup, pointer: $0.baseAddress!) })
        }
        var physBytes = Array(phys.utf8.prefix(1023)) + [0]
        try check("UI_SET_PHYS", physBytes.withUnsafeMutableBytes { channel.control(UinputRequest.setPhys, pointer: $0.baseAddress!) })
        var setup = [UInt8](repeating: 0, count: UinputRequest.setupSize)
        for (i, value) in [d.bus, d.vendor, d.product, d.version].enumerated() {
            setup[i * 2] = UInt8(value & 0xff)
            setup[i * 2 + 1] = UInt8(value >> 8)
        }
        // uinput takes 79 bytes of name (and its NUL): cut at a character's end.
        var name: [UInt8] = []
        for scalar in d.name.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            if name.count + encoded.count > UinputRequest.maxNameBytes - 1 { break }
            name += encoded
        }
        for (i, byte) in name.enumerated() { setup[8 + i] = byte }
        try check("UI_DEV_SETUP", setup.withUnsafeMutableBytes { channel.control(UinputRequest.devSetup, pointer: $0.baseAddress!) })
        try check("UI_DEV_CREATE", channel.control(UinputRequest.devCreate, value: 0))
    }

    static func sysname(_ channel: UinputChannel) -> String? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let rc = buffer.withUnsafeMutableBytes { channel.control(UinputRequest.getSysname(64), pointer: $0.baseAddress!) }
        guard rc >= 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }

    /// `/dev/input/eventN` of the device `inputN` (its `eventN` entry in sysfs).
    static func eventNode(sysname: String) -> String? {
        let directory = "/sys/devices/virtual/input/\(sysname)"
        guard let dir = opendir(directory) else { return nil }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("event") { return "/dev/input/" + name }
        }
        return nil
    }

    /// Writes `writeDue` on the loop's timer from now on.
    public func attach(to loop: EventLoop) {
        let registration = loop.register(at: nil) { [weak self] in
            guard let self else { return }
            self.writeDue(now: self.now())
        }
        schedule = { [unowned loop] at in loop.reschedule(registration, at: at) }
        unregister = { [unowned loop] in loop.unregister(registration) }
    }

    private var unregister: (() -> Void)?

    // MARK: CloneSink

    public func write(_ frame: UnsafeBufferPointer<InputEventRecord>, due: Double) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard !closed, !frame.isEmpty else { return }
        let t = now()
        if pendingHead < pendingEnds.count, pendingDues[pendingHead] <= t { writeDueLocked(now: t) }
        if pendingHead == pendingEnds.count, due <= t { return send(frame) }
        // Later: queued behind what waits (due times never go back: `TouchArbiter` keeps them in order).
        let wasEmpty = pendingHead == pendingEnds.count
        pending.append(contentsOf: frame)
        pendingEnds.append(pending.count)
        pendingDues.append(due)
        if wasEmpty { schedule?(due) }
    }

    /// The input drain's thread, the host stalled (`ProxyClone.writeNow`): what waits and
    /// `frame`, at once, in order; the timer is left alone (it belongs to the host's event loop:
    /// when it fires, nothing waits any more).
    public func writeNow(_ frame: UnsafeBufferPointer<InputEventRecord>) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard !closed, !frame.isEmpty else { return }
        while pendingHead < pendingEnds.count {
            sendPending(pendingHead)
            pendingHead += 1
        }
        pending.removeAll(keepingCapacity: true)
        pendingEnds.removeAll(keepingCapacity: true)
        pendingDues.removeAll(keepingCapacity: true)
        (pendingHead, pendingStart) = (0, 0)
        send(frame)
    }

    /// Writes the queued frames due by `now`, and asks for the next one's time.
    public func writeDue(now: Double) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        writeDueLocked(now: now)
    }

    private func writeDueLocked(now: Double) {
        while pendingHead < pendingEnds.count, pendingDues[pendingHead] <= now {
            sendPending(pendingHead)
            pendingHead += 1
        }
        if pendingHead == pendingEnds.count {
            pending.removeAll(keepingCapacity: true)
            pendingEnds.removeAll(keepingCapacity: true)
            pendingDues.removeAll(keepingCapacity: true)
            (pendingHead, pendingStart) = (0, 0)
            schedule?(nil)
        } else {
            schedule?(pendingDues[pendingHead])
        }
    }

    /// Frames waiting for their time.
    public var waitingFrames: Int {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return pendingEnds.count - pendingHead
    }

    private func sendPending(_ k: Int) {
        let end = pendingEnds[k]
        pending.withUnsafeBufferPointer { all in
            send(UnsafeBufferPointer(rebasing: all[pendingStart..<end]))
        }
        pendingStart = end
    }

    /// One frame, one write.
    private func send(_ frame: UnsafeBufferPointer<InputEventRecord>) {
        let size = frame.count * InputEventRecord.rawSize
        if size > byteCapacity {
            bytes.deallocate()
            byteCapacity = size
            bytes = .allocate(byteCount: size, alignment: 8)
        }
        var offset = 0
        for e in frame {
            // The kernel stamps what uinput is written with its own time: the time fields are 0.
            bytes.storeBytes(of: Int64(0), toByteOffset: offset, as: Int64.self)
            bytes.storeBytes(of: Int64(0), toByteOffset: offset + 8, as: Int64.self)
            bytes.storeBytes(of: e.type.littleEndian, toByteOffset: offset + 16, as: UInt16.self)
            bytes.storeBytes(of: e.code.littleEndian, toByteOffset: offset + 18, as: UInt16.self)
            bytes.storeBytes(of: e.value.littleEndian, toByteOffset: offset + 20, as: Int32.self)
            offset += InputEventRecord.rawSize
        }
        let n = channel.write(UnsafeRawBufferPointer(start: bytes, count: size))
        if n == size {
            framesWritten += 1
            if failing {
                failing = false
                diagnostics?("the clone of \(identity.name) takes frames again")
            }
            return
        }
        failedWrites += 1
        if !failing {
            failing = true
            let why = n < 0 ? String(cString: strerror(errno)) : "\(n) of \(size) bytes written"
            diagnostics?("cannot write to the clone of \(identity.name): \(why)")
        }
    }

    /// Writes what still waits (at once: the device is going), then destroys the clone
    /// (`UI_DEV_DESTROY`) and closes it. Idempotent.
    public func close() {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard !closed else { return }
        while pendingHead < pendingEnds.count {
            sendPending(pendingHead)
            pendingHead += 1
        }
        closed = true
        unregister?()
        unregister = nil
        schedule = nil
        _ = channel.control(UinputRequest.devDestroy, value: 0)
        channel.close()
    }

    public static func monotonicNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
