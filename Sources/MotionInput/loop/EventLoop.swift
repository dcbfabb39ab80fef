import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// The process's one wait, apart from input: it owns the wait itself (`ReadySet`, the kernel's
/// ready list), the stop pipe (`stop()`, SIGINT/SIGTERM through `control.stopFileDescriptor`)
/// and the registrations of everything else a live host waits on, and runs each registration's
/// handler when its descriptor is ready. After swift-nio's `EventLoop` and libinput's dispatch:
/// one thread, one wait, handlers that never block.
///
/// Who registers (the registration API, kept small on purpose):
///
/// - The input (`LiveDeviceSet`) is the loop's `EventSource`: its devices and hotplug watch are
///   waited on with everything else, and handed back to it by tag (no closure per frame). The
///   source drives the wait (`wait(seconds:)`) from its `nextFrame`.
/// - Everyone else — the config watcher, `run --watch`'s file watcher, the control socket and
///   its clients, the service's signal pipe, the focus provider — calls
///   `register(fd:events:onReady:)` and keeps the `Registration` to `unregister` it. The handler
///   runs on the loop's thread, during the wait, and must consume what made the descriptor
///   ready (read it, accept the connection), or the next wait returns at once again; on end of
///   file it should unregister (and close) the descriptor. A descriptor closed while registered
///   is dropped with a diagnostic when the wait is next set up. Handlers may register and
///   unregister, their own registration included. Errors a handler throws come out of the wait.
/// - Work due at a time without a descriptor (a reconnection's back-off, a burst's quiet time)
///   says so with `register(at:onDue:)` / `reschedule(_:at:)` (monotonic seconds; nil: not
///   due): no wait lasts past the earliest due time, and the handler runs once it is reached.
///
/// When a handler ran, the wait reports it (`Wake.handled`): the source then answers its caller
/// at once (`LiveDevice.Next.timeout`), so the host sees what the handler changed.
public final class EventLoop {
    /// Names one registration, for `unregister` and `reschedule`.
    public struct Registration: Hashable, Sendable {
        let id: Int
    }

    /// The stop pipe: `stop()` (thread-safe) or a signal handler writing a byte to
    /// `control.stopFileDescriptor` wakes the wait, and the source is told (`EventSource.stopRequested`).
    public let control: LiveEventReader
    /// Both ends of the stop pipe (internal: tests look at their flags).
    let controlPipe: [Int32]
    /// Waits (`ReadySet.wait` calls) made so far: one per wake-up, however many descriptors were ready.
    public private(set) var waits = 0

    /// The input: its descriptors in the wait, handed back by tag. Reached per ready descriptor
    /// without reference counting: it attached itself and detaches before it goes (`detach`).
    private unowned(unsafe) var source: EventSource?

    struct Watcher {
        let registration: Registration
        let fd: Int32
        let events: Int16
        let handler: () throws -> Void
    }
    private(set) var watchers: [Watcher] = []
    private struct Timer {
        let registration: Registration
        var at: Double?
        let handler: () throws -> Void
    }
    private var timers: [Timer] = []
    private var nextID = 0
    private let readySet = ReadySet()
    /// What each entry of the wait is (its `data` is the index here).
    private enum Slot { case stop, source(Int), watcher(Registration) }
    private var slots: [Slot] = []
    private var entries: [(fd: Int32, events: Int16, data: UInt64)] = []
    private var sourceEntries: [(fd: Int32, events: Int16, tag: Int)] = []
    /// The wait is set up again before the next wait (registrations or the source changed).
    private var isStale = true
    private var closed = false
    /// Told about descriptors found closed while registered.
    public var diagnostics: ((String) -> Void)?

