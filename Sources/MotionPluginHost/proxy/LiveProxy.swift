#if canImport(Glibc)
import Glibc
#endif
import MotionClone
import MotionGestures
import MotionInput
import MotionProxy

/// What a proxied device's frames are written to: the uinput clone (`UinputClone`), or a
/// test's fake.
public protocol ProxyClone: CloneSink {
    /// The clone's event node (`/dev/input/eventN`; nil when not known).
    var node: String? { get }
    /// Destroys the clone (what still waits for its time written first).
    func close()
    /// From the input drain's thread while the host is stalled: what waits and `frame` are
    /// written at once; nothing of the host's event loop is touched (`UinputClone`'s timer).
    func writeNow(_ frame: UnsafeBufferPointer<InputEventRecord>)
}

extension ProxyClone {
    public func writeNow(_ frame: UnsafeBufferPointer<InputEventRecord>) { write(frame, due: -.infinity) }
}

/// The arbiter's sink: the clone, written at once while the drain's thread passes a stall.
final class StallAwareSink: CloneSink {
    let clone: ProxyClone
    /// Set (under the device's lock) while the drain's thread passes.
    var direct = false
    init(_ clone: ProxyClone) { self.clone = clone }
    func write(_ frame: UnsafeBufferPointer<InputEventRecord>, due: Double) {
        if direct { clone.writeNow(frame) } else { clone.write(frame, due: due) }
    }
}

/// The reader's `stallPass`: the device, not kept alive by its own reader.
final class StallRelay: StallPassThrough {
    weak var device: LiveProxy.Device?
    init(_ device: LiveProxy.Device) { self.device = device }
    func stalled(_ events: UnsafeBufferPointer<InputEventRecord>) { device?.stalled(events) }
    func hostBack() { device?.hostBack() }
}

extension UinputClone: ProxyClone {}

/// `--proxy` on live input (`run --device … --proxy`, `daemon --proxy`; docs/desktop.md, "The
/// proxy"): each touchpad and touchscreen the input opens (`LiveDeviceSet`, hotplug included)
/// gets a clone the desktop reads (`UinputClone`) and an arbiter (`TouchArbiter`) deciding what
/// of each frame reaches the clone; the device is opened ungrabbed and grabbed at the first
/// frame with no finger down (a touch that began before reaches the desktop to its end, from
/// the device itself).
///
/// The device's events reach the arbiter as they are decoded (`LiveDevice.rawTap`) and wait,
/// a frame at a time, for the recognizers to see the pointer frame made of them: after the host
/// handled it (`FrameChain`), the consumers' claim decides it, as in a replay
/// (`ProxyReplay`). A frame whose claim cannot matter — no recognizer consumes, or the touch was
/// already consumed — is decided as soon as it is read, before the host runs: its write to the
/// clone waits on no Lua. `SYN_DROPPED` reaches the arbiter with the state read back (the clone
/// lifts what it holds; nothing more of that touch reaches it); a device that goes away ends its
/// arbiter (no stuck finger) and destroys its clone.
///
/// For status and the safety parts (`ctl status`, pause): `devices`, each with its arbiter
/// (its last decision), its clone's node and whether it is grabbed.
public final class LiveProxy {
    /// One proxied device.
    public final class Device: LiveRawTap, StallPassThrough {
        /// The real device's node and the tag its pointer events carry.
        public let node: String
        public let tag: PointerDevice
        public let device: LiveDevice
        /// Use it through `with` (the drain's thread decides through it while the host is stalled).
        public let arbiter: TouchArbiter
        public let clone: ProxyClone
        /// The clone's event node (nil when not found).
        public var cloneNode: String? { clone.node }
        /// The last decision (nil before the first).
        public var lastDecision: ProxyDecision? { with { $0.lastDecision } }
        /// Whether the real device is grabbed (nobody else reads it).
        public var isGrabbed: Bool { device.reader.isGrabbed }
        /// The grab is taken at the next frame that leaves no finger down.
        public private(set) var wantsGrab = true

