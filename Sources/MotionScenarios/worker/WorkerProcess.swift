#if canImport(Glibc)
import Glibc
#endif
import Foundation
import MotionPluginHost

/// The batch's handle on one worker process: started in a process group of its own, so that a
/// scenario's child processes (`sleep` under os.execute) are killed with it.
final class WorkerProcess {
    let pid: pid_t
    /// The batch's end of the socket (non-blocking).
    private let channel: Int32
    /// The batch's end of the socket on the worker's stdout and stderr (non-blocking).
    private let capture: Int32
    private var exited = false
    /// Reused for every read from either descriptor.
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

    /// How a scenario's run in the worker ended.
    enum Execution {
        case replied([String])
        /// The worker ended before replying: `status` as from waitpid.
        case died(status: Int32)
        /// No reply by the deadline; the worker and its process group were killed.
        case timedOut
        /// A reply that does not decode; the worker was killed.
        case garbled
    }

    init(executable: String) throws {
        var sockets: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets) == 0 else {
            throw WorkerError("socketpair: \(String(cString: strerror(errno)))")
        }
        // A socket pair rather than a pipe: it is made close-on-exec atomically, so a worker
        // started at the same time by another thread cannot inherit it.
        var pipeEnds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pipeEnds) == 0 else {
            let message = String(cString: strerror(errno))
            close(sockets[0]); close(sockets[1])
            throw WorkerError("socketpair: \(message)")
        }
        defer {
            close(sockets[1])
            close(pipeEnds[1])
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, sockets[1], 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGALRM] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let arguments = [executable, ScenarioWorker.subcommand]
        // A crash is reported as the scenario's error at once: no backtrace of the worker (which
        // can take seconds to symbolicate) while the batch waits.
        var variables = ProcessInfo.processInfo.environment
        variables["SWIFT_BACKTRACE"] = "enable=no"
        let environment = variables.map { "\($0.key)=\($0.value)" }
        var cArguments = arguments.map { strdup($0) } + [nil]
        var cEnvironment = environment.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, Self.spawnPath(executable), &actions, &attributes, &cArguments, &cEnvironment)
        guard status == 0 else {
            close(sockets[0]); close(pipeEnds[0])
            throw WorkerError("cannot start a worker process (\(executable)): \(String(cString: strerror(status)))")
        }
        pid = child
        WorkerRegistry.shared.add(child)
        channel = sockets[0]
        capture = pipeEnds[0]
        for fd in [channel, capture] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    /// Where to start `executable` from. This binary (`/proc/self/exe`) is started through a
    /// descriptor opened on it once: the same file even if the path is rebuilt or deleted
    /// meanwhile, as `/proc/self/exe` gives, and the binary itself also under a tool that runs
    /// it (valgrind), for which `/proc/self/exe` names the tool.
    static func spawnPath(_ executable: String) -> String {
        guard executable == "/proc/self/exe", ownBinary >= 0 else { return executable }
        return "/proc/self/fd/\(ownBinary)"
    }

    deinit {
        kill()
        close(channel)
        close(capture)
    }

    /// Sends `request` and waits for the reply until `deadline` (monotonic seconds; infinity for
    /// none), handing the output the worker sends meanwhile to `output` as it arrives, and
    /// collecting what the worker writes into `captured`.
    func execute(_ request: [UInt8], deadline: Double, captured: inout CappedText,
                 output: (UnsafeRawBufferPointer) -> Void) -> Execution {
        var sent = 0
        // Bytes received; those before `consumed` were handed on already.
        var received: [UInt8] = []
        var consumed = 0
        var captureOpen = true
        while true {
            let remaining = deadline - Clock.monotonic()
            if remaining <= 0 {
                kill()
                drainCapture(into: &captured)
                return .timedOut
            }
            var fds = [pollfd(fd: channel, events: Int16(sent < request.count ? POLLOUT : POLLIN), revents: 0),
                       pollfd(fd: captureOpen ? capture : -1, events: Int16(POLLIN), revents: 0)]
            let ms = remaining.isFinite ? Int32(min(remaining * 1000, 60_000).rounded(.up)) : 60_000
            let ready = poll(&fds, 2, ms)
            if ready < 0 && errno != EINTR {
                _ = Glibc.kill(-pid, SIGKILL)
                return .died(status: reap())
            }
            if fds[1].revents != 0 {
                if !readCapture(into: &captured) { captureOpen = false }
            }
            guard fds[0].revents != 0 else { continue }
            if sent < request.count {
                let n = request.withUnsafeBytes { send(channel, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
                if n > 0 { sent += n; continue }
                if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                return died(captured: &captured)
            }
            let n = chunk.withUnsafeMutableBytes { read(channel, $0.baseAddress, $0.count) }
            if n > 0 {
                received += chunk[..<n]
            } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                return died(captured: &captured)
            } else {
                continue
            }
            // Every whole message received: output is handed on, the reply ends the scenario.
            while received.count - consumed >= 8 {
                guard let length = WorkerMessage.length(of: received[consumed...]), length >= 0 else {
                    kill()
                    return .garbled
                }
                guard received.count - consumed - 8 >= length else {
                    received.reserveCapacity(consumed + 8 + length)
                    break
                }
                let payload = (consumed + 8)..<(consumed + 8 + length)
                consumed = payload.upperBound
                let wasOutput = received.withUnsafeBytes { bytes in
                    guard let bytes = WorkerMessage.output(in: UnsafeRawBufferPointer(rebasing: bytes[payload])) else { return false }
                    output(bytes)
                    return true
                }
                if wasOutput { continue }
                drainCapture(into: &captured)
                guard let fields = WorkerMessage.decode(received[payload]) else {
                    kill()
                    return .garbled
                }
                return .replied(fields)
            }
            if consumed > 0, consumed >= received.count / 2 {
                received.removeFirst(consumed)
                consumed = 0
            }
        }
    }

    /// The worker closed its end: it is exiting. Waits (a bounded while, draining its output)
    /// for its own exit status, then kills what is left of its process group.
    private func died(captured: inout CappedText) -> Execution {
        var status: Int32 = 0
        var captureOpen = true
        let giveUp = Clock.monotonic() + 5
        while Clock.monotonic() < giveUp {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                markExited()
                _ = Glibc.kill(-pid, SIGKILL)  // its children, if any are left
                drainCapture(into: &captured)
                return .died(status: status)
            }
            if result < 0 && errno != EINTR { break }
            // Sleeps 10 ms, reading what it still writes (at the pipe's end, poll would not wait).
            var fd = pollfd(fd: captureOpen ? capture : -1, events: Int16(POLLIN), revents: 0)
            if poll(&fd, 1, 10) > 0 { captureOpen = readCapture(into: &captured) }
        }
        _ = Glibc.kill(-pid, SIGKILL)
        status = reap()
        drainCapture(into: &captured)
        return .died(status: status)
    }

    /// Kills the worker's process group (the worker and every child it started) and reaps it.
    func kill() {
        guard !exited else { return }
        // Killed before it is reaped: while it is a zombie its pid cannot name another group.
        _ = Glibc.kill(-pid, SIGKILL)
        _ = reap()
    }

    private func reap() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        markExited()
        return status
    }

    private func markExited() {
        exited = true
        WorkerRegistry.shared.remove(pid)
    }

    /// Reads what is in the capture pipe now; false at its end.
    @discardableResult
    private func readCapture(into captured: inout CappedText) -> Bool {
        while true {
            let n = chunk.withUnsafeMutableBytes { read(capture, $0.baseAddress, $0.count) }
            if n > 0 {
                chunk.withUnsafeBytes { captured.append(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
                continue
            }
            if n < 0 && errno == EINTR { continue }
            return n != 0
        }
    }

    /// What the worker wrote before its reply is in the pipe by now: read it all.
    private func drainCapture(into captured: inout CappedText) {
        readCapture(into: &captured)
    }
}

/// This binary, opened once (close-on-exec: a worker started through it no longer holds it).
private let ownBinary = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)

struct WorkerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
