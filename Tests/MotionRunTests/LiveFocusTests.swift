import Foundation
import Testing
import MotionTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// docs/desktop.md, "Per-application gestures": a live run follows a (fake) sway.
@Suite(.timeLimit(.minutes(5))) struct LiveFocusTests {
    /// A sway IPC message: "i3-ipc", payload length, type (little-endian), payload.
    private func swayMessage(type: UInt32, _ payload: String) -> [UInt8] {
        var bytes = Array("i3-ipc".utf8)
        withUnsafeBytes(of: UInt32(payload.utf8.count).littleEndian) { bytes += $0 }
        withUnsafeBytes(of: type.littleEndian) { bytes += $0 }
        return bytes + Array(payload.utf8)
    }

    /// Reads until `lines` newlines arrived (30 s at most).
    private func read(_ fd: Int32, lines: Int) -> String {
        var received = [UInt8]()
        let deadline = Date().addingTimeInterval(30)
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while received.filter({ $0 == 10 }).count < lines, Date() < deadline {
            guard poll(&pfd, 1, 100) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n <= 0 { break }
            received += chunk[0..<n]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// A listening socket where a fake sway waits (sun_path is short: under /tmp).
    private func fakeSway() -> (listener: Int32, path: String) {
        let socketPath = "/tmp/ms-live-focus-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(socketPath.utf8))
            raw[socketPath.utf8.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0 && listen(listener, 1) == 0)
        return (listener, socketPath)
    }

    /// docs/control.md, `status`: the daemon says at start which provider it chose and why, and
    /// `ctl status` names it with the focused application.
    @Test func theDaemonSaysItsProviderAndCtlStatusTheFocusedApp() throws {
        let folder = makeTemporaryFolder("daemon-focus")
        let fifo = folder.appendingPathComponent("device").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let plugins = folder.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        writeFile("motion.swipe{apps = \"!kitty\"}\n", "swipes.lua", in: plugins)
        let sway = fakeSway()
        defer { close(sway.listener); unlink(sway.path) }
        let control = "/tmp/ms-ctl-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        defer { unlink(control) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: motionscriptBinary)
        process.arguments = ["daemon", plugins.path, "--device", fifo, "--socket", control, "--dry-run"]
        process.environment = Self.environment(["SWAYSOCK": sway.path])
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // A device that sends nothing (read-write: opening it does not wait for the daemon).
        let device = open(fifo, O_RDWR | O_CLOEXEC)
        defer { close(device) }
        let client = accept(sway.listener, nil, nil)
        #expect(client >= 0)
        defer { close(client) }
        let tree = #"{"type":"root","nodes":[{"type":"con","focused":true,"app_id":"foot","name":"~","pid":5}]}"#
        let reply = swayMessage(type: 4, tree) + swayMessage(type: 2, #"{"success":true}"#)
        _ = reply.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        // The app line means the daemon knows the focus.
        #expect(read(out.fileHandleForReading.fileDescriptor, lines: 2).contains(#"{"t":0,"app":{"id":"foot","title":"~","pid":5}}"#))
        let json = try runMotionscript(["ctl", "--socket", control, "status", "--json"])
        let text = try runMotionscript(["ctl", "--socket", control, "status"])
        _ = try runMotionscript(["ctl", "--socket", control, "stop"])
        // Read to its end before waiting: a daemon that writes more than a pipe holds (the
        // sanitizer's report at exit) would otherwise wait for us as we wait for it.
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(stderr.contains("motionscript: focus from sway (SWAYSOCK is set)\n"), "\(stderr)")
        #expect(json.stdout.contains(#""focus":{"app":{"id":"foot","pid":5,"title":"~"},"connected":true,"known":true,"provider":"sway","reason":"SWAYSOCK is set"}"#),
                "\(json.stdout)")
        #expect(text.stdout.split(separator: "\n").dropFirst().first == #"focus: sway (SWAYSOCK is set), connected: foot "~" pid 5"#, "\(text.stdout)")
    }

    @Test func theFocusAtConnectionAndItsChangesAreLinesBeforeAnyInput() throws {
        let folder = makeTemporaryFolder("live-focus")
        let fifo = folder.appendingPathComponent("device").path
        #expect(mkfifo(fifo, 0o600) == 0)
        writeFile("motion.app.changes():subscribe(function(a) motion.emit(\"focus\", a and a.title) end)\n", "focus.lua", in: folder)
        // The fake sway: a listening socket (sun_path is short: under /tmp).
        let socketPath = "/tmp/ms-live-focus-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener); unlink(socketPath) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(socketPath.utf8))
            raw[socketPath.utf8.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0 && listen(listener, 1) == 0)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: motionscriptBinary)
        process.arguments = ["run", "focus.lua", "--device", fifo, "--app-provider", "sway"]
        process.currentDirectoryURL = folder
        process.environment = Self.environment(["SWAYSOCK": socketPath])
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let device = open(fifo, O_WRONLY | O_CLOEXEC)  // a device that sends nothing
        let client = accept(listener, nil, nil)
        #expect(client >= 0)
        defer { close(client) }
        let tree = #"{"type":"root","nodes":[{"type":"con","focused":true,"app_id":"foot","name":"~","pid":5}]}"#
        let reply = swayMessage(type: 4, tree) + swayMessage(type: 2, #"{"success":true}"#)
        _ = reply.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        // The focus at connection leaves at once, with no input to carry it out.
        let first = read(out.fileHandleForReading.fileDescriptor, lines: 2)
        let event = swayMessage(type: 0x8000_0003, #"{"change":"focus","container":{"app_id":"firefox","name":"Home","focused":true}}"#)
        _ = event.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let second = read(out.fileHandleForReading.fileDescriptor, lines: 2)
        close(device)
        process.waitUntilExit()
        #expect(first == """
            {"t":0,"app":{"id":"foot","title":"~","pid":5}}
            {"t":0,"name":"focus","value":"~"}

            """)
        #expect(second == """
            {"t":0,"app":{"id":"firefox","title":"Home"}}
            {"t":0,"name":"focus","value":"Home"}

            """)
    }

    /// The daemon's environment: the sway socket, PATH, and the sanitizers' options of the test's
    /// own (under `scripts/test --sanitize address` a child without them checked for leaks at
    /// exit, and its report filled the pipe nobody read yet: the suite hung).
    static func environment(_ variables: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { $0.key.hasPrefix("ASAN_") || $0.key.hasPrefix("LSAN_") }
        environment["PATH"] = "/usr/bin:/bin"
        environment.merge(variables) { $1 }
        return environment
    }
}
