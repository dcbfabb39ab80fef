#if canImport(Glibc)
// C's `stdout` is a global FILE pointer; this process touches it only from its one Lua thread.
@preconcurrency import Glibc
#endif
import Foundation

/// The worker side of `motionscript test`: a process of the same binary that runs scenarios one
/// at a time for the batch. A scenario that calls os.exit, crashes or blocks takes only its
/// worker down; the batch reports it and starts another.
///
/// Descriptors as the batch starts it: 0 is the socket to the batch, 1 and 2 the pipe that
/// captures what scenarios write. Stdout is never the batch's stdout.
public enum ScenarioWorker {
    /// The hidden subcommand that starts a worker.
    public static let subcommand = "scenario-worker"

    public static func serve() -> Never {
        // The socket moves off fd 0 and is closed in child processes (os.execute), so only this
        // process can answer the batch, and its end of file means this process is gone.
        let channel = fcntl(0, F_DUPFD_CLOEXEC, 3)
        guard channel >= 0 else { exit(70) }
        let null = open("/dev/null", O_RDONLY)
        if null >= 0 {
            dup2(null, 0)
            if null != 0 { close(null) }
        }
        // A write to a closed socket or pipe is an error to handle, not a signal that kills.
        signal(SIGPIPE, SIG_IGN)
        // Line-buffered, so io.write and print reach the capture in the order they were made.
        setvbuf(stdout, nil, _IOLBF, 0)
        // Lua's C recursion (deep pcall/gsub nesting) needs more room than a default stack.
        let thread = Thread { serve(on: channel) }
        thread.stackSize = 16 << 20
        thread.start()
        while true { pause() }
    }

    private static func serve(on channel: Int32) -> Never {
        while let fields = WorkerMessage.receive(from: channel) {
            guard let job = ScenarioJob(fields: fields) else { break }
            // Should the batch be gone, nothing kills a scenario blocked outside Lua: the alarm
            // does, a while after the batch would have.
            if job.timeout > 0 { alarm(UInt32(min(job.timeout + 10, 1e6).rounded(.up))) }
            let reply = ScenarioExecution.run(job, channel: channel)
            alarm(0)
            // What the scenario left in stdio buffers belongs to it; process-wide state it may
            // have changed is put back for the next one.
            fflush(nil)
            setvbuf(stdout, nil, _IOLBF, 0)
            setlocale(LC_ALL, "C")
            guard WorkerMessage.send(WorkerMessage.encode(reply.fields), to: channel) else { break }
        }
        _exit(0)
    }
}
