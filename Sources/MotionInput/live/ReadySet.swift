import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// The input hub's one wait (`LiveDeviceSet.nextFrame`), on the kernel's ready list (epoll)
/// rather than `ppoll`. A `ppoll` registers the caller on every descriptor's wait queue and
/// takes it off again at every wake-up, and looks at every descriptor twice: with the daemon's
/// six (the device, the stop pipe, hotplug, the control socket, the config folder, ...) that was
/// some 1,500 of the kernel's instructions per input frame, growing with every device and
/// control client (scripts/bench-lisgd ftrace). The ready list is kept by the kernel between
/// waits, so a wake-up costs the same whatever the number of descriptors.
///
/// The registrations are made again whenever the set changes (`reset`, a new epoll instance:
/// a descriptor closed and its number reused can never leave a stale registration behind).
/// Level-triggered, as `ppoll`: a descriptor not fully read is reported again. Descriptors the
/// kernel cannot wait on this way (regular files) are reported ready at every wait, as `ppoll`
/// reports them.
final class ReadySet {
    private var epoll: Int32 = -1
    /// What the kernel fills at each wait.
    private var events: UnsafeMutablePointer<epoll_event>
    private var capacity: Int
    /// Entries (by their `data`) that epoll cannot watch (EPERM: regular files): always ready.
    private var alwaysReady: [(data: UInt64, events: UInt32)] = []
    private var noPwait2 = false

    init(capacity: Int = 32) {
        self.capacity = capacity
        events = .allocate(capacity: capacity)
    }

    deinit {
        close()
        events.deallocate()
    }

    /// Closes the epoll instance (the descriptors waited on stay their owners').
    func close() {
        if epoll >= 0 { Glibc.close(epoll); epoll = -1 }
    }

    /// Waits on exactly `entries` (descriptor, poll(2) events, the `data` reported for it) from
    /// now on. Returns the `data` of entries whose descriptor is not open (EBADF), which are
    /// left out; throws when the kernel has no epoll instance to give (out of descriptors).
    func reset(_ entries: [(fd: Int32, events: Int16, data: UInt64)]) throws -> [UInt64] {
        close()
        alwaysReady.removeAll(keepingCapacity: true)
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw InputError(file: "<devices>", "cannot wait on the devices (epoll_create1): \(String(cString: strerror(errno)))") }
        var closed: [UInt64] = []
        for entry in entries {
            var event = epoll_event()
            event.events = UInt32(UInt16(bitPattern: entry.events))
            event.data.u64 = entry.data
            guard epoll_ctl(epoll, EPOLL_CTL_ADD, entry.fd, &event) != 0 else { continue }
            switch errno {
            case EPERM: alwaysReady.append((entry.data, event.events))
            case EEXIST: continue  // the same descriptor twice: its first entry reports it
            default: closed.append(entry.data)
            }
        }
        // Room for every entry, the kernel's and the always ready ones, and never none.
        if capacity <= entries.count {
            events.deallocate()
            capacity = entries.count + 1
            events = .allocate(capacity: capacity)
        }
        return closed
    }

    /// How many entries the last wait found ready (`ready(_:)` reads them).
    private(set) var readyCount = 0

    /// The last wait's `i`th ready entry: its `data` and poll(2) events (EPOLLIN and POLLIN,
    /// and the others, have the same values), in the order of their `data`.
    @inline(__always)
    func ready(_ i: Int) -> (data: UInt64, events: Int16) {
        (events[i].data.u64, Int16(truncatingIfNeeded: events[i].events))
    }

    /// The last wait's ready entries (for tests; `ready(_:)` reads one without an array).
    var ready: [(data: UInt64, events: Int16)] { (0..<readyCount).map { ready($0) } }

    /// One wait of at most `seconds` (nil: no limit; the timeout kept to the nanosecond, as
    /// `pollWait`'s); the ready entries stay in the kernel's buffer, in the order of their
    /// `data`. Returns the number ready, 0 on timeout, -1 with errno set (EINTR: a signal).
    func wait(seconds: Double?) -> Int32 {
        readyCount = 0
        let count = waitOnce(events, Int32(capacity - alwaysReady.count), alwaysReady.isEmpty ? seconds : 0)
        guard count >= 0 else { return count }
        var n = Int(count)
        // Not in the kernel's list, so room for them after what it filled (`reset` sized it).
        for entry in alwaysReady {
            events[n].data.u64 = entry.data
            events[n].events = entry.events & (EPOLLIN.rawValue | EPOLLOUT.rawValue)
            n += 1
        }
        // In the order they were given (the stop pipe first, then hotplug, devices, watchers):
        // what a wake-up acts on comes in the same order as with ppoll. A handful: no sort call.
        var i = 1
        while i < n {
            var j = i
            while j > 0 && events[j - 1].data.u64 > events[j].data.u64 {
                swap(&events[j - 1], &events[j])
                j -= 1
            }
            i += 1
        }
        readyCount = n
        return Int32(n)
    }

    private func waitOnce(_ buffer: UnsafeMutablePointer<epoll_event>, _ capacity: Int32, _ seconds: Double?) -> Int32 {
        guard let seconds else { return epoll_wait(epoll, buffer, capacity, -1) }
        // As pollWait: past deadlines wait for nothing, far ones are cut to 1,000 s (the caller
        // loops), NaN counts as now.
        let left = seconds > 0 ? min(seconds, 1000) : 0
        if !noPwait2 {
            let whole = left.rounded(.down)
            var timeout = timespec(tv_sec: Int(whole), tv_nsec: min(max(Int(((left - whole) * 1e9).rounded(.up)), 0), 999_999_999))
            let n = epoll_pwait2(epoll, buffer, capacity, &timeout, nil)
            if n >= 0 || errno != ENOSYS { return n }
            noPwait2 = true  // Linux before 5.11: whole milliseconds, rounded up (never early)
        }
        return epoll_wait(epoll, buffer, capacity, Int32((left * 1000).rounded(.up)))
    }
}
