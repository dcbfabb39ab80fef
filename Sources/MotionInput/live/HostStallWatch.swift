/// When the host's thread counts as stalled (docs/desktop.md, "The desktop always gets its pad
/// back"): busy outside `LiveDeviceSet.nextFrame` — inside a frame's handling, a plugin's
/// callback up to its time limit, a reload, a control client's request — for `bound` seconds or
/// more. The input drain's thread (`InputDrain`) looks at the host's sequence (odd inside
/// `nextFrame`, even outside) every `InputDrain.interval` and more often while stalled; this
/// type turns those looks into verdicts. Pure: the look's time is given (CLOCK_MONOTONIC
/// seconds), so tests drive it without a thread or a sleep.
///
/// The host reads no clock for this (its per-frame cost stays two atomic stores): the busy time
/// is counted from the first look that found it outside `nextFrame` at that sequence, so a stall
/// is declared after the host has been busy for at least `bound` and at most `bound` plus one
/// look interval (200–225 ms).
public struct HostStallWatch: Sendable {
    /// 200 ms: longer than any frame a healthy host handles (well under 1 ms), shorter than a
    /// plugin's default time limit (1 s), and short enough that a frozen pointer is a blink.
    public static let bound = 0.2

    public enum Verdict: Equatable, Sendable {
        /// The host moved since the previous look (took or left a frame): nothing to do.
        case moved
        /// In the same wait for input as at the previous look: input paused.
        case waiting
        /// Outside `nextFrame` since the previous look, under the bound: drain, pass nothing.
        case busy
        /// Busy for the bound or more: pass every device's frames to its clone (`began` at the
        /// first such look of this stall).
        case stalled(began: Bool)
        /// The host came back after a stall: the proxies take their devices back once idle.
        case back
    }

    private var lastSequence = -1
    /// When a look first saw the host outside `nextFrame` at `lastSequence`.
    private var busySince: Double?
    /// The sequence the host was stalled at (nil: not stalled).
    private var stalledAt: Int?

    public init() {}

    public var isStalled: Bool { stalledAt != nil }

    /// A look at the host's sequence `sequence` at time `t`.
    public mutating func look(sequence: Int, at t: Double) -> Verdict {
        defer { lastSequence = sequence }
        if let stalledAt, sequence != stalledAt {
            self.stalledAt = nil
            busySince = sequence & 1 == 0 ? t : nil
            return .back
        }
        guard sequence == lastSequence else {
            busySince = sequence & 1 == 0 ? t : nil
            return .moved
        }
        if sequence & 1 == 1 { return .waiting }
        let since = busySince ?? t
        busySince = since
        // A microsecond's slack: 10.2 - 10.0 is 0.19999999999999929.
        guard t - since >= Self.bound - 1e-6 else { return .busy }
        let began = stalledAt == nil
        stalledAt = sequence
        return .stalled(began: began)
    }
}

/// A proxied device's side of a stall (`LiveProxy.Device`): told, on the drain's thread while the host is
/// stalled, every event the drain read from the device, in order, to pass to the clone at once;
/// then that the host is back. Set on the device's reader (`LiveEventReader.stallPass`).
public protocol StallPassThrough: AnyObject {
    /// Events read while the host is stalled (whole events, in the kernel's order; the first
    /// call of a stall may start with events the drain read before the stall was declared). At
    /// the stall's first look it is told even when nothing was drained (`events` empty).
    func stalled(_ events: UnsafeBufferPointer<InputEventRecord>)
    /// The host's thread is back in `nextFrame`.
    func hostBack()
}
