/// `struct input_absinfo`: the range of one absolute axis. `resolution` is in units per millimetre
/// for position axes (0 when the device does not say).
public struct AbsInfo: Sendable, Equatable {
    public var value: Int32
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    public var resolution: Int32

    public init(value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }
}

/// What a device says about itself: the evemu header (N:/I:/P:/B:/A:), the libinput `evdev:` block,
/// or the ioctls of a live device. Empty for raw files and pipes, where the decoder learns the
/// protocol from the events themselves.
public struct DeviceDescription: Sendable, Equatable {
    public var name: String = ""
    public var bus: UInt16 = 0
    public var vendor: UInt16 = 0
    public var product: UInt16 = 0
    public var version: UInt16 = 0
    /// Where the device sits (`EVIOCGPHYS`: `usb-0000:00:14.0-3/input0`); empty when not known
    /// (recordings do not keep it). A `--proxy` clone's is `motionscript-clone/` and this.
    public var phys: String = ""
    /// INPUT_PROP_* numbers.
    public var properties: Set<Int> = []
    /// Event type → supported codes.
    public var codes: [UInt16: Set<UInt16>] = [:]
    /// Absolute axis code → range.
    public var absinfo: [UInt16: AbsInfo] = [:]

    public init() {}

    /// True when the source described the device at all (codes or axes).
    public var isDescribed: Bool { !codes.isEmpty || !absinfo.isEmpty }

    public func has(type: UInt16, code: UInt16) -> Bool {
        if codes[type]?.contains(code) == true { return true }
        return type == EV.ABS && absinfo[code] != nil
    }

    /// Marks a code supported (and its type).
    public mutating func add(type: UInt16, code: UInt16) {
        codes[type, default: []].insert(code)
    }

    /// Codes are 16-bit: a bitmap longer than this says nothing more.
    public static let maxBitmapBytes = 8192

    /// Sets the codes of `type` from a kernel bitmap (bit n of byte n/8 = code n); bytes past
    /// `maxBitmapBytes` are ignored (readers of files report them as errors first).
    public mutating func setBits(type: UInt16, bitmap: [UInt8]) {
        var set = Set<UInt16>()
        for (i, byte) in bitmap.prefix(Self.maxBitmapBytes).enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 { set.insert(UInt16(i * 8 + bit)) }
        }
        if type == EV.SYN {
            // The EV_SYN bitmap lists the supported types; keep it as the type list.
            codes[EV.SYN] = set
        } else if !set.isEmpty {
            codes[type] = set
        } else {
            codes[type] = nil
        }
    }

    /// The kernel bitmap of `type` over `bytes` bytes.
    public func bitmap(type: UInt16, bytes: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: bytes)
        var set = codes[type] ?? []
        if type == EV.SYN {
            // The EV_SYN bitmap is the list of supported types.
            set = Set(codes.filter { !$0.value.isEmpty && $0.key != EV.SYN }.keys)
            set.insert(EV.SYN)
            if !absinfo.isEmpty { set.insert(EV.ABS) }
        }
        if type == EV.ABS { set.formUnion(absinfo.keys) }
        for code in set where Int(code) / 8 < bytes { out[Int(code) / 8] |= UInt8(1 << (code % 8)) }
        return out
    }

    /// Touch or pointer axes: what `devices` and multi-device recordings look for.
    public var hasPointerAxes: Bool {
        has(type: EV.ABS, code: ABS.MT_POSITION_X) || has(type: EV.ABS, code: ABS.X)
            || (has(type: EV.REL, code: REL.X) && has(type: EV.REL, code: REL.Y))
    }
}
