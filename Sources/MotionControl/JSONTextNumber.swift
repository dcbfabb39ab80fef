/// Seconds as messages and scenario headers write them: `2` for a whole number, `0.25` otherwise.
public enum JSONTextNumber {
    public static func short(_ s: Double) -> String { s == s.rounded() ? String(Int(s)) : String(s) }
}