    public init() throws {
        var fds: [Int32] = [0, 0]
        // Close-on-exec: a launched command must not keep the wake-up pipe (glibc before 2.34
        // cannot close the rest of the descriptors in the child).
        guard pipe2(&fds, O_CLOEXEC) == 0 else { throw InputError(file: "<loop>", "cannot create a pipe: \(String(cString: strerror(errno)))") }
        controlPipe = fds
        control = try LiveEventReader(fileDescriptor: fds[0], name: "<control>", ownsDescriptor: true)
    }

    deinit { close() }

    /// Closes the wait and the stop pipe (idempotent). Registered descriptors stay their owners'.
    public func close() {
        guard !closed else { return }
        closed = true
        watchers.removeAll()
        timers.removeAll()
        readySet.close()
        control.close()
        Glibc.close(controlPipe[1])
    }

    /// Wakes the wait and ends input (thread-safe).
    public func stop() { control.stop() }

    // MARK: Registrations

    /// Waits on `fd` from now on; `onReady` runs each time it is ready (readable, hung up or in
    /// error). `events` are poll(2) events (POLLIN by default; POLLOUT for a socket being
    /// written in the background).
    @discardableResult
    public func register(fd: Int32, events: Int16 = Int16(POLLIN), onReady: @escaping () throws -> Void) -> Registration {
        let registration = newRegistration()
        watchers.append(Watcher(registration: registration, fd: fd, events: events, handler: onReady))
        isStale = true
        return registration
    }

    /// Runs `onDue` once monotonic time reaches `at` (nil: not due until `reschedule`).
    @discardableResult
    public func register(at: Double?, onDue: @escaping () throws -> Void) -> Registration {
        let registration = newRegistration()
        timers.append(Timer(registration: registration, at: at, handler: onDue))
        return registration
    }

    /// A timer's next due time (nil: none).
    public func reschedule(_ registration: Registration, at: Double?) {
        guard let i = timers.firstIndex(where: { $0.registration == registration }) else { return }
        timers[i].at = at
    }

    /// Removes a registration (nothing for one already removed).
    public func unregister(_ registration: Registration) {
        if let i = watchers.firstIndex(where: { $0.registration == registration }) {
            watchers.remove(at: i)
            isStale = true
        } else if let i = timers.firstIndex(where: { $0.registration == registration }) {
            timers.remove(at: i)
        }
    }

    /// The descriptors registered now.
    public var registeredDescriptors: [Int32] { watchers.map(\.fd) }

    private func newRegistration() -> Registration {
        defer { nextID += 1 }
        return Registration(id: nextID)
    }

    // MARK: The source's side

    /// Makes `source` the loop's input (one at a time).
    public func attach(_ source: EventSource) {
        self.source = source
        isStale = true
    }

    /// The source is going: no more calls into it.
    public func detach(_ source: EventSource) {
        guard self.source === source else { return }
        self.source = nil
        isStale = true
    }

    /// The source's descriptors changed: asked again before the next wait.
    @inline(__always)
    public func sourceChanged() { isStale = true }

    /// What one `wait` found.
    public enum Wake: Equatable {
        /// Nothing within the time (or a signal interrupted the wait).
        case nothing
        /// Descriptors were ready and were handed over; `handled`: a registration's handler ran.
        case ready(handled: Bool)
    }

    /// One wait of at most `seconds` (nil: no limit; cut short by the earliest due time), then
    /// what is ready handed over: the stop pipe and the source's descriptors to the source,
    /// registered descriptors and due times to their handlers.
    public func wait(seconds: Double?) throws -> Wake {
        if isStale { try setUp() }
        var left = seconds
        var now = 0.0
        if !timers.isEmpty, let due = earliestDue() {
            now = Clock.now()
            left = min(left ?? .infinity, max(0, due - now))
        }
        let ready = readySet.wait(seconds: left)
        waits += 1
        if ready < 0 {
            let e = errno
            guard e == EINTR else { throw InputError(file: "<devices>", "poll failed: \(String(cString: strerror(e)))") }
        }
        var handled = false
        if ready > 0 { handled = try dispatch() }
        if !timers.isEmpty, try runDue() { handled = true }
        return ready > 0 || handled ? .ready(handled: handled) : .nothing
    }