        private unowned let proxy: LiveProxy
        /// Events read and not yet given to the arbiter, end to end from `head`; `frames` says
        /// where each complete frame ends, whether it made a pointer frame, its time (the
        /// device's clock, seconds).
        private var events: [InputEventRecord] = []
        private var head = 0
        private var frames: [(end: Int, made: Bool, t: Double)] = []
        /// The device's timestamps are CLOCK_MONOTONIC (EVIOCSCLOCKID took), the clone's clock:
        /// a frame's time is its own. Otherwise (a kernel that refused) the time it was read.
        private let monotonic: Bool
        /// When the device was taken over (its state read back, `currentState`): events stamped
        /// earlier, read only now, were the desktop's from the device itself and are in that
        /// state already; they are passed over (else the clone would play them again).
        private let takenAt: Double
        private var catchingUp: Bool
        private var frameHead = 0
        /// Pointer frames of raw frames decided as they were read, not yet handled by the host.
        private var decidedEarly = 0

        /// Two threads (docs/desktop.md, "The desktop always gets its pad back"): the host's
        /// (everything but `stalled`/`hostBack`) and the input drain's (`stalled`, `hostBack`,
        /// only while the host is stalled past `HostStallWatch.bound`). `lock` covers all they
        /// share: the queue (`events`, `frames`, `head`, `frameHead`), `decidedEarly`, `ahead`,
        /// `catchingUp`, `ended`, the arbiter and, through it, the clone's writes (the clone's own
        /// lock covers its queue against its timer, which fires on the host's event loop; lock
        /// order: this one, then the clone's). On the drain's thread the clone is written at once
        /// (`sink.direct`: no timer, no event-loop registration touched) and nothing grabs (a grab
        /// due waits for the host's next decision). Every event reaches the arbiter once, in the
        /// kernel's order: the drain passes the queued frames first, then what it drained, and
        /// the host's `take` skips those `ahead` events (their pointer frames count in `decidedEarly`).
        private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let sink: StallAwareSink
        /// Events the drain passed that the host has not decoded yet.
        private var ahead = 0
        private var ended = false
        /// A grab fell due in a decision (the host's thread takes it once the lock is given back).
        private var grabDue = false
        /// Stalls passed, and events passed in them (for `ctl status` and tests).
        public private(set) var stalls = 0
        public private(set) var stalledEvents = 0

        init(proxy: LiveProxy, member: LiveDeviceSet.Member, clone: ProxyClone, state: [InputEventRecord], index: Int) {
            self.proxy = proxy
            node = member.node
            tag = member.tag
            device = member.device
            monotonic = member.device.timestampsAreMonotonic
            takenAt = LiveProxy.now()
            catchingUp = monotonic && member.device.reader.isEvdevNode
            self.clone = clone
            sink = StallAwareSink(clone)
            arbiter = TouchArbiter(identity: CloneIdentity(member.device.reader.device), index: index, sink: sink, state: state)
            pthread_mutex_init(lock, nil)
            events.reserveCapacity(4096)
            frames.reserveCapacity(256)
        }

        deinit {
            pthread_mutex_destroy(lock)
            lock.deallocate()
        }

        /// Runs `body` with the arbiter, under the lock (status, pause).
        public func with<R>(_ body: (TouchArbiter) throws -> R) rethrows -> R {
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            return try body(arbiter)
        }

        /// The host's side: `body` under the lock, then the grab that fell due in it.
        @inline(__always)
        private func locked(_ body: () -> Void) {
            pthread_mutex_lock(lock)
            body()
            pthread_mutex_unlock(lock)
            if grabDue {
                grabDue = false
                proxy.grab(self)
            }
        }

        // MARK: LiveRawTap

        @inline(__always)
        public func take(_ event: InputEventRecord, madeFrame: Bool) {
            locked { takeLocked(event, madeFrame: madeFrame) }
        }

