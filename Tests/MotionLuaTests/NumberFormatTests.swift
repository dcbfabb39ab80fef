import MotionLua
import Testing

/// Numbers in output lines: the digits `Double.description` spells (the shortest that read
/// back to the same double), integral values without a fraction, written without a String.
@Suite struct NumberFormatTests {
    /// What the writer printed before it wrote digits straight into its buffer.
    static func expected(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        let text = n.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    static func check(_ n: Double) -> Bool {
        let text = JSONText.number(n)
        guard text == expected(n) else { return false }
        guard n.isFinite else { return true }
        // Reads back to the same double, bit for bit (negative zero prints as 0, an integer).
        guard let back = Double(text) else { return false }
        return n == 0 ? back == 0 : back.bitPattern == n.bitPattern
    }

    @Test func aHundredThousandRandomDoublesMatchDescriptionAndRoundTrip() {
        var generator = SplitMix64(seed: 0x5eed)
        var failures: [Double] = []
        for i in 0..<100_000 {
            let bits = generator.next()
            let n: Double
            switch i % 5 {
            case 0: n = Double(bitPattern: bits)  // any double: NaN, infinities, every exponent
            case 1: n = Double(bitPattern: bits & 0x000F_FFFF_FFFF_FFFF)  // subnormals
            case 2: n = Double(bits >> 10) * (bits & 1 == 0 ? 1 : -1)  // integers up to 2^54, most ≥ 1e15
            case 3: n = Double(bits % 2_000_000) / 1000 - 1000  // typical coordinates
            default: n = Double(bitPattern: bits) / 0x1p900  // small magnitudes
            }
            if !Self.check(n), failures.count < 5 { failures.append(n) }
        }
        #expect(failures.isEmpty, "\(failures.map { "\($0.bitPattern): \(JSONText.number($0)) vs \(Self.expected($0))" })")
    }

    @Test func edgeCasesPrintExactly() {
        let cases: [(Double, String)] = [
            (0, "0"), (-0.0, "0"), (1, "1"), (-1.5, "-1.5"), (0.1, "0.1"), (0.1 + 0.2, "0.30000000000000004"),
            (1e15, "1000000000000000"), (123456789012345678, "1.2345678901234568e+17"),
            (9007199254740993, "9007199254740992"), (-1e15, "-1000000000000000"), (1e16, "1e+16"),
            (5e-324, "5e-324"), (2.2250738585072014e-308, "2.2250738585072014e-308"),
            (.greatestFiniteMagnitude, "1.7976931348623157e+308"), (.infinity, "null"), (.nan, "null"),
        ]
        for (n, text) in cases { #expect(JSONText.number(n) == text, "\(n)") }
    }
}

/// A small deterministic generator, so a failure names a value that reproduces.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
