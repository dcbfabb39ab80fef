import MotionJSON
import MotionLua
import MotionTestSupport
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

/// The writer's own paths: decimals of up to 15 significant digits are spelled from an
/// integer and a count of places, everything else by the standard library; integers straight.
@Suite struct NumberFormatPathTests {
    @Test func decimalsOfEveryLengthAndScaleMatchDescription() {
        var generator = SplitMix64(seed: 0xdec1)
        var failures: [Double] = []
        for _ in 0..<100_000 {
            let bits = generator.next()
            let digits = Int(bits % 17) + 1  // 1 to 17 significant digits
            let places = Int((bits >> 8) % 23)  // 10^0 to 10^-22
            var m = generator.next() % 100_000_000_000_000_000
            for _ in digits..<17 { m /= 10 }
            var n = Double(m) / pow10(places)
            if bits >> 63 == 1 { n = -n }
            // The doubles on either side take other digits (and other paths).
            for candidate in [n, n.nextUp, n.nextDown] where !NumberFormatTests.check(candidate) {
                if failures.count < 5 { failures.append(candidate) }
            }
        }
        #expect(failures.isEmpty, "\(failures.map { "\($0.bitPattern): \(JSONText.number($0)) vs \(NumberFormatTests.expected($0))" })")
    }

    /// Any significand at the exponents printed without an exponent (1e-4 to 1e15): mostly
    /// 16 and 17 digits, the exact search's work, with its ties and powers of two.
    @Test func fullPrecisionDoublesPrintedWithoutExponentMatchDescription() {
        var generator = SplitMix64(seed: 0xf17ed)
        var failures: [Double] = []
        for i in 0..<100_000 {
            let bits = generator.next()
            let exponent = UInt(1023 - 14) + UInt(bits % 64)
            let significand = i % 10 == 0 ? 0 : bits >> 12  // powers of two: a closer neighbour below
            let n = Double(sign: bits & 2 == 0 ? .plus : .minus, exponentBitPattern: exponent, significandBitPattern: significand)
            if !NumberFormatTests.check(n), failures.count < 5 { failures.append(n) }
        }
        #expect(failures.isEmpty, "\(failures.map { "\($0.bitPattern): \(JSONText.number($0)) vs \(NumberFormatTests.expected($0))" })")
    }

    @Test func boundariesOfEachPathMatchDescription() {
        var values: [Double] = [
            1e-4, 1e-5, 0.00012345, 9.99999e-5, 1e15, 1e15 - 0.125, 1e15 + 0.25, 999_999_999_999_999.9,
            0.123456789012345, 0.1234567890123456, 12345678901234.5, 123456789012345.6, 4503599627370495.5,
            0x1p52, 0x1p53, 0x1p53 + 2, 0x1p54, 0x1p63, -0x1p63, 9.223372036854775e18, 1e22, 1e23,
            .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, -0.0, 0.001, 0.3,
        ]
        for k in -25...25 { values.append(pow10(abs(k)) * (k < 0 ? -1 : 1)); values.append(1 / pow10(abs(k))) }
        values += values.flatMap { [$0.nextUp, $0.nextDown, -$0] }
        for n in values { #expect(NumberFormatTests.check(n), "\(n.bitPattern): \(JSONText.number(n)) vs \(NumberFormatTests.expected(n))") }
    }

    @Test func newPathsPrintExactly() {
        let cases: [(Double, String)] = [
            (0.0001, "0.0001"), (1e-5, "1e-05"), (9.999999999999999e-05, "9.999999999999999e-05"),
            (-0.00012345, "-0.00012345"), (-0.001, "-0.001"), (123.456, "123.456"), (2.5, "2.5"), (-2.5, "-2.5"),
            (100.25, "100.25"), (0.123456789012345, "0.123456789012345"), (999_999_999_999_999.9, "999999999999999.9"),
            (0x1p63, "9.223372036854776e+18"), (-0x1p63, "-9.223372036854776e+18"), (-1234567, "-1234567"),
            (Double(Int64.max), "9.223372036854776e+18"), (-999_999_999_999_999, "-999999999999999"),
        ]
        for (n, text) in cases { #expect(JSONText.number(n) == text, "\(n)") }
    }

    /// Times print in whole microseconds, rounded half away from zero as `rounded()` does.
    @Test func timesRoundToMicrosecondsAsRoundedDoes() {
        var generator = SplitMix64(seed: 0x7135)
        var failures: [Double] = []
        for i in 0..<100_000 {
            let bits = generator.next()
            let t: Double
            switch i % 5 {
            case 0: t = (Double(bits % 10_000_000_000) + 0.5) / 1_000_000  // ties, where representable
            case 4: t = Double(bits % 10_000_000_000_000_000) / 1_000_000 * (bits >> 63 == 1 ? -1 : 1)  // to 1e10 s
            case 1: t = Double(bits % 1_000_000_000_000) / 1_000_000_000 * (bits >> 63 == 1 ? -1 : 1)
            case 2: t = Double(bitPattern: bits)  // any double, beyond 9e9, NaN
            default: t = Double(bits % 100_000) * 0.004 + Double(bits >> 40 % 3) * 0.1
            }
            var writer = JSONWriter()
            writer.time(t)
            writer.raw(",")
            writer.time(1e9 + t.truncatingRemainder(dividingBy: 1))  // where the shortcut ends
            func old(_ t: Double) -> String {
                NumberFormatTests.expected(t.isFinite && abs(t) < 9e9 ? (t * 1_000_000).rounded() / 1_000_000 : t)
            }
            let expected = old(t) + "," + old(1e9 + t.truncatingRemainder(dividingBy: 1))
            if String(decoding: writer.copiedBytes, as: UTF8.self) != expected, failures.count < 5 { failures.append(t) }
        }
        // Around 100 µs, where times start to print without an exponent.
        for micros in -300...300 {
            for offset in [0, 0.4, 0.5, -0.5] {
                let t = (Double(micros) + offset) / 1_000_000
                var writer = JSONWriter()
                writer.time(t)
                let expected = NumberFormatTests.expected((t * 1_000_000).rounded() / 1_000_000)
                if String(decoding: writer.copiedBytes, as: UTF8.self) != expected, failures.count < 5 { failures.append(t) }
            }
        }
        #expect(failures.isEmpty, "\(failures.map { "\($0.bitPattern)" })")
    }

    /// Exact powers of ten, as literals give them (10^k for k ≤ 22 is a double exactly).
    func pow10(_ k: Int) -> Double {
        var p = 1.0
        for _ in 0..<k { p *= 10 }
        return p
    }
}