        @inline(__always)
        private func takeLocked(_ event: InputEventRecord, madeFrame: Bool) {
            if ahead > 0 {
                // The drain passed it during a stall.
                ahead -= 1
                if madeFrame { decidedEarly += 1 }
                // At SYN_DROPPED an evdev node's reader throws away what is queued after it (the
                // drain passed that too) and makes up the device's state: none of the rest comes.
                if event.type == EV.SYN, event.code == SYN.DROPPED, device.reader.isEvdevNode { ahead = 0 }
                return
            }
            if catchingUp {
                guard Double(event.sec) + Double(event.usec) / 1_000_000 >= takenAt else {
                    // Its pointer frame still goes to the host: not one of the arbiter's.
                    if madeFrame { decidedEarly += 1 }
                    return
                }
                catchingUp = false
            }
            events.append(event)
            guard event.type == EV.SYN, event.code == SYN.REPORT else { return }
            let own = Double(event.sec) + Double(event.usec) / 1_000_000
            frames.append((events.count, madeFrame, monotonic ? own : LiveProxy.now()))
            guard frameHead == frames.count - 1 else { return }
            // Nothing waits before it, and no claim can change what becomes of it.
            if arbiter.isConsumed || !proxy.claims.anyConsumer {
                if madeFrame { decidedEarly += 1 }
                decideNext(.none)
            } else if !madeFrame, decidedEarly == 0 {
                // No pointer frame for the host to see (a button alone), and the host saw every
                // frame before it: the claim now is the one it gets (as a replay decides it).
                decideNext(proxy.claims.claim(on: tag, at: proxy.input.inputTime(ofDeviceTime: own) ?? 0))
            }
        }

        /// Before the host handles a pointer frame of this device: the raw frames before it
        /// that made none (a button alone, a pressure change) are decided with the claim as it is.
        func willHandle(at t: Double) {
            locked {
                guard decidedEarly == 0 else { return }
                while frameHead < frames.count, !frames[frameHead].made { decideNext(proxy.claims.claim(on: tag, at: t)) }
            }
        }

        /// The host handled a pointer frame of this device: the raw frame that made it is
        /// decided with the consumers' claim now, and the frames after it that made none.
        func didHandle(at t: Double) {
            locked {
                if decidedEarly > 0 {
                    decidedEarly -= 1
                } else if frameHead < frames.count {
                    decideNext(proxy.claims.claim(on: tag, at: t))
                }
                guard decidedEarly == 0 else { return }
                while frameHead < frames.count, !frames[frameHead].made { decideNext(proxy.claims.claim(on: tag, at: t)) }
            }
        }

        /// Time went on without a frame: what fell due for a held touch (a hold began, a tap timed out).
        func advanced(at t: Double) {
            locked {
                guard frameHead == frames.count, arbiter.isHolding else { return }
                arbiter.update(proxy.claims.claim(on: tag, at: t), at: LiveProxy.now())
            }
        }

        private func decideNext(_ claim: ConsumeClaim) {
            passNext(claim)
            if wantsGrab, arbiter.isIdle { grabDue = true }
        }

        /// Under the lock: the next queued frame to the arbiter, decided with `claim`.
        private func passNext(_ claim: ConsumeClaim) {
            let frame = frames[frameHead]
            var i = head
            while i < frame.end {
                _ = arbiter.take(events[i])
                i += 1
            }
            arbiter.decide(claim, at: frame.t)
            head = frame.end
            frameHead += 1
            if frameHead == frames.count {
                // All decided: what is left is a frame being read (its SYN_REPORT not yet in).
                events.removeSubrange(0..<head)
                frames.removeAll(keepingCapacity: true)
                (head, frameHead) = (0, 0)
            }
        }

        // MARK: StallPassThrough (the input drain's thread)

        /// The host is stalled: the frames queued and not decided pass first (their pointer
        /// frames, when the host handles them, find them decided: `decidedEarly`), then the
        /// frame being read and `drained`, each frame as it completes.
        public func stalled(_ drained: UnsafeBufferPointer<InputEventRecord>) {
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            guard !ended else { return }
            sink.direct = true
            defer { sink.direct = false }
            if !arbiter.passReasons.contains(.stalled) {
                stalls += 1
                let t = frameHead < frames.count ? frames[frameHead].t : drained.first.map(time(of:)) ?? arbiter.lastInputTime
                arbiter.passAll(.stalled, at: t)
            }
            while frameHead < frames.count {
                if frames[frameHead].made { decidedEarly += 1 }
                passNext(.none)
            }
            var i = head
            while i < events.count {
                _ = arbiter.take(events[i])
                i += 1
            }
            events.removeAll(keepingCapacity: true)
            head = 0
            for e in drained {
                ahead += 1
                stalledEvents += 1
                if catchingUp {
                    guard Double(e.sec) + Double(e.usec) / 1_000_000 >= takenAt else { continue }
                    catchingUp = false
                }
                if arbiter.take(e) { arbiter.decide(.none, at: time(of: e)) }
            }
        }

