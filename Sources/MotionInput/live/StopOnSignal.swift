#if canImport(Glibc)
import Glibc
#endif

/// The wake-up descriptor a signal handler writes to. A plain global because a C signal handler cannot
/// capture context; it is written before the handler is installed and only read inside it.
private nonisolated(unsafe) var signalStopDescriptor: Int32 = -1

extension LiveEventReader {
    /// Makes `signals` (default SIGINT and SIGTERM) end reading: the handler only writes one byte to
    /// `stopFileDescriptor` (async-signal-safe), so the poll returns and the device is released through
    /// the normal path (`.end("stopped")`, grab released on `close()`). One reader at a time: a later
    /// call redirects the signals to the later reader.
    public func stopOnSignals(_ signals: [Int32] = [SIGINT, SIGTERM]) {
        signalStopDescriptor = stopFileDescriptor
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in
                var byte: UInt8 = 1
                let fd = signalStopDescriptor
                if fd >= 0 { _ = write(fd, &byte, 1) }
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
    }
}