    private func earliestDue() -> Double? {
        var earliest: Double?
        for timer in timers { if let at = timer.at { earliest = min(earliest ?? at, at) } }
        return earliest
    }

    /// Runs the timers whose time came (each once; it reschedules itself if it wants more).
    private func runDue() throws -> Bool {
        guard earliestDue() != nil else { return false }
        let now = Clock.now()
        var ran = false
        for timer in timers where (timer.at ?? .infinity) <= now {
            guard let i = timers.firstIndex(where: { $0.registration == timer.registration }) else { continue }
            timers[i].at = nil
            ran = true
            source?.handlerWillRun()
            defer { source?.handlerDidRun() }
            try timer.handler()
        }
        return ran
    }

    /// Acts on what the wait found ready. True when a handler ran.
    private func dispatch() throws -> Bool {
        var handled = false
        // The wait's entries and slots stay as they are until the next wait (changes only mark
        // them stale).
        var k = 0
        while k < readySet.readyCount {
            let index = readySet.ready(k).data
            k += 1
            switch slots[Int(index)] {
            case .stop:
                source?.stopRequested()
            case .source(let tag):
                try source?.ready(tag: tag)
            case .watcher(let registration):
                // A handler may have unregistered this one (or others) meanwhile.
                guard let watcher = watchers.first(where: { $0.registration == registration }) else { continue }
                handled = true
                source?.handlerWillRun()
                defer { source?.handlerDidRun() }
                try watcher.handler()
            }
        }
        return handled
    }

    private func setUp() throws {
        slots.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        func add(_ fd: Int32, _ events: Int16, _ slot: Slot) {
            entries.append((fd, events, UInt64(slots.count)))
            slots.append(slot)
        }
        // In this order: what a wake-up acts on comes in the same order (the stop first).
        add(control.wakeFileDescriptor, Int16(POLLIN), .stop)
        sourceEntries.removeAll(keepingCapacity: true)
        source?.descriptors(into: &sourceEntries)
        for entry in sourceEntries { add(entry.fd, entry.events, .source(entry.tag)) }
        for watcher in watchers { add(watcher.fd, watcher.events, .watcher(watcher.registration)) }
        isStale = false
        // A registered descriptor closed without being unregistered is found here, when the
        // wait is set up (the kernel drops a closed descriptor from the ready list without a word).
        for data in try readySet.reset(entries) {
            switch slots[Int(data)] {
            case .watcher(let registration):
                guard let watcher = watchers.first(where: { $0.registration == registration }) else { continue }
                unregister(registration)
                diagnostics?("motionscript: descriptor \(watcher.fd) was closed without being unwatched; no longer waited on")
            case .source(let tag):
                source?.closed(tag: tag)
            case .stop:
                continue
            }
        }
    }
}

/// The input a loop waits on with its registrations (`LiveDeviceSet`): its descriptors are
/// handed back by tag, without a closure per frame.
public protocol EventSource: AnyObject {
    /// Its descriptors now, each with the tag `ready(tag:)` gets (asked when the wait is set up
    /// again: after `EventLoop.sourceChanged()` or a registration changed).
    func descriptors(into entries: inout [(fd: Int32, events: Int16, tag: Int)])
    /// A descriptor of it is ready.
    func ready(tag: Int) throws
    /// A descriptor of it was found closed when the wait was set up.
    func closed(tag: Int)
    /// The stop pipe was written (`EventLoop.stop()`, a signal).
    func stopRequested()
    /// A registration's handler is about to run (the host's work: it may take long), and ran.
    func handlerWillRun()
    func handlerDidRun()
}

extension EventLoop {
    /// Monotonic seconds (CLOCK_MONOTONIC), what due times are on.
    enum Clock {
        static func now() -> Double { LiveEventReader.now() }
    }
}