        /// The host is back: its consumers decide again from the next moment no finger is down.
        public func hostBack() {
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            guard !ended, arbiter.passReasons.contains(.stalled) else { return }
            sink.direct = true  // it writes nothing today; if it did, never through the timer from here
            defer { sink.direct = false }
            arbiter.takeBack(.stalled, at: arbiter.lastInputTime)
        }

        @inline(__always)
        private func time(of e: InputEventRecord) -> Double {
            monotonic ? Double(e.sec) + Double(e.usec) / 1_000_000 : LiveProxy.now()
        }

        /// Grabs at the next frame with no finger down (at once when none is down now): after
        /// the device was given back (`ctl pause`).
        public func grabWhenIdle() {
            wantsGrab = true
            if with({ $0.isIdle }) { proxy.grab(self) }
        }

        func grabbed() { wantsGrab = false }

        /// The device leaves: the clone lifts what it holds and goes.
        func end() {
            if device.rawTap === self { device.rawTap = nil }
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            guard !ended else { return }
            ended = true
            arbiter.end(at: LiveProxy.now())
            clone.close()
        }
    }

    /// Every proxied device, in the order they were taken over.
    public private(set) var devices: [Device] = []
    let claims: ProxyClaims
    let input: LiveDeviceSet
    private let makeClone: (CloneIdentity, String) throws -> ProxyClone
    private let selects: (LiveDeviceSet.Member) -> Bool
    private let diagnostics: (String) -> Void
    /// Told each decision of each device (`device`: its index in `devices` when it was taken
    /// over); nil: nobody (each device keeps its last decision anyway).
    /// Told on the host's thread, and on the input drain's while it passes a stall (under the
    /// device's lock either way).
    public weak var observer: ProxyDecisionObserver? {
        didSet { for device in devices { device.with { $0.observer = observer } } }
    }
    private var closed = false
    /// Devices taken over so far (each arbiter's `index`).
    private var taken = 0
    /// `ctl pause`, SIGUSR1, the emergency gesture (`pause`): every device passes every frame,
    /// those taken over while paused too, until `resume`.
    public private(set) var isPaused = false

    /// Takes over every device of `input` that `selects` (touchpads and touchscreens read from
    /// evdev nodes by default) and those it opens later. `consumers` walks every recognizer in
    /// the host's order (`PluginHost.eachRecognizer`); `makeClone` makes a clone from an
    /// identity and the real device's phys (default: a uinput clone whose due frames are
    /// written on `input`'s event loop).
    public init(input: LiveDeviceSet, consumers: @escaping ((GestureRecognizer) -> Void) -> Void,
                makeClone: ((CloneIdentity, String) throws -> ProxyClone)? = nil,
                selects: ((LiveDeviceSet.Member) -> Bool)? = nil,
                diagnostics: @escaping (String) -> Void) {
        self.input = input
        claims = ProxyClaims(consumers: consumers)
        self.diagnostics = diagnostics
        self.selects = selects ?? Self.isProxied
        let loop = input.loop
        self.makeClone = makeClone ?? { identity, phys in
            let clone = try UinputClone(identity: identity, realPhys: phys)
            clone.attach(to: loop)
            clone.diagnostics = { diagnostics("motionscript: \($0)") }
            return clone
        }
        for member in input.members { take(member) }
        input.memberAdded = { [unowned self] in take($0) }
        input.memberRemoved = { [unowned self] in remove($0) }
    }

    deinit { close() }

