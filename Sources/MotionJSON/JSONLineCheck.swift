#if canImport(Glibc)
import Glibc
#endif

/// A quick check that a line is JSON that `JSONValue.parse` accepts, without building its value:
/// checking an expected file this way costs a scan, not a tree per line. It knows only the plain
/// lines output is made of (ASCII, strings without escapes, numbers without exponents, few keys,
/// little nesting); for anything else it answers "not sure", and the caller parses the line,
/// which gives the exact answer and the error with its column. So it may never say "valid" for
/// a line the parser refuses, and a line it does not know costs only the parse it cost before.
public enum JSONLineCheck {
    /// Keys of the objects open at once that are remembered (for duplicates); more: not sure.
    static let maxKeys = 40
    /// Containers open at once; deeper: not sure (the parser allows 512).
    static let maxDepth = 32

    /// true only when `JSONValue.parse` accepts `line`; false means "parse it to know".
    public static func isSurelyValid(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = line.baseAddress else { return false }
        // Small enough to live on the stack (a heap block per line would cost more than the scan).
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * maxKeys + maxDepth + 1) { scratch in
            scan(base, line.count, scratch.baseAddress!)
        }
    }

    private enum Expect { case value, key, afterValue }

    /// The grammar of `JSONValue.parse` without recursion: `depth` containers are open, bit d
    /// of `objects` telling whether the one at depth d is an object. `scratch` holds the start
    /// and length of each remembered key, then the index of each open object's first key.
    private static func scan(_ b: UnsafePointer<UInt8>, _ n: Int, _ scratch: UnsafeMutablePointer<Int>) -> Bool {
        let firstKey = scratch + 2 * maxKeys
        var i = skipSpace(b, 0, n)
        var depth = 0
        var objects: UInt64 = 0
        var keyCount = 0
        var expect = Expect.value
        while true {
            switch expect {
            case .value:
                guard i < n else { return false }
                let c = b[i]
                if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                    guard depth < maxDepth else { return false }
                    depth += 1
                    i = skipSpace(b, i + 1, n)
                    let isObject = c == UInt8(ascii: "{")
                    if isObject {
                        objects |= 1 &<< depth
                        firstKey[depth] = keyCount
                    } else {
                        objects &= ~(1 &<< depth)
                    }
                    if i < n, b[i] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        i += 1
                        depth -= 1
                        expect = .afterValue
                    } else {
                        expect = isObject ? .key : .value
                    }
                    continue
                }
                switch c {
                case UInt8(ascii: "\""):
                    guard let end = stringEnd(b, i, n) else { return false }
                    i = end
                case UInt8(ascii: "t"):
                    guard word(b, i, n, "true") else { return false }
                    i += 4
                case UInt8(ascii: "f"):
                    guard word(b, i, n, "false") else { return false }
                    i += 5
                case UInt8(ascii: "n"):
                    guard word(b, i, n, "null") else { return false }
                    i += 4
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    guard let end = numberEnd(b, i, n) else { return false }
                    i = end
                default:
                    return false
                }
                expect = .afterValue
            case .key:
                guard i < n, b[i] == UInt8(ascii: "\""), let end = stringEnd(b, i, n), keyCount < maxKeys else { return false }
                // A duplicate is the parser's error; keys without escapes are equal when their bytes are.
                let start = i + 1, length = end - 1 - start
                var k = firstKey[depth]
                while k < keyCount {
                    if scratch[2 &* k &+ 1] == length, length == 0 || b[scratch[2 &* k]] == b[start],
                       memcmp(b + scratch[2 &* k], b + start, length) == 0 { return false }
                    k &+= 1
                }
                scratch[2 * keyCount] = start
                scratch[2 * keyCount + 1] = length
                keyCount += 1
                i = skipSpace(b, end, n)
                guard i < n, b[i] == UInt8(ascii: ":") else { return false }
                i = skipSpace(b, i + 1, n)
                expect = .value
            case .afterValue:
                i = skipSpace(b, i, n)
                if depth == 0 { return i == n }
                guard i < n else { return false }
                let isObject = objects & (1 &<< depth) != 0
                if b[i] == UInt8(ascii: ",") {
                    i = skipSpace(b, i + 1, n)
                    expect = isObject ? .key : .value
                } else if b[i] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i += 1
                    if isObject { keyCount = firstKey[depth] }
                    depth -= 1
                } else {
                    return false
                }
            }
        }
    }

    /// After the white space the parser skips, less LF (a line has none).
    @inline(__always)
    private static func skipSpace(_ b: UnsafePointer<UInt8>, _ from: Int, _ n: Int) -> Int {
        var i = from
        while i < n, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0D { i &+= 1 }
        return i
    }

    @inline(__always)
    private static func word(_ b: UnsafePointer<UInt8>, _ i: Int, _ n: Int, _ text: StaticString) -> Bool {
        n - i >= text.utf8CodeUnitCount && memcmp(b + i, text.utf8Start, text.utf8CodeUnitCount) == 0
    }

    /// After a string of printable ASCII: no escape, no control character, no UTF-8 sequence
    /// (those are for the parser to judge).
    @inline(__always)
    private static func stringEnd(_ b: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Int? {
        var j = i + 1
        while j < n {
            let c = b[j]
            if c == UInt8(ascii: "\"") { return j + 1 }
            guard c >= 0x20, c < 0x80, c != UInt8(ascii: "\\") else { return nil }
            j &+= 1
        }
        return nil
    }

    /// After a number with digits, maybe a fraction, no exponent, and few enough digits that
    /// it is finite.
    @inline(__always)
    private static func numberEnd(_ b: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Int? {
        var j = i
        if b[j] == UInt8(ascii: "-") { j += 1 }
        let integer = j
        while j < n, b[j] &- 0x30 < 10 { j &+= 1 }
        guard j > integer, j - integer <= 300 else { return nil }
        if j < n, b[j] == UInt8(ascii: ".") {
            j += 1
            let fraction = j
            while j < n, b[j] &- 0x30 < 10 { j &+= 1 }
            guard j > fraction else { return nil }
        }
        if j < n, b[j] | 0x20 == UInt8(ascii: "e") { return nil }
        return j
    }
}
