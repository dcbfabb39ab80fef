import MotionGestures
import MotionJSON
import MotionStreams

/// The JSON of stream values as Strings (`log`, `toString`, messages).
extension JSONText {
    public static func point(_ p: Point) -> String { text { $0.point(p) } }
    public static func value(_ value: MotionValue) -> String { text { $0.value(value) } }
    public static func gesture(_ g: GestureValue) -> String { text { $0.gesture(g) } }
}
