#if canImport(Glibc)
import Glibc
#endif

/// Writes JSON into a reusable byte buffer: output lines are built without Strings, so writing
/// one costs no allocation once the buffer has grown. Numbers read back to the same double:
/// integers print without a fraction, others in Swift's shortest round-trip form (the digits
/// `Double.description` spells); NaN and infinities print as null.
///
/// Not copyable: the buffer is owned memory, written through a pointer (an array's append
/// checks its capacity and uniqueness for every byte).
public struct JSONWriter: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    /// Bytes written since the last `reset` (`count` outside).
    @usableFromInline var used = 0
    @inlinable public var count: Int { used }
    /// Stream names and their JSON: a name is escaped the first time it is written, not on
    /// every line (see `nameField`).
    @usableFromInline var names: NameCache

    @inlinable public init(capacity: Int = 256) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
        names = NameCache()
        // The table of powers of ten is made here, when outputs are set up, not by the first
        // number with decimals a gesture prints (some 11,000 instructions on that frame:
        // docs/performance.md "The first frames").
        _ = Self.powersOfTen.count
    }

    deinit {
        base.deallocate()
        names.deallocate()
    }

    /// A copy of what was written (tests, messages): named for the copy, so the per-line path
    /// uses `count` and `withBytes`, which lend it without copying.
    @inlinable public var copiedBytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: used)) }

    @inlinable public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: used))
    }

    @inlinable public mutating func reset() {
        used = 0
    }

    /// Makes room for `n` more bytes.
    @inline(__always)
    @inlinable mutating func reserve(_ n: Int) {
        if n > capacity &- used { grow(n) }
    }

    @usableFromInline mutating func grow(_ n: Int) {
        let (needed, overflow) = used.addingReportingOverflow(n)
        precondition(!overflow, "JSON text too long")
        let newCapacity = Swift.max(needed, capacity * 2)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.initialize(from: base, count: used)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    /// One byte of constant text (a bracket, a comma).
    @inline(__always)
    @inlinable public mutating func byte(_ b: UInt8) {
        reserve(1)
        base[used] = b
        used &+= 1
    }

    @inlinable mutating func append(_ text: UnsafeBufferPointer<UInt8>) {
        guard let source = text.baseAddress, !text.isEmpty else { return }
        reserve(text.count)
        (base + used).initialize(from: source, count: text.count)
        used &+= text.count
    }

    /// Constant text, copied byte by byte: the pieces are short, shorter than a call to memcpy.
    @inline(__always)
    @inlinable public mutating func raw(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        reserve(n)
        let source = text.utf8Start, target = base + used
        for i in 0..<n { target[i] = source[i] }
        used &+= n
    }

    @inlinable public mutating func number(_ n: Double) {
        let magnitude = n.magnitude
        // NaN fails this test too: the general path prints it as null.
        guard magnitude < 1e15 else { return shortest(n) }
        // Exact below 2^63 (and cheaper than `rounded`, a call into libm here).
        let whole = Int64(n)
        if Double(whole) == n { return integer(whole) }
        if magnitude >= 1e-4, shortDecimal(n, magnitude) || exactDecimal(n, magnitude) { return }
        shortest(n)
    }

    /// Decimals with few places (coordinates, times in microseconds): the fewest places k whose
    /// rounded m = |n|·10^k reads back as |n|. m below 10^15 and 10^k are exact doubles, so
    /// `m / 10^k` is rounded once, as parsing the text would be: the check is exact. Below 10^15
    /// the product's rounding cannot hide the right m, and two candidates for one k would be
    /// closer than the double's spacing, so a failed k has no decimal that reads back, and the
    /// first k found spells the digits of the shortest round-trip form. Gives up after
    /// `quickPlaces` places (then `exactDecimal` searches).
    @usableFromInline static let quickPlaces = 6

    @inlinable mutating func shortDecimal(_ n: Double, _ magnitude: Double) -> Bool {
        var scale = 1.0
        var power: UInt64 = 1
        var places = 0
        while true {
            scale *= 10
            power &*= 10
            places &+= 1
            let scaled = magnitude * scale
            // Past a few places the exact search is cheaper (and never wrong).
            guard scaled < 1e15, places <= Self.quickPlaces else { return false }
            // Round to nearest, exactly, for 0 ≤ scaled < 2^52.
            let m = (scaled + 0x1p52) - 0x1p52
            if m / scale == magnitude {
                // The integer part is |n|'s: a whole number between n and m·10^-places would
                // round to n, and n is not whole. Checked all the same (else the general path).
                let digits = UInt64(m), whole = UInt64(magnitude)
                let (wholePart, overflow) = whole.multipliedReportingOverflow(by: power)
                guard !overflow, wholePart <= digits, digits &- wholePart < power else { return false }
                fixed(whole: whole, fraction: digits &- wholePart, places: places, negative: n < 0)
                return true
            }
        }
    }

    /// What `shortDecimal` leaves in its range (1e-4 ≤ |n| < 1e15, not whole), such as
    /// 0.30000000000000004, in exact integer arithmetic. The reals that read back as |n| lie
    /// halfway to each neighbour at most; scaled to 17 significant digits, the decimals inside
    /// that interval are the integers from `low` to `high`. Dropping digits while the interval
    /// still holds a multiple of ten leaves the fewest digits; of those decimals the one closest
    /// to |n| is taken (a tie to the even digit), as the shortest round-trip form does. False
    /// sends the number to the standard library.
    @inlinable mutating func exactDecimal(_ n: Double, _ magnitude: Double) -> Bool {
        // |n| = 4f · 2^-shift; the interval's ends are 4f - below and 4f + 2 in those units
        // (a power of two has a closer neighbour below). An odd f loses ties at the ends.
        let f = UInt64(magnitude.significandBitPattern) | (1 << 52)
        let shift = 1077 &- Int(magnitude.exponentBitPattern)
        guard shift > 1, shift < 100 else { return false }
        let center = UInt128(f) << 2
        let below: UInt128 = magnitude.significandBitPattern == 0 ? 1 : 2
        let unit = UInt128(1) << shift
        // The power of ten of the first significant digit, perhaps one off: one too small gives
        // 18 digits to drop from, one too big fails below (and the library prints the number).
        var exponent = -1
        if magnitude >= 1 {
            exponent = Self.digitCount(UInt64(magnitude)) &- 1
        } else {
            var x = magnitude
            while x < 0.1, exponent > -6 {
                x *= 10
                exponent &-= 1
            }
        }
        var places = 16 &- exponent
        guard places >= 1, places <= 21 else { return false }
        let power = places <= 19
            ? UInt128(Self.powersOfTen[places])
            : UInt128(Self.powersOfTen[19]) * UInt128(Self.powersOfTen[places &- 19])
        // 10^21 · 2^55 < 2^128: nothing here overflows.
        let low = (center - below) * power, high = (center + 2) * power, exact = center * power
        var first = (low + unit - 1) >> shift, last = high >> shift
        if f & 1 == 1 {
            if first << shift == low { first += 1 }
            if last << shift == high { last -= 1 }
        }
        guard first <= last, last <= UInt128(UInt64.max) else { return false }
        var lo = UInt64(first), hi = UInt64(last)
        var m = UInt64(exact >> shift)
        let rest = exact & (unit - 1)
        // What m leaves out of the exact value: the digits dropped and the fraction below them.
        var dropped: UInt64 = 0, zerosBelowDropped = rest == 0, droppedAny = false
        while places > 1, (lo + 9) / 10 <= hi / 10 {
            lo = (lo + 9) / 10
            hi /= 10
            zerosBelowDropped = zerosBelowDropped && dropped == 0
            dropped = m % 10
            m /= 10
            places &-= 1
            droppedAny = true
        }
        let roundUp = droppedAny
            ? dropped > 5 || (dropped == 5 && (!zerosBelowDropped || m & 1 == 1))
            : rest > unit / 2 || (rest == unit / 2 && m & 1 == 1)
        if roundUp { m += 1 }
        m = Swift.min(Swift.max(m, lo), hi)
        if places >= 20 {
            fixed(whole: 0, fraction: m, places: places, negative: n < 0)
        } else {
            let scale = Self.powersOfTen[places]
            fixed(whole: m / scale, fraction: m % scale, places: places, negative: n < 0)
        }
        return true
    }

    @usableFromInline static let powersOfTen: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
        10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
        1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000,
        1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ]

    /// whole.fraction, the fraction in exactly `places` digits: "123.45", "0.0012".
    @inline(__always)
    @inlinable mutating func fixed(whole: UInt64, fraction: UInt64, places: Int, negative: Bool) {
        let length = (negative ? 1 : 0) &+ Self.digitCount(whole) &+ 1 &+ places
        reserve(length)
        var p = base + (used &+ length)
        var v = fraction
        var left = places
        while left >= 2 {
            Self.pair(&p, v % 100)
            v /= 100
            left &-= 2
        }
        if left == 1 {
            p -= 1
            p.pointee = 48 &+ UInt8(truncatingIfNeeded: v)
        }
        p -= 1
        p.pointee = 46
        Self.whole(&p, whole)
        if negative { base[used] = 45 }
        used &+= length
    }

    /// How many digits v has.
    @inline(__always)
    @inlinable static func digitCount(_ v: UInt64) -> Int {
        var n = 1
        var limit: UInt64 = 10
        while n < 20, v >= limit {
            n &+= 1
            limit &*= 10
        }
        return n
    }

    /// Writes v's digits (without leading zeros) to end at p, moving p to the first.
    @inline(__always)
    @inlinable static func whole(_ p: inout UnsafeMutablePointer<UInt8>, _ v: UInt64) {
        var v = v
        while v >= 100 {
            pair(&p, v % 100)
            v /= 100
        }
        if v >= 10 {
            pair(&p, v)
        } else {
            p -= 1
            p.pointee = 48 &+ UInt8(truncatingIfNeeded: v)
        }
    }

    /// Writes two digits of `pair` (below 100) before p.
    @inline(__always)
    @inlinable static func pair(_ p: inout UnsafeMutablePointer<UInt8>, _ pair: UInt64) {
        let pairs: StaticString = """
            00010203040506070809101112131415161718192021222324252627282930313233343536373839\
            40414243444546474849505152535455565758596061626364656667686970717273747576777879\
            8081828384858687888990919293949596979899
            """
        let i = Int(truncatingIfNeeded: pair) &* 2
        p -= 2
        p[0] = pairs.utf8Start[i]
        p[1] = pairs.utf8Start[i &+ 1]
    }

    /// The general case, in the digits Swift's shortest round-trip formatting spells, written
    /// into the buffer without making a String.
    @inlinable mutating func shortest(_ n: Double) {
        guard n.isFinite else { return raw("null") }
        reserve(ShortestDigits.limit)
        let start = used
        var digits = ShortestDigits(start: base + used)
        n.write(to: &digits)
        if digits.count <= ShortestDigits.limit {
            used &+= digits.count
        } else {
            // Never the case for a Double (24 bytes at most); kept correct all the same.
            append(Array(n.description.utf8))
        }
        // Integral values from 1e15 to 2^54 come out as "1000000000000000.0": drop the ".0".
        if used - start > 2, base[used &- 2] == 46, base[used &- 1] == 48 { used &-= 2 }
    }

    @inlinable mutating func append(_ array: [UInt8]) {
        array.withUnsafeBufferPointer { append($0) }
    }

    /// Input time as output lines carry it: in whole microseconds (the resolution of evdev
    /// timestamps), so sums such as 0.128 + 1 (a delay) print 1.128, not 1.1280000000000001.
    @inlinable public mutating func time(_ t: Double) {
        guard t.isFinite, abs(t) < 9e9 else { return number(t) }
        let micros = Self.roundedAway(t * 1_000_000)
        // Below 10^9 s two decimals of six places are further apart than the double's spacing,
        // so the microseconds, trailing zeros dropped, are the shortest digits that read back.
        // Times under 10^-4 s print with an exponent: the general path.
        let magnitude = micros.magnitude
        guard magnitude >= 100, magnitude < 1e15 else { return number(micros / 1_000_000) }
        let whole = UInt64(magnitude) / 1_000_000
        var fraction = UInt64(magnitude) % 1_000_000
        guard fraction != 0 else { return integer(micros < 0 ? -Int64(whole) : Int64(whole)) }
        var places = 6
        while fraction % 10 == 0 {
            fraction /= 10
            places &-= 1
        }
        fixed(whole: whole, fraction: fraction, places: places, negative: micros < 0)
    }

    /// `x.rounded()` (ties away from zero) without calling into libm: below 2^52, adding and
    /// taking away 2^52 rounds to nearest even, and a tie rounded down then moves up; from 2^52
    /// on every double is whole already.
    @inline(__always)
    @inlinable static func roundedAway(_ x: Double) -> Double {
        let a = x.magnitude
        guard a < 0x1p52 else { return x }
        var r = (a + 0x1p52) - 0x1p52
        if a - r == 0.5 { r += 1 }
        return x < 0 ? -r : r
    }

    @inlinable public mutating func integer(_ value: Int64) {
        let length = (value < 0 ? 1 : 0) &+ Self.digitCount(value.magnitude)
        reserve(length)
        var p = base + (used &+ length)
        Self.whole(&p, value.magnitude)
        if value < 0 { base[used] = 45 }
        used &+= length
    }

    @inlinable public mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { escaped($0) }
    }

    /// `,"name":` and a name: the field every output line carries. Scripts emit under a few
    /// names, each on many lines: this text is kept for recent names and copied, not escaped
    /// again.
    @inlinable public mutating func nameField(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            if let text = names.text(for: utf8) { return append(text) }
            let start = used
            raw(",\"name\":")
            escaped(utf8)
            names.keep(utf8, text: UnsafeBufferPointer(start: base + start, count: used - start))
        }
    }

    @inlinable mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        // The longest escape, \u00XX, is 6 bytes; plus the quotes.
        let (worst, overflow) = utf8.count.multipliedReportingOverflow(by: 6)
        precondition(!overflow, "JSON text too long")
        reserve(worst &+ 2)
        var p = base + used
        p.pointee = 34
        p += 1
        for byte in utf8 {
            if byte >= 0x20, byte != 34, byte != 92 {
                p.pointee = byte
                p += 1
                continue
            }
            p.pointee = 92
            switch byte {
            case 34: p[1] = 34
            case 92: p[1] = 92
            case 10: p[1] = 110
            case 13: p[1] = 114
            case 9: p[1] = 116
            default:
                p[1] = 117
                p[2] = 48
                p[3] = 48
                p[4] = hex(byte >> 4)
                p[5] = hex(byte & 15)
                p += 4
            }
            p += 2
        }
        p.pointee = 34
        p += 1
        used = p - base
    }

    @inlinable func hex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 48 + nibble : 87 + nibble }

}