    /// Touchpads and touchscreens read from evdev nodes: what the desktop would read.
    public static func isProxied(_ member: LiveDeviceSet.Member) -> Bool {
        member.device.reader.isEvdevNode && (member.tag.kind == "touchpad" || member.tag.kind == "touchscreen")
    }

    private func take(_ member: LiveDeviceSet.Member) {
        guard !closed, selects(member), !devices.contains(where: { $0.tag === member.tag }) else { return }
        let description = member.device.reader.device
        let clone: ProxyClone
        do {
            // The fuzz udev moved from the kernel into libinput's properties goes back into the clone's axes.
            let identity = UdevFuzz.applied(UdevFuzz.parse(UdevFuzz.entry(node: member.node)), to: CloneIdentity(description))
            clone = try makeClone(identity, description.phys)
        } catch {
            diagnostics("motionscript: \(member.node): no clone, so not proxied (the desktop reads it as it is, consumed gestures included): \(error)")
            return
        }
        let device = Device(proxy: self, member: member, clone: clone, state: member.device.currentState() ?? [], index: taken)
        taken += 1
        device.with { $0.observer = observer }
        // Plugged in while paused: it passes everything too, as the others do.
        if isPaused { device.with { $0.passAll(.paused, at: Self.now()) } }
        devices.append(device)
        member.device.rawTap = device
        // Here the host holds the drain's lock (before the first `nextFrame`, or inside it).
        member.device.reader.stallPass = StallRelay(device)
        let name = description.name.isEmpty ? member.node : description.name
        diagnostics("motionscript: proxying \(member.node) (\(name)): the desktop reads its clone \(clone.node ?? "(node not found)")"
                    + (device.with { $0.isIdle } ? "" : "; grabbed once the fingers now down lift"))
        if device.with({ $0.isIdle }) { grab(device) }
    }

    /// Pause: every device, and each taken over until `resume`, passes every frame to its
    /// clone, the touch in progress keeping its course; the devices stay grabbed.
    public func pause() {
        isPaused = true
        let now = Self.now()
        for device in devices { device.with { $0.passAll(.paused, at: now) } }
    }

    /// Resume: each device's consumers decide again from its next moment with no finger down.
    public func resume() {
        isPaused = false
        let now = Self.now()
        for device in devices { device.with { $0.takeBack(.paused, at: now) } }
    }

    func grab(_ device: Device) {
        guard device.device.reader.isEvdevNode else { return device.grabbed() }
        if device.device.reader.setGrabbed(true) { return device.grabbed() }
        let reason = String(cString: strerror(errno))
        // Read by the desktop and by its clone, every touch would reach it twice.
        diagnostics("motionscript: \(device.node): cannot grab it (EVIOCGRAB: \(reason); another program may hold it): not proxied, its clone removed")
        drop(device)
    }

    private func remove(_ member: LiveDeviceSet.Member) {
        guard let device = devices.first(where: { $0.tag === member.tag }) else { return }
        drop(device)
    }

    private func drop(_ device: Device) {
        devices.removeAll { $0 === device }
        device.end()
    }

    // MARK: The host's side (`FrameChain`)

    @inline(__always)
    private func device(of frame: Frame) -> Device? {
        guard let tag = frame.events.first?.device else { return nil }
        for device in devices where device.tag === tag { return device }
        return nil
    }

    @inline(__always)
    @usableFromInline func willHandle(_ frame: Frame) { device(of: frame)?.willHandle(at: frame.t) }
    @inline(__always)
    @usableFromInline func didHandle(_ frame: Frame) { device(of: frame)?.didHandle(at: frame.t) }

    /// Input time reached `t` without a frame.
    @usableFromInline func advanced(to t: Double) {
        for device in devices { device.advanced(at: t) }
    }

    /// Every clone lifts what it holds and goes; the devices are no longer tapped (idempotent).
    /// Call before the input closes.
    public func close() {
        guard !closed else { return }
        closed = true
        input.memberAdded = nil
        input.memberRemoved = nil
        for device in devices { device.end() }
        devices.removeAll()
    }

    static func now() -> Double { UinputClone.monotonicNow() }
}
