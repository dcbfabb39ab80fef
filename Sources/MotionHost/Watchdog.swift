import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The last resort behind `--timeout`: the Lua hook stops scripts that run Lua code, and the
/// run loop checks between frames, but a script blocked inside C (`os.execute("sleep 100")`,
/// `io.read()` on a terminal) runs neither. If the run is still going `grace` seconds after its
/// deadline, the watchdog says so and ends the process with exit status 1.
public enum Watchdog {
    public static func start(timeout: Double, grace: Double = 2, what: String, output: JSONLinesOutput) {
        guard timeout > 0 else { return }
        let thread = Thread {
            Thread.sleep(forTimeInterval: timeout + grace)
            output.flush()
            fputs("error: \(what): timeout: still running \(grace) s after the time limit of \(timeout) s (blocked outside Lua, e.g. in os.execute or io.read); stopped\n", stderr)
            _exit(1)
        }
        thread.start()
    }
}
