import MotionGestures
import MotionJSON

/// The fields of one JSON Lines event, before the reader's checks (id an integer, time order).
struct JSONLinesFields: Equatable {
    var t: Double
    var id: Double
    var phase: PointerPhase
    var x: Double
    var y: Double
}

/// The fast path of JSON Lines events as programs write them: one flat object holding exactly the
/// fields `t`, `id`, `phase`, `x`, `y` (any order, spaces allowed), plain decimal numbers
/// (`-12.375`, at most 15 significant digits, no exponent) and a phase without escapes, read in a
/// single pass with no callback, no allocation and no String. Anything else (extra fields,
/// exponents, escapes, errors) returns nil and goes to the general parser (`FlatJSON`), which
/// reads every line this path accepts to the same values.
enum JSONLinesEventLine {
    static func parse(_ line: UnsafeBufferPointer<UInt8>) -> JSONLinesFields? {
        guard let base = line.baseAddress else { return nil }
        var cursor = Cursor(p: base, end: line.count)
        return cursor.event()
    }

    private struct Cursor {
        let p: UnsafePointer<UInt8>
        let end: Int
        var i = 0

        @inline(__always)
        func byte(_ k: Int) -> UInt8 { k < end ? p[k] : 0 }

        /// JSON's spaces a line can hold (space, tab, CR; a line has no LF).
        @inline(__always)
        mutating func spaces() {
            var k = i
            while k < end, p[k] == 32 || p[k] == 9 || p[k] == 13 { k += 1 }
            i = k
        }

        @inline(__always)
        mutating func take(_ c: UInt8) -> Bool {
            spaces()
            guard byte(i) == c else { return false }
            i += 1
            return true
        }

        /// Whether `text` and then a closing quote are next (consumed if so).
        @inline(__always)
        mutating func quoted(_ text: StaticString) -> Bool {
            let n = text.utf8CodeUnitCount
            guard i + n < end, p[i + n] == 34 else { return false }
            let t = text.utf8Start
            for k in 0..<n where p[i + k] != t[k] { return false }
            i += n + 1
            return true
        }

        /// `-?digits(.digits)?` without a leading zero (`01` is not JSON: the general parser says
        /// so), at most 19 digits, converted as `FlatJSON` converts plain
        /// decimals (the exact mantissa divided by an exact power of ten; at most 15 significant
        /// digits, which for an exact mantissa means below 10^15), and followed by no other number
        /// character (the general parser reads the longest run of them as the number).
        @inline(__always)
        mutating func number() -> Double? {
            spaces()
            // A local cursor: the loops then keep it in a register.
            var k = i
            let negative = byte(k) == 45
            if negative { k += 1 }
            let from = k
            var mantissa: UInt64 = 0
            while k < end {
                let d = p[k] &- 48
                if d > 9 { break }
                mantissa = mantissa &* 10 &+ UInt64(d)
                k += 1
            }
            let whole = k - from
            guard whole > 0, whole == 1 || p[from] != 48 else { return nil }
            var fraction = 0
            if byte(k) == 46 {
                k += 1
                let dot = k
                while k < end {
                    let d = p[k] &- 48
                    if d > 9 { break }
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    k += 1
                }
                fraction = k - dot
                guard fraction > 0 else { return nil }
            }
            i = k
            switch byte(k) {
            case 43, 45, 46, 69, 101: return nil
            default: break
            }
            guard whole + fraction <= 19, mantissa < 1_000_000_000_000_000 else { return nil }
            let value = Double(mantissa) / JSONScanner.powerOfTen(fraction)
            return negative ? -value : value
        }

        mutating func event() -> JSONLinesFields? {
            guard take(123) else { return nil }
            var t: Double?, id: Double?, x: Double?, y: Double?
            var phase: PointerPhase?
            repeat {
                guard take(34), i + 1 < end else { return nil }
                let first = p[i]
                if p[i + 1] == 34 {
                    // A one-letter key: t, x or y.
                    i += 2
                    guard take(58), let v = number() else { return nil }
                    switch first {
                    case 116: t = v
                    case 120: x = v
                    case 121: y = v
                    default: return nil
                    }
                } else if quoted("id") {
                    guard take(58), let v = number() else { return nil }
                    id = v
                } else if quoted("phase") {
                    guard take(58), take(34) else { return nil }
                    if quoted("move") { phase = .move }
                    else if quoted("down") { phase = .down }
                    else if quoted("up") { phase = .up }
                    else if quoted("cancel") { phase = .cancel }
                    else { return nil }
                } else {
                    return nil
                }
            } while take(44)
            guard take(125) else { return nil }
            spaces()
            guard i == end, let t, let id, let phase, let x, let y else { return nil }
            return JSONLinesFields(t: t, id: id, phase: phase, x: x, y: y)
        }
    }
}
