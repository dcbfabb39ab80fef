/// Why a recognizer changed state (`ctl monitor --recognizers`, `run --explain`): which test
/// decided, the value it measured and the limit it was held to. A plain struct made only when an
/// observer listens (`GestureRecognizer.observer`); its sentence is built only by whoever prints it.
public struct RecognizerReason {
    /// The test that decided. The raw value is the `reason` of a monitor line (docs/control.md).
    public enum Code: String, Sendable, CaseIterable {
        /// A pointer moved farther from where it went down than `maxMovement` (hold, tap).
        case moved
        /// Fewer pointers than the gesture is made with were ever down.
        case tooFewFingers
        /// More pointers than `fingers = N` went down.
        case tooManyFingers
        /// A swipe's distance under `minDistance`.
        case tooShort
        /// A swipe's mean speed under `minVelocity`.
        case tooSlow
        /// A swipe that went another way than `direction`.
        case wrongDirection
        /// A swipe that started outside its `from` zone.
        case outsideZone
        /// A tap held down past `maxDuration`.
        case heldTooLong
        /// A hold lifted before its `duration`.
        case liftedEarly
        /// The next tap of a multi-tap did not start within `interval`.
        case timedOut
        /// A drag, pinch or rotation whose pointers lifted before it passed its threshold.
        case belowThreshold
        /// A drag, pinch or rotation that passed its threshold (began).
        case pastThreshold
        /// A hold whose pointers stayed still for its `duration` (began).
        case heldLongEnough
        /// A swipe or tap that passed every test (recognized).
        case matched
        /// The pointers lifted (ended).
        case lifted
        /// The input cancelled the pointers (a device that went away, a grab lost).
        case inputCancelled
        /// The script switched the recognizer off (`enabled = false`).
        case disabled
        /// Held back: a recognizer it requires to fail (`requireToFail`) is still in progress.
        case waitingForRival
        /// A recognizer it requires to fail began or was recognized: this gesture cannot happen.
        case rivalBegan
        /// The recognizer it waited for failed (or stopped): what was held back is reported now.
        case rivalFailed
        /// `apps =` does not admit the focused application (or the focus is unknown).
        case appNotMatching
        /// `devices =` does not admit the pointer's device.
        case deviceFiltered
    }

    /// The unit of `value` and `limit`.
    public enum Unit: String, Sendable {
        /// Screen units: millimetres on a device that reports its resolution.
        case units
        /// Seconds of input time.
        case s
        /// Screen units per second.
        case unitsPerSecond = "units/s"
        /// Radians.
        case rad
        /// The relative change of a pinch, |scale − 1|.
        case relative
        /// Pointers down.
        case fingers
    }

    /// The test that decided.
    public var code: Code
    /// What was measured (nil when the test measures nothing: a cancel, a filter).
    public var value: Double?
    /// The limit `value` was held to.
    public var limit: Double?
    /// The unit of both.
    public var unit: Unit?
    /// The other recognizer, for the require-to-fail reasons.
    public var rival: GestureRecognizer?
    /// What was seen, in words: the direction a swipe went, the focused app, the device.
    public var detail: String?
    /// What was wanted, in words: the swipe's `direction`, the `apps =` or `devices =` filter.
    public var expected: String?

    /// A reason with its measurement.
    public init(_ code: Code, value: Double? = nil, limit: Double? = nil, unit: Unit? = nil,
                rival: GestureRecognizer? = nil, detail: String? = nil, expected: String? = nil) {
        self.code = code
        self.value = value
        self.limit = limit
        self.unit = unit
        self.rival = rival
        self.detail = detail
        self.expected = expected
    }

    /// The reason as a short sentence: `moved 14.2 > 10 units`, `too few fingers 1 < 2`,
    /// `waiting for rival hold#1 (swipes.lua:3)`.
    public var text: String {
        let v = value.map(Self.number) ?? "?"
        let l = limit.map(Self.number) ?? "?"
        let u = unit.map { $0 == .fingers || $0 == .relative ? "" : " " + $0.rawValue } ?? ""
        switch code {
        case .moved: return "moved \(v) > \(l)\(u)"
        case .tooFewFingers: return "too few fingers \(v) < \(l)"
        case .tooManyFingers: return "too many fingers \(v) > \(l)"
        case .tooShort: return "too short \(v) < \(l)\(u)"
        case .tooSlow: return "too slow \(v) < \(l)\(u)"
        case .wrongDirection: return "wrong direction \(detail ?? "none"), wants \(expected ?? "?")"
        case .outsideZone:
            guard value != nil else { return "started outside \(expected ?? "its from element")" }
            return "started outside \(expected ?? "its edge"): \(v) > \(l)\(u) from the edge"
        case .heldTooLong: return "held too long: still down after \(l)\(u)"
        case .liftedEarly: return "lifted early \(v) < \(l)\(u)"
        case .timedOut: return "timed out: \(detail ?? "the next tap") did not start within \(l)\(u)"
        case .belowThreshold: return "lifted below the threshold \(v) <= \(l)\(u)"
        case .pastThreshold: return "past the threshold \(v) > \(l)\(u)"
        case .heldLongEnough: return "held \(l)\(u)"
        case .matched:
            return [detail, value.map { "\(Self.number($0)) >= \(l)\(u)" }].compactMap { $0 }.joined(separator: " ")
        case .lifted: return "lifted"
        case .inputCancelled: return "input cancelled"
        case .disabled: return "disabled"
        case .waitingForRival: return "waiting for rival \(rivalName)"
        case .rivalBegan: return "rival \(rivalName) \(detail ?? "began")"
        case .rivalFailed: return "rival \(rivalName) \(detail ?? "failed"): released"
        case .appNotMatching: return "app \(detail ?? "unknown") not matching apps=\(expected ?? "?")"
        case .deviceFiltered: return "device \(detail ?? "?") filtered by devices=\(expected ?? "?")"
        }
    }

    private var rivalName: String {
        guard let rival else { return "?" }
        return rival.name + (rival.creationSite.map { " (\($0.shortText))" } ?? "")
    }

    /// A measurement for reading: whole numbers as such, else 1 decimal from 10 up, 2 from 1,
    /// 3 significant below (`14.2`, `0.087`), trailing zeros dropped.
    public static func number(_ x: Double) -> String {
        guard x.isFinite else { return x.isNaN ? "nan" : x < 0 ? "-inf" : "inf" }
        if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
        let magnitude = abs(x)
        var decimals = magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
        if magnitude < 1, magnitude > 0 {
            var m = magnitude
            while m < 0.1, decimals < 9 { m *= 10; decimals += 1 }
        }
        let scale = pow10(decimals)
        let rounded = (x * scale).rounded() / scale
        if rounded == rounded.rounded() { return String(Int64(rounded)) }
        var text = "\(rounded)"
        if text.contains("e") { return text }
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    private static func pow10(_ n: Int) -> Double {
        var p = 1.0
        for _ in 0..<n { p *= 10 }
        return p
    }
}
