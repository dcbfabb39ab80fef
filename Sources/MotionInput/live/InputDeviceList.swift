#if canImport(Glibc)
import Glibc
#endif

/// One entry of `motionscript devices`.
public struct InputDeviceInfo: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// INPUT_PROP_DIRECT with absolute position axes.
        case touchscreen
        /// Multi-touch with INPUT_PROP_POINTER or INPUT_PROP_BUTTONPAD.
        case touchpad
        /// REL_X and REL_Y.
        case mouse
        case other
    }

    public var name: String
    /// `/dev/input/eventN`, or nil when the device has no event handler.
    public var eventNode: String?
    public var kind: Kind
    public var properties: Set<Int>
    public var eventTypes: Set<UInt16>
    public var absCodes: Set<UInt16>
    public var relCodes: Set<UInt16>
    /// The kernel's `phys` (where the device sits: `usb-0000:00:14.0-3/input0`, `i2c-…`).
    public var phys = ""

    /// `phys` of every clone `--proxy` makes (`motionscript-clone/` and the real device's phys):
    /// the selectors (`touchpad`, `name=…`) never pick one, so motionscript never reads or grabs
    /// its own clones; `devices` marks them.
    public static let clonePhysPrefix = "motionscript-clone"
    public var isProxyClone: Bool { phys.hasPrefix(Self.clonePhysPrefix) }

    /// The kind from the PROP/ABS/REL bitmaps, as libinput would classify the device.
    public static func classify(properties: Set<Int>, abs: Set<UInt16>, rel: Set<UInt16>) -> Kind {
        let mt = abs.contains(ABS.MT_POSITION_X) && abs.contains(ABS.MT_POSITION_Y)
        let positioned = mt || (abs.contains(ABS.X) && abs.contains(ABS.Y))
        if properties.contains(INPUT_PROP.DIRECT) && positioned { return .touchscreen }
        if mt && (properties.contains(INPUT_PROP.POINTER) || properties.contains(INPUT_PROP.BUTTONPAD)) { return .touchpad }
        if rel.contains(REL.X) && rel.contains(REL.Y) { return .mouse }
        return .other
    }
}

/// Parses `/proc/bus/input/devices`: blank-line separated blocks of `N: Name="..."`,
/// `H: Handlers=... eventN`, and `B: PROP=/EV=/ABS=/REL=` bitmaps (hex words of the kernel's
/// `unsigned long`, most significant first).
public enum InputDeviceList {
    public static let procPath = "/proc/bus/input/devices"

    /// Reads the devices of this machine; an empty list when `/proc/bus/input/devices` is missing.
    public static func current() -> [InputDeviceInfo] {
        guard let reader = try? LineReader(path: procPath) else { return [] }
        var text = ""
        while let line = try? reader.nextLine({ String(decoding: $0, as: UTF8.self) }) { text += line + "\n" }
        return parse(text)
    }

    public static func parse(_ text: String) -> [InputDeviceInfo] {
        var devices: [InputDeviceInfo] = []
        var name = ""
        var node: String?
        var phys = ""
        var props = Set<Int>(), types = Set<UInt16>(), abs = Set<UInt16>(), rel = Set<UInt16>()
        var inBlock = false
        func flush() {
            if inBlock {
                devices.append(InputDeviceInfo(name: name, eventNode: node, kind: InputDeviceInfo.classify(properties: props, abs: abs, rel: rel),
                                               properties: props, eventTypes: types, absCodes: abs, relCodes: rel, phys: phys))
            }
            name = ""
            phys = ""
            node = nil
            props = []; types = []; abs = []; rel = []
            inBlock = false
        }
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: " \t\r")
            if line.isEmpty {
                flush()
                continue
            }
            inBlock = true
            if line.hasPrefix("N: Name=") {
                var value = line.dropFirst("N: Name=".count)
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
                name = String(value)
            } else if line.hasPrefix("P: Phys=") {
                phys = String(line.dropFirst("P: Phys=".count))
            } else if line.hasPrefix("H: Handlers=") {
                for handler in line.dropFirst("H: Handlers=".count).split(separator: " ") where handler.hasPrefix("event") {
                    node = "/dev/input/" + handler
                }
            } else if line.hasPrefix("B: ") {
                let body = line.dropFirst(3)
                guard let eq = body.firstIndex(of: "=") else { continue }
                let bits = bitmap(body[body.index(after: eq)...])
                switch body[..<eq] {
                case "PROP": props = Set(bits)
                case "EV": types = Set(bits.map { UInt16($0) })
                case "ABS": abs = Set(bits.map { UInt16($0) })
                case "REL": rel = Set(bits.map { UInt16($0) })
                default: break
                }
            }
        }
        flush()
        return devices
    }

    /// Set bit numbers of a `/proc` bitmap: space-separated hex words, most significant first, 64 bits each.
    static func bitmap(_ text: Substring) -> [Int] {
        var bits: [Int] = []
        for (index, word) in text.split(separator: " ").reversed().enumerated() {
            guard let value = UInt64(word, radix: 16) else { continue }
            for bit in 0..<64 where value & (1 << UInt64(bit)) != 0 { bits.append(index * 64 + bit) }
        }
        return bits
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var s = self
        while let c = s.first, set.contains(c) { s = s.dropFirst() }
        while let c = s.last, set.contains(c) { s = s.dropLast() }
        return s
    }
}