/// Where `Double.write(to:)` puts its digits: straight into the writer's buffer.
@usableFromInline struct ShortestDigits: TextOutputStream {
    @usableFromInline static let limit = 40
    @usableFromInline let start: UnsafeMutablePointer<UInt8>
    @usableFromInline var count = 0

    @inlinable init(start: UnsafeMutablePointer<UInt8>) {
        self.start = start
    }

    @inlinable mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        put(buffer)
    }

    @inlinable mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { put($0) }
    }

    /// Counts what does not fit without writing it, so the caller can tell.
    @inlinable mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        if let source = bytes.baseAddress, count + bytes.count <= Self.limit {
            (start + count).initialize(from: source, count: bytes.count)
        }
        count += bytes.count
    }
}

/// The JSON text of up to 16 names, found by their UTF-8 bytes (String equality would take "é"
/// and "e\u{301}" for one name). Fixed slots in one allocation: a lookup retains nothing.
/// Its owner, the writer, frees it (a deinit here would be inlined into the writer's inlinable
/// code, which the compiler refuses: Swift 6.3 stops with "Should never be inlining a
/// resilient function into a fragile function").
@usableFromInline struct NameCache {
    @usableFromInline static let slots = 16, keyBytes = 64, textBytes = 192, slotBytes = keyBytes + textBytes
    @usableFromInline let store = UnsafeMutablePointer<UInt8>.allocate(capacity: NameCache.slots * NameCache.slotBytes)
    /// Per slot: the name's byte count and its text's.
    @usableFromInline let counts = UnsafeMutablePointer<(key: Int, text: Int)>.allocate(capacity: NameCache.slots)
    @usableFromInline var used = 0

    @inlinable init() {}

    @usableFromInline func deallocate() {
        store.deallocate()
        counts.deallocate()
    }

    // Always inlined, as it was when the writer lived in one module with its single caller.
    @inline(__always)
    @inlinable func text(for name: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        for slot in 0..<used where counts[slot].key == name.count {
            let key = store + slot * Self.slotBytes
            if name.isEmpty || memcmp(key, name.baseAddress!, name.count) == 0 {
                return UnsafeBufferPointer(start: key + Self.keyBytes, count: counts[slot].text)
            }
        }
        return nil
    }

    /// Keeps a name and its text while there are free slots and both fit.
    @inlinable mutating func keep(_ name: UnsafeBufferPointer<UInt8>, text: UnsafeBufferPointer<UInt8>) {
        guard used < Self.slots, name.count <= Self.keyBytes, text.count <= Self.textBytes else { return }
        let key = store + used * Self.slotBytes
        if let source = name.baseAddress { key.initialize(from: source, count: name.count) }
        if let source = text.baseAddress { (key + Self.keyBytes).initialize(from: source, count: text.count) }
        (counts + used).initialize(to: (name.count, text.count))
        used += 1
    }
}
