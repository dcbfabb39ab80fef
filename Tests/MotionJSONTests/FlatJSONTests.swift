import MotionJSON
import Testing

/// The JSON Lines parser converts plain decimals itself (Clinger's fast path); it must agree
/// with the standard library's correctly rounded conversion to the last bit.
@Suite struct FlatJSONTests {
    private func number(_ text: String) throws -> Double? {
        var result: Double?
        let line = Array("{\"v\":\(text)}".utf8)
        try line.withUnsafeBufferPointer { bytes in
            try FlatJSON.parse(bytes) { _, value in
                if case .number(let n) = value { result = n }
            }
        }
        return result
    }

    @Test func plainDecimalsMatchTheStandardLibraryBitForBit() throws {
        var generator = SystemRandomNumberGenerator.seeded(42)
        for _ in 0..<20_000 {
            let integerDigits = Int.random(in: 0...9, using: &generator)
            let fractionDigits = Int.random(in: 0...12, using: &generator)
            var text = Bool.random(using: &generator) ? "-" : ""
            text += integerDigits == 0 ? "0" : String((0..<integerDigits).map { i in
                Character(String(i == 0 ? Int.random(in: 1...9, using: &generator) : Int.random(in: 0...9, using: &generator)))
            })
            if fractionDigits > 0 {
                text += "." + String((0..<fractionDigits).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            }
            let expected = Double(text)!
            let parsed = try number(text)!
            #expect(parsed.bitPattern == expected.bitPattern, "\(text): \(parsed) vs \(expected)")
            if parsed.bitPattern != expected.bitPattern { break }
        }
    }

    @Test(arguments: ["0", "-0", "0.016", "110", "1e-7", "2.5E+3", "123456789012345678", "0.30000000000000004",
                      "0.0000000000000000000001", "9007199254740993", "-17.25"])
    func edgeCasesMatchTheStandardLibrary(text: String) throws {
        #expect(try number(text)?.bitPattern == Double(text)!.bitPattern)
    }
}

private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        // SplitMix64: a fixed sequence, so a failure reproduces.
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
}

extension SystemRandomNumberGenerator {
    fileprivate static func seeded(_ seed: UInt64) -> SeededGenerator { SeededGenerator(state: seed) }
}
