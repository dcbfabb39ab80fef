import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Live output that never stalls the plugins: lines go into a bounded buffer that a thread of
/// its own writes out. When the reader falls so far behind that the buffer is full, new lines
/// are dropped and counted, and the next line that fits is preceded by
/// `{"t":…,"dropped":N}` (the time of that next line), so a consumer knows what it missed.
public final class BoundedWriter: @unchecked Sendable {
    private struct State {
        var pending: [UInt8] = []
        var dropped = 0
        var droppedBefore = 0
        var failure: LineSink.Failure?
        var closed = false
        /// The thread has ended: everything queued was written, or writing failed.
        var finished = false
        /// Batches the thread has taken out of `pending` to write.
        var batchesTaken = 0
    }

    /// Bytes waiting to be written before lines are dropped.
    public let capacity: Int
    private let sink: LineSink
    private let state = Mutex(State())
    private let ready = NSCondition()
    private var thread: Thread?

    /// The line that says how many were dropped, put before `line` (the next that fits).
    public typealias Notice = @Sendable (_ dropped: Int, _ line: UnsafeBufferPointer<UInt8>) -> [UInt8]
    private let notice: Notice

    /// `notice`: the JSON line `{"t":…,"dropped":N}` for stdout; `diagnosticNotice` for stderr.
    public init(sink: LineSink, capacity: Int = 1 << 20, notice: @escaping Notice = BoundedWriter.droppedLine) {
        self.sink = sink
        self.capacity = capacity
        self.notice = notice
        let thread = Thread { [self] in run() }
        self.thread = thread
        thread.start()
    }

    /// Lines dropped so far.
    public var droppedTotal: Int { state.withLock { $0.dropped + $0.droppedBefore } }

    public var failure: LineSink.Failure? { state.withLock { $0.failure } }

    /// Queues whole lines (never waits for the reader).
    public func append(_ line: UnsafeBufferPointer<UInt8>) {
        var notice: [UInt8]?
        let queued: Bool = state.withLock { state in
            guard state.failure == nil, !state.closed else { return false }
            if state.dropped > 0 {
                notice = self.notice(state.dropped, line)
            }
            let need = line.count + (notice?.count ?? 0)
            guard state.pending.count + need <= capacity else {
                state.dropped += 1
                return false
            }
            if let notice {
                state.pending.append(contentsOf: notice)
                state.droppedBefore += state.dropped
                state.dropped = 0
            }
            state.pending.append(contentsOf: line)
            return true
        }
        if queued { signal() }
    }

    /// Wakes the writer thread when lines wait (they are written as soon as it runs). With
    /// nothing queued it does nothing: the live loop flushes after every frame, and a wake-up
    /// per frame for nothing cost a futex call and a context switch each.
    public func flush() {
        if state.withLock({ !$0.pending.isEmpty }) { signal() }
    }

    /// Test seam, not API: batches the writer thread has taken to write so far. Tests wait for
    /// it to hold one (blocked on a full pipe) before they count what fits behind it; nothing
    /// outside the thread shows that moment.
    var batchesTaken: Int { state.withLock { $0.batchesTaken } }

    /// Test seam, not API: wake-ups sent to the writer thread so far (`LiveCostTests`: a frame
    /// that prints nothing wakes nobody; a futex wake leaves no other trace in the process).
    var wakeUps: Int { ready.lock(); defer { ready.unlock() }; return signals }
    private var signals = 0

    /// Writes what is queued and ends the thread; later lines are dropped. A reader that
    /// stopped reading is waited for `seconds` at most: the daemon's exit must not hang on it
    /// (what is still queued then is lost; the thread, blocked in its write, ends with the process).
    public func close(waitingAtMost seconds: Double = 2) {
        state.withLock { $0.closed = true }
        signal()
        // The thread writes (and flushes) everything queued before it ends; the sink is not
        // touched here, since a write blocked on the reader holds it.
        let deadline = Clock.monotonic() + seconds
        while !state.withLock({ $0.finished }) {
            if Clock.monotonic() > deadline { return }
            usleep(1000)
        }
    }

    private func signal() {
        ready.lock()
        signals += 1
        ready.signal()
        ready.unlock()
    }

    private func run() {
        // Signals go to the thread that runs Lua, which can act on them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        defer { state.withLock { $0.finished = true } }
        // The batch being written; swapped with the queue, so neither buffer is copied or
        // allocated again per batch (taking the queue's bytes and emptying it made a new one).
        var bytes: [UInt8] = []
        while true {
            ready.lock()
            while state.withLock({ $0.pending.isEmpty && !$0.closed }) { ready.wait() }
            ready.unlock()
            bytes.removeAll(keepingCapacity: true)
            let closed = state.withLock { state -> Bool in
                swap(&bytes, &state.pending)
                if !bytes.isEmpty { state.batchesTaken += 1 }
                return state.closed
            }
            if !bytes.isEmpty {
                let failure = bytes.withUnsafeBufferPointer { sink.append($0, flush: true) }
                if let failure {
                    state.withLock { $0.failure = failure }
                    return
                }
            }
            if closed && state.withLock({ $0.pending.isEmpty }) { return }
        }
    }

    /// Queues text (stderr: a diagnostic line, or what a plugin wrote); never waits.
    public func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Stderr's note of what a reader that stopped reading missed.
    @Sendable public static func diagnosticNotice(count: Int, before line: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        Array("motionscript: \(count) diagnostic line\(count == 1 ? "" : "s") dropped: stderr was not being read\n".utf8)
    }

    /// `{"t":T,"dropped":N}\n`, T the time of the line about to be written.
    @Sendable public static func droppedLine(count: Int, like line: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var end = min(5, line.count)
        while end < line.count, line[end] != UInt8(ascii: ","), line[end] != UInt8(ascii: "}") { end += 1 }
        return Array(line[0..<end]) + Array(",\"dropped\":\(count)}\n".utf8)
    }
}
