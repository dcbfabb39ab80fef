#if canImport(Glibc)
import Glibc
#endif
import MotionGestures

/// One `--device` argument: a path (`/dev/input/event5`, a FIFO, `/dev/stdin`) or a selector
/// naming devices by what they are — `touchpad`, `touchscreen`, `mouse`, or `name=GLOB` — which
/// also picks up matching devices plugged in later.
public enum DeviceSelector: Equatable, Sendable, CustomStringConvertible {
    case path(String)
    case kind(InputDeviceInfo.Kind)
    case name(String)

    public init(_ text: String) {
        switch text {
        case "touchpad": self = .kind(.touchpad)
        case "touchscreen": self = .kind(.touchscreen)
        case "mouse": self = .kind(.mouse)
        default:
            if text.hasPrefix("name=") {
                self = .name(String(text.dropFirst(5)))
            } else {
                self = .path(text)
            }
        }
    }

    public var isPath: Bool {
        if case .path = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .path(let path): return path
        case .kind(let kind): return kind.rawValue
        case .name(let glob): return "name=\(glob)"
        }
    }

    /// Whether a device called `name`, of kind `kind`, is one this selector names.
    public func matches(name: String, kind: InputDeviceInfo.Kind) -> Bool {
        switch self {
        case .path: return false
        case .kind(let wanted): return kind == wanted
        case .name(let glob): return PointerDevice.glob(glob, matches: name)
        }
    }
}
