import CLinux
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Keeps every device of a `LiveDeviceSet` drained while the host is busy between frames (a
/// plugin's callback running up to its time limit, a reload, code paths still cold right after
/// start), so a slow moment delays gestures and never loses them. Without it the kernel's
/// per-reader buffer (a few hundred events: tens of frames) overflows, the kernel drops what
/// does not fit (`SYN_DROPPED`), and the resynchronized state reports a finger as going down
/// where it now is: the swipe under way fails.
///
/// The host's own thread still reads every frame (one wait, one read per frame: nothing
/// changes on the usual path). A thread of this type looks every `interval` seconds while input
/// flows; when it finds the host outside `LiveDeviceSet.nextFrame` since its previous look (busy
/// for at least `interval`), it reads every device's waiting bytes into the device's bounded
/// backlog (`LiveEventReader.drainIntoBacklog`), never decoding and never waiting on the host;
/// the host's next `nextFrame` takes the backlog first, in order, with the events' own kernel
/// timestamps (gestures keep their timing). A backlog that fills (about 8,000 events, 192 KiB:
/// a second or more of a touchpad) is no longer read: the kernel's buffer then fills and
/// overflows as before, and the existing `SYN_DROPPED` resynchronization applies.
///
/// Costs: per frame, two stores and a load of atomics and an uncontended mutex taken and given
/// back (no system call, no allocation); while input flows, one wake-up of this thread per
/// `interval`; none while the host waits for input with nothing to do — the thread disarms its
/// timer once a look finds the host still in the same wait as the previous one, and the host
/// disarms it before an unbounded wait that follows no frame (`quiesce`), so an idle process
/// wakes 0 times. The next frame handed over arms it again (one system call per burst of input).
///
/// Exclusion: `lock` is held by the host's thread for the whole of every `nextFrame` call
/// (waiting included) and by this thread only while it reads into backlogs, so device state is
/// never touched by both at once.
///
/// Stalls (`--proxy`): when the host has been busy for `HostStallWatch.bound` (200 ms), each
/// look also tells every reader's `stallPass` (the device's proxy: `LiveProxy.Device`; the first
/// look of a stall tells it even when nothing was drained) the events it drained,
/// and until the host is back the thread waits on the devices themselves (`poll`, besides its
/// timer), so each frame reaches the clone as it comes, not at the next look. Once the host is
/// back in `nextFrame`, every lane told of the stall is told `hostBack`. A backlog that fills
/// ends the pass-through of that stall as it ends the draining (the kernel drops, the clone's
/// fingers are lifted at the `SYN_DROPPED`).
final class InputDrain: @unchecked Sendable {
    /// Seconds between looks while input flows: the host is found busy after one to two of
    /// these. The kernel's smallest evdev buffer (64 events) holds 50 ms or more of a touchpad.
    static let interval = 0.025

    /// Taken by the host's thread for the whole of `nextFrame`, by the drain thread while it reads.
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Odd while the host's thread is inside `nextFrame`, even while it is outside; +1 at each
    /// entry and exit (stored by the host's thread only).
    private let sequence = Atomic<Int>(0)
    /// The timer runs (the thread looks every `interval`).
    private let armed = Atomic<Bool>(false)
    /// Serializes arming and disarming (rare: once per burst of input).
    private let armLock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let timer: Int32
    private var thread = pthread_t()
    private var running = false
    private let ending = Atomic<Bool>(false)

    /// The readers drained (under `lock`; set by the host's thread while it holds it).
    private var readers: [LiveEventReader] = []
    /// Set under `lock` when a drain took bytes; the host's thread clears it once every backlog
    /// is taken. Read by the host per `nextFrame` (it holds `lock` then).
    private(set) var hasBacklog = false
    /// Drains that took bytes: read by tests only (`HostStallTests`, `BusyHostTests`), the one
    /// trace of the thread's work.
    private(set) var drains = 0
    /// Stalls seen: read by tests only (`HostStallTests`).
    private(set) var stalls = 0

    /// Turns looks into verdicts (this thread's, or a test's calling `look(at:)`).
    private var stallWatch = HostStallWatch()
    /// The lanes told of the stall under way (told `hostBack` when it ends).
    private var stalledLanes: [StallPassThrough] = []
    /// What the thread waits on while the host is stalled: the timer, then the devices.
    private var stallWaits: [pollfd] = []
    /// A backlog filled at the last look: the devices are not waited on (they would stay readable).
    private var backlogFull = false

    init() {
        pthread_mutex_init(lock, nil)
        pthread_mutex_init(armLock, nil)
        timer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC))
    }

    deinit {
        end()
        if timer >= 0 { close(timer) }
        pthread_mutex_destroy(lock)
        pthread_mutex_destroy(armLock)
        lock.deallocate()
        armLock.deallocate()
    }

    /// Starts the thread (once; nothing without a timer: then the host alone reads, as before).
    func start() {
        guard !running, timer >= 0, !ending.load(ordering: .relaxed) else { return }
        // Born with every signal blocked: SIGINT/SIGTERM and the service's signals go to the
        // host's thread, which acts on them.
        var all = sigset_t(), saved = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        let context = Unmanaged.passRetained(self).toOpaque()
        let started = pthread_create(&thread, nil, { context in
            let drain = Unmanaged<InputDrain>.fromOpaque(context!).takeRetainedValue()
            drain.watch()
            return nil
        }, context)
        if started != 0 {
            Unmanaged<InputDrain>.fromOpaque(context).release()
        } else {
            running = true
        }
    }

    /// Ends the thread and waits for it. Call before the readers close.
    func end() {
        guard !ending.exchange(true, ordering: .sequentiallyConsistent) else { return }
        guard running else { return }
        setTimer(0.000_001)  // looks at once, sees `ending`, returns
        pthread_join(thread, nil)
        running = false
    }

    // MARK: The host's side

    /// Entering `nextFrame`: the devices are the host's until `leave`.
    @inline(__always)
    func enter() {
        pthread_mutex_lock(lock)
        sequence.store(sequence.load(ordering: .relaxed) &+ 1, ordering: .sequentiallyConsistent)
    }

    /// Leaving `nextFrame`, or running a watched descriptor's handler (`handingFrame`: the host
    /// has work, a frame or the handler's, and may now be busy):
    /// the devices are the drain's to read while the host works, and its looks are armed.
    @inline(__always)
    func leave(handingFrame: Bool) {
        sequence.store(sequence.load(ordering: .relaxed) &+ 1, ordering: .sequentiallyConsistent)
        if handingFrame, running, !armed.load(ordering: .sequentiallyConsistent) { arm() }
        pthread_mutex_unlock(lock)
    }

    /// The readers to drain from now on (under `lock`: the host is inside `nextFrame`).
    func setReaders(_ readers: [LiveEventReader]) {
        self.readers = readers
    }

    /// Every backlog was taken (under `lock`).
    func backlogTaken() { hasBacklog = false }

    /// Before a wait for input without a time limit that follows no frame: nothing is expected,
    /// so the thread's looks stop without waking it (one system call when they ran).
    func quiesce() {
        guard armed.load(ordering: .sequentiallyConsistent) else { return }
        pthread_mutex_lock(armLock)
        armed.store(false, ordering: .sequentiallyConsistent)
        setTimer(0)
        pthread_mutex_unlock(armLock)
        quiesces += 1
    }

    /// Times `quiesce` stopped the looks (for tests).
    private(set) var quiesces = 0

    private func arm() {
        pthread_mutex_lock(armLock)
        if !armed.load(ordering: .sequentiallyConsistent) {
            armed.store(true, ordering: .sequentiallyConsistent)
            setTimer(Self.interval, every: Self.interval)
        }
        pthread_mutex_unlock(armLock)
    }

    /// The timer's first expiry `after` seconds from now and then every `every` (0, 0: stopped).
    private func setTimer(_ after: Double, every: Double = 0) {
        func spec(_ seconds: Double) -> timespec {
            let whole = seconds.rounded(.down)
            return timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
        }
        var value = itimerspec(it_interval: spec(every), it_value: spec(after))
        _ = timerfd_settime(timer, 0, &value, nil)
    }

    // MARK: The drain's thread

    private func watch() {
        var expirations: UInt64 = 0
        while true {
            if stallWatch.isStalled && !backlogFull {
                // The devices too: each frame is passed as it comes.
                _ = stallWaits.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), -1) }
                if stallWaits[0].revents & Int16(POLLIN) != 0 { _ = read(timer, &expirations, 8) }
            } else {
                // Asleep until the timer fires: never while disarmed.
                let n = read(timer, &expirations, 8)
                if ending.load(ordering: .sequentiallyConsistent) { return }
                guard n == 8 else { continue }
            }
            if ending.load(ordering: .sequentiallyConsistent) { return }
            look(at: LiveEventReader.now())
        }
    }

    /// One look at the host (the thread's; tests call it with their own times).
    func look(at t: Double) {
        let now = sequence.load(ordering: .sequentiallyConsistent)
        switch stallWatch.look(sequence: now, at: t) {
        case .moved:
            return
        case .waiting:
            // In the same wait for input as at the previous look: input paused. The looks
            // stop until the next frame is handed over (re-checked after the store: a frame
            // handed over meanwhile either sees `armed` false and arms, or is seen here).
            pthread_mutex_lock(armLock)
            armed.store(false, ordering: .sequentiallyConsistent)
            if sequence.load(ordering: .sequentiallyConsistent) == now {
                setTimer(0)
            } else {
                armed.store(true, ordering: .sequentiallyConsistent)
            }
            pthread_mutex_unlock(armLock)
        case .busy:
            // Outside `nextFrame` since the previous look: busy. Drain unless the host just came
            // back (then it reads for itself).
            guard pthread_mutex_trylock(lock) == 0 else { return }
            drainAll()
            pthread_mutex_unlock(lock)
        case .stalled(let began):
            guard pthread_mutex_trylock(lock) == 0 else { return }
            if began { stalls += 1 }
            drainAll()
            // The readers do not change while the host is away from `nextFrame`.
            for reader in readers { reader.passStalled() }
            for reader in readers {
                guard let lane = reader.stallPass else { continue }
                // Told even with nothing drained: what the host had read and not decided (a
                // touch held for a consumer, a tap's lift) passes now, not when the host is back.
                if began { lane.stalled(UnsafeBufferPointer(start: nil, count: 0)) }
                if !stalledLanes.contains(where: { $0 === lane }) { stalledLanes.append(lane) }
            }
            if began {
                stallWaits = [pollfd(fd: timer, events: Int16(POLLIN), revents: 0)]
                    + readers.map { pollfd(fd: $0.fileDescriptor, events: Int16(POLLIN), revents: 0) }
            }
            pthread_mutex_unlock(lock)
        case .back:
            backlogFull = false
            for lane in stalledLanes { lane.hostBack() }
            stalledLanes.removeAll()
        }
    }

    /// Under `lock`: every reader's waiting bytes into its backlog.
    private func drainAll() {
        var took = false
        var full = false
        defer { backlogFull = full }
        for reader in readers {
            switch reader.drainIntoBacklog() {
            case .took: took = true
            case .full:
                took = true
                full = true
            case .nothing: break
            }
        }
        if took {
            drains += 1
            hasBacklog = true
        }
    }

    /// For tests: one drain now, as the thread does when it finds the host busy (call from a
    /// thread other than the host's, or between `nextFrame` calls).
    func drainNow() {
        pthread_mutex_lock(lock)
        drainAll()
        pthread_mutex_unlock(lock)
    }

    /// For tests: `drains` once a drain under way ended (the writer of a test's pipe can finish
    /// while the drain that made room for it is still counting it).
    var drainsEnded: Int {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return drains
    }

    /// For tests: whether the thread's looks are armed.
    var isArmed: Bool { armed.load(ordering: .sequentiallyConsistent) }
}
