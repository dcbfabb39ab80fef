/// JSON text as Strings (messages, `log`, `toString`, the control protocol, tests), written by
/// JSONWriter.
public enum JSONText {
    /// What `write` writes, as a String.
    public static func text(_ write: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter(capacity: 32)
        write(&writer)
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    public static func number(_ n: Double) -> String { text { $0.number(n) } }
    public static func string(_ s: String) -> String { text { $0.string(s) } }
}
