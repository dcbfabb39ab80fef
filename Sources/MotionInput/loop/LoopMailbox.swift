import CLinux
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Messages other threads hand to the event loop's thread: `post` from any thread queues one
/// and wakes the loop's wait (an eventfd registered with it); the loop's thread hands each to
/// `deliver`, in the order posted. The daemon's `motion.exec` children that fail are said this
/// way (the reaper's thread posts, the plugin's log takes it on the host's thread), since the
/// log, like everything of the host, belongs to the loop's thread.
///
/// Bounded: at most `capacity` messages wait; past that they are counted, not kept, and the
/// count is delivered as one message once there is room again (a command failing in a tight
/// loop cannot grow the daemon's memory). After `close()` a post goes to `orphan` (the message
/// is not lost: stderr), never to the closed descriptor.
public final class LoopMailbox<Message: Sendable>: @unchecked Sendable {
    /// Messages kept at most while the loop's thread is busy.
    public static var capacity: Int { 256 }

    private struct Box: ~Copyable {
        var queue: [Message] = []
        var dropped = 0
        var fd: Int32
    }
    private let box: Mutex<Box>
    /// Told on the loop's thread (only there).
    private let deliver: (Message) -> Void
    /// Told a message posted after `close()`, on the posting thread.
    private let orphan: @Sendable (Message) -> Void
    /// Says how many were dropped (a message of its own, delivered after the rest).
    private let droppedMessage: @Sendable (Int) -> Message
    private weak var loop: EventLoop?
    private var registration: EventLoop.Registration?

    /// Registers with `loop`. Throws when no eventfd can be made.
    public init(loop: EventLoop, deliver: @escaping (Message) -> Void,
                dropped: @escaping @Sendable (Int) -> Message,
                orphan: @escaping @Sendable (Message) -> Void) throws {
        let fd = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard fd >= 0 else { throw InputError(file: "<loop>", "cannot create an eventfd: \(String(cString: strerror(errno)))") }
        box = Mutex(Box(fd: fd))
        self.deliver = deliver
        self.orphan = orphan
        droppedMessage = dropped
        self.loop = loop
        registration = loop.register(fd: fd) { [unowned self] in take() }
    }

    deinit { close() }

    /// Queues `message` and wakes the loop (any thread).
    public func post(_ message: Message) {
        let closed = box.withLock { box -> Bool in
            guard box.fd >= 0 else { return true }
            if box.queue.count < Self.capacity {
                box.queue.append(message)
            } else {
                box.dropped += 1
            }
            var one: UInt64 = 1
            _ = write(box.fd, &one, 8)
            return false
        }
        if closed { orphan(message) }
    }

    /// On the loop's thread: everything queued, in order.
    private func take() {
        let (messages, dropped) = box.withLock { box -> ([Message], Int) in
            var count: UInt64 = 0
            if box.fd >= 0 { _ = read(box.fd, &count, 8) }
            defer { box.queue.removeAll(keepingCapacity: true); box.dropped = 0 }
            return (box.queue, box.dropped)
        }
        for message in messages { deliver(message) }
        if dropped > 0 { deliver(droppedMessage(dropped)) }
    }

    /// Delivers what waits, unregisters and closes the eventfd; later posts go to `orphan`.
    public func close() {
        if let registration {
            take()
            loop?.unregister(registration)
            self.registration = nil
        }
        box.withLock { box in
            if box.fd >= 0 { Glibc.close(box.fd) }
            box.fd = -1
        }
    }
}
