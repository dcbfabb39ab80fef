import MotionGestures
import MotionInput
import MotionLua
import MotionProxy

/// `--proxy` over an event file (`run`/`daemon --events FILE --proxy`): every device of the
/// recording gets an arbiter (`TouchArbiter`) deciding, after the recognizers saw each frame,
/// what its clone would have received; `--proxy-output FILE` writes that as an evemu recording,
/// and each decision is an output line (`{"name":"proxy","value":{"decision":…}}`, docs/desktop.md).
/// The live proxy uses the same arbiters between the device and its uinput clone.
public final class ProxyReplay: RawEventTap, ProxyDecisionObserver {
    private var arbiters: [TouchArbiter] = []
    private let tags: [PointerDevice?]
    private let recordings: [CloneRecording]
    private let line: (Double, MotionValue) -> Void
    /// The consumers' claims, in the host's order (plugins, then creation order).
    private let claims: ProxyClaims
    /// The device whose frame waits for the recognizers (`frameHandled`).
    private var pending: Int?
    /// Input time before which the proxy took no decision (`-- proxy: T` in a scenario, a grab
    /// asked for at T): the frames before are the desktop's own, read from the real device.
    private let from: Double
    private var started: [Bool]
    private let noSink = DiscardingSink()

    /// `outputPath`: the clone recording (nil: none); `line` writes each decision (the value of a
    /// `proxy` output line). Throws `InputError` when the source has no
    /// evdev events (JSON Lines) or the file cannot be written.
    public init(source: FrameSource, eventsPath: String, outputPath: String?, from: Double = 0,
                line: @escaping (Double, MotionValue) -> Void,
                consumers: @escaping ((GestureRecognizer) -> Void) -> Void) throws {
        guard let evdev = source as? EvdevFileSource else {
            throw InputError(file: eventsPath, "--proxy needs evdev events (an evemu, libinput or raw recording): JSON Lines have no device frames to pass")
        }
        let identities = evdev.deviceDescriptions.map(CloneIdentity.init)
        let tags = evdev.deviceTags
        self.tags = tags
        recordings = try outputPath.map { try CloneRecording.sinks(path: $0, identities: identities, kinds: tags.map { $0?.kind }) } ?? []
        self.line = line
        claims = ProxyClaims(consumers: consumers)
        self.from = from
        started = Array(repeating: from <= 0, count: identities.count)
        for (k, identity) in identities.enumerated() {
            let arbiter = TouchArbiter(identity: identity, index: k, sink: recordings.isEmpty ? noSink : recordings[k])
            arbiter.observer = self
            arbiters.append(arbiter)
        }
        evdev.rawEventTap = self
    }

    // MARK: RawEventTap

    public func take(_ event: InputEventRecord, device: Int, madeFrame: Bool, t: Double) {
        guard device < arbiters.count else { return }
        if !started[device] {
            guard t >= from else {
                before[device, default: []].append(event)
                return
            }
            start(device)
        }
        guard arbiters[device].take(event) else { return }
        if madeFrame {
            pending = device
        } else {
            decide(device, at: t)
        }
    }

    /// Events before `from`, per device: the state the proxy takes the device over in.
    private var before: [Int: [InputEventRecord]] = [:]

    /// The proxy takes device `k` over: a finger down then is the desktop's until it lifts.
    private func start(_ k: Int) {
        started[k] = true
        let state = before[k] ?? []
        before[k] = nil
        let arbiter = TouchArbiter(identity: arbiters[k].identity, index: k,
                                   sink: recordings.isEmpty ? noSink : recordings[k], state: state)
        arbiter.observer = self
        arbiters[k] = arbiter
    }

    /// The recognizers saw the frame the last `take` completed.
    public func frameHandled(at t: Double) {
        guard let k = pending else { return }
        pending = nil
        decide(k, at: t)
    }

    /// Time reached `t` between frames: decisions that fell due (a hold began, a tap timed out).
    public func advanced(to t: Double) {
        for k in arbiters.indices where arbiters[k].isHolding {
            arbiters[k].update(claims.claim(on: tags[k], at: t), at: t)
        }
    }

    /// End of input: the clones lift what they hold; the recording is closed.
    public func finish(at t: Double) throws {
        for arbiter in arbiters { arbiter.end(at: t) }
        if let first = recordings.first { try first.close() }
    }

    private func decide(_ k: Int, at t: Double) {
        arbiters[k].decide(claims.claim(on: tags[k], at: t), at: t)
    }

    // MARK: ProxyDecisionObserver

    public func proxy(_ decision: ProxyDecision, device: Int) {
        var fields = decision.fields
        if arbiters.count > 1 { fields.append(("device", .integer(device))) }
        line(decision.time, .object(fields))
    }
}

/// A clone nobody records (`--proxy` without `--proxy-output`): only the decisions are seen.
final class DiscardingSink: CloneSink {
    func write(_ frame: UnsafeBufferPointer<InputEventRecord>, due: Double) {}
}

/// A replay target with the proxy beside it: each frame goes to the recognizers, then to the
/// arbiters; before a frame, what fell due since the last one is decided at its own time (as
/// live input would, between frames).
public final class ProxiedTarget<Target: ReplayTarget>: ReplayTarget {
    public let target: Target
    public let proxy: ProxyReplay

    public init(_ target: Target, proxy: ProxyReplay) {
        self.target = target
        self.proxy = proxy
    }

    public func handle(_ frame: Frame) throws {
        var last = -Double.infinity
        while let due = target.nextDueTime, due < frame.t, due > last {
            try target.advance(to: due)
            proxy.advanced(to: due)
            last = due
        }
        try target.handle(frame)
        proxy.frameHandled(at: frame.t)
    }

    public var nextDueTime: Double? { target.nextDueTime }

    public func advance(to t: Double) throws {
        try target.advance(to: t)
        proxy.advanced(to: t)
    }

    public func finish() throws {
        // What still waits (a tap for its next tap) settles first: held frames go out or are dropped.
        try target.finish()
        proxy.advanced(to: target.time)
        try proxy.finish(at: target.time)
    }

    public var time: Double { target.time }
    public var scriptPath: String { target.scriptPath }
    public func note(_ line: String) { target.note(line) }
    public var stopReason: String? { target.stopReason }
}
