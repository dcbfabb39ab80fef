import MotionGestures
import MotionStreams

/// JSON text as Strings (messages, `log`, `toString`, tests), written by JSONWriter.
public enum JSONText {
    private static func text(_ write: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter(capacity: 32)
        write(&writer)
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    public static func number(_ n: Double) -> String { text { $0.number(n) } }
    public static func string(_ s: String) -> String { text { $0.string(s) } }
    public static func point(_ p: Point) -> String { text { $0.point(p) } }
    public static func value(_ value: MotionValue) -> String { text { $0.value(value) } }
    public static func gesture(_ g: GestureValue) -> String { text { $0.gesture(g) } }
}
