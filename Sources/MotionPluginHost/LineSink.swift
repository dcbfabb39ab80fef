#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import MotionDiagnostics

/// The sinks `atexit` flushes (a C function cannot capture them).
private let sinksToFlushAtExit = Mutex<[LineSink]>([])

/// Where output lines go: a descriptor written with write(2), whole lines at a time, so that
/// whatever stops the process (a second Ctrl-C, the watchdog, SIGKILL between two writes)
/// never leaves half a line behind. SIGINT and SIGTERM wait while a write is under way. A
/// failed write is kept, and later lines are dropped: the run ends on it (see `failure`).
public final class LineSink: Sendable {
    public enum Failure: Equatable, Sendable {
        /// The reader went away (EPIPE with SIGPIPE ignored): a filter ends quietly.
        case closedPipe
        /// Anything else (a full disk, a closed stdout): worth a message.
        case error(String)
    }

    /// The buffered bytes: owned memory (an array's append costs more than the line's copy),
    /// only ever touched under the lock, so it may cross threads with it.
    private struct State: ~Copyable, @unchecked Sendable {
        var buffer: UnsafeMutablePointer<UInt8>
        var count = 0
        var capacity: Int
        var failure: Failure?

        init(capacity: Int) {
            self.capacity = capacity
            buffer = .allocate(capacity: capacity)
        }

        deinit { buffer.deallocate() }

        mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
            if bytes.count > capacity &- count {
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: Swift.max(count + bytes.count, capacity * 2))
                grown.initialize(from: buffer, count: count)
                buffer.deallocate()
                buffer = grown
                capacity = Swift.max(count + bytes.count, capacity * 2)
            }
            (buffer + count).initialize(from: source, count: bytes.count)
            count &+= bytes.count
        }
    }

    /// Buffered bytes that trigger a write.
    static let bufferLimit = 64 * 1024

    /// -1 when there is nowhere to write (stdout was closed).
    private let fd: Int32
    private let state = Mutex(State(capacity: bufferLimit + 4096))
    /// Whether bytes may be buffered (set with every append, cleared by every write), read
    /// without the lock: the live loop flushes after every frame and most frames print nothing.
    /// A thread sees its own appends; a stale `true` costs one empty look under the lock.
    private let mayHoldBytes = Atomic<Bool>(false)

    public init(fileDescriptor: Int32) {
        fd = fileDescriptor
    }

    public var failure: Failure? { state.withLock { $0.failure } }

    /// Adds one or more whole lines; writes them now when `flush` or when enough are buffered.
    /// Returns the failure the first time a write fails, nil otherwise.
    public func append(_ lines: UnsafeBufferPointer<UInt8>, flush: Bool) -> Failure? {
        state.withLock { state in
            guard state.failure == nil else { return nil }
            state.append(lines)
            mayHoldBytes.store(true, ordering: .relaxed)
            guard flush || state.count >= Self.bufferLimit else { return nil }
            return write(&state)
        }
    }

    /// Writes what is buffered. Returns the failure the first time a write fails.
    @discardableResult
    public func flush() -> Failure? {
        guard mayHoldBytes.load(ordering: .relaxed) else { return nil }
        return state.withLock { write(&$0) }
    }

    /// Writes what is buffered when the process exits through exit(3) (a script calling
    /// `os.exit`), as stdio would have.
    public func flushAtExit() {
        sinksToFlushAtExit.withLock { sinks in
            guard sinks.isEmpty else { return sinks.append(self) }
            sinks.append(self)
            atexit {
                for sink in sinksToFlushAtExit.withLock({ $0 }) {
                    // A write failing only now must not end the process with success.
                    switch sink.flushIfIdle() {
                    case .closedPipe?: _exit(141)
                    case .error(let reason)?:
                        StandardError.line("error: cannot write the output: \(reason)")
                        _exit(1)
                    case nil: break
                    }
                }
            }
        }
    }

    /// For another thread about to end the process: writes what is buffered unless the run's
    /// thread is writing now (then its lines are whole already).
    /// Returns the failure if this write failed.
    @discardableResult
    public func flushIfIdle() -> Failure? {
        state.withLockIfAvailable { write(&$0) } ?? nil
    }

    private func write(_ state: inout State) -> Failure? {
        mayHoldBytes.store(false, ordering: .relaxed)
        guard state.failure == nil, state.count > 0 else { return nil }
        defer { state.count = 0 }
        let failure = Self.writeAll(fd, UnsafeRawBufferPointer(start: state.buffer, count: state.count))
        state.failure = failure
        return failure
    }

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Failure? {
        guard fd >= 0 else { return .error("standard output is closed") }
        var signals = sigset_t(), saved = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n > 0 {
                done += n
                continue
            }
            let e = n < 0 ? errno : EIO
            if e == EINTR { continue }
            return e == EPIPE ? .closedPipe : .error(String(cString: strerror(e)))
        }
        return nil
    }
}
