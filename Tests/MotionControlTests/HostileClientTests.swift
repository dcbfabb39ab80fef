import XCTest
import Foundation
import MotionControl
import MotionGestures
import MotionInput
import MotionScenarios
#if canImport(Glibc)
import Glibc
#endif

/// Clients that idle by the hundred or write without pause: the daemon keeps its descriptors
/// and its input (docs/control.md).
final class HostileClientTests: XCTestCase {
    var folder = ""

    override func setUp() {
        var template = Array("/tmp/motionscript-hostile-XXXXXX".utf8CString)
        folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    override func tearDown() { _ = try? FileManager.default.removeItem(atPath: folder) }

    func drain(_ client: RawClient) -> [String] {
        var lines: [String] = []
        while let line = client.readLineNow() { lines.append(line) }
        return lines
    }

    /// Past 64 clients a newcomer is told why and closed: idle clients cannot take the daemon's
    /// descriptors.
    func testClientsPastTheCapAreRefusedWithTheReason() throws {
        let server = try ControlServer(path: folder + "/control.sock", target: FakeTarget())
        defer { server.close() }
        var clients: [RawClient] = []
        defer { clients.forEach { $0.close() } }
        for _ in 0..<70 {
            clients.append(try RawClient(path: server.path))
            server.serve(timeout: 0)
        }
        for _ in 0..<5 { server.serve(timeout: 0) }
        XCTAssertEqual(server.descriptors.count, 1 + 64, "the listener and 64 clients")
        let refused = clients.suffix(6).map { $0.readLineNow() }
        for line in refused {
            XCTAssertEqual(line, #"{"id":null,"ok":false,"error":"refused: 64 control clients are connected already (the most the daemon serves at once)"}"#)
        }
        XCTAssertNil(clients[0].readLineNow(), "a client within the cap is served, not refused")
    }

    /// A client that writes without pause: every wake-up handles at most 64 of its requests, so
    /// the devices' frames are read in between (docs/control.md: a client never holds up input).
    func testAFloodingClientNeverHoldsUpFrames() throws {
        let target = FakeTarget()
        let server = try ControlServer(path: folder + "/control.sock", target: target)
        defer { server.close() }
        let device = folder + "/device"
        XCTAssertEqual(mkfifo(device, 0o600), 0)
        let feed = open(device, O_RDWR | O_CLOEXEC)  // a writer from the start: the FIFO never ends
        defer { close(feed) }
        let set = try LiveDeviceSet(selectors: [.path(device)])
        defer { set.close() }
        var tokens: [Int32: EventLoop.Registration] = [:]
        func sync() {
            let wanted = Set(server.descriptors)
            for (fd, token) in tokens where !wanted.contains(fd) { set.loop.unregister(token); tokens[fd] = nil }
            for fd in wanted where tokens[fd] == nil { tokens[fd] = set.loop.register(fd: fd) { server.service(fd) } }
        }
        server.onDescriptorsChanged = sync
        sync()
        let client = try RawClient(path: server.path)
        defer { client.close() }
        let request = Array((#"{"id":1,"command":"pause"}"# + "\n").utf8)
        var handledPerFrame: [Int] = []
        var queuedInAll = 0
        for frame in 0..<5 {
            // The client fills the socket (thousands of requests queued), then a frame arrives.
            var queued = 0
            while true {
                let n = request.withUnsafeBytes { send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                guard n == request.count else { break }
                queued += 1
            }
            queuedInAll += queued
            let before = target.calls.count
            let usec = Int64(frame) * 10_000
            // A finger goes down, then moves: one pointer event a frame.
            let events: [(UInt16, UInt16, Int32)] = (frame == 0 ? [(3, 0x2f, 0), (3, 0x39, 7), (3, 0x36, 40)] : []) + [(3, 0x35, Int32(100 + frame))]
            let bytes = (events + [(0, 0, 0)]).flatMap { InputEventRecord(sec: 10, usec: usec, type: $0.0, code: $0.1, value: $0.2).rawBytes }
            _ = bytes.withUnsafeBytes { write(feed, $0.baseAddress, $0.count) }
            var got: Frame?
            for _ in 0..<100 where got == nil {
                if case .frame(let f) = try set.nextFrame(timeout: 5) { got = f }
            }
            XCTAssertNotNil(got)
            handledPerFrame.append(target.calls.count - before)
            _ = drain(client)
        }
        XCTAssertGreaterThan(queuedInAll, 200, "the client had hundreds of requests waiting")
        // The frame is read at the first wake-up: at most one batch of requests before it.
        XCTAssertEqual(handledPerFrame.filter { $0 > 64 }, [], "requests handled before each frame: \(handledPerFrame)")
    }
}

/// The socket's folder and lock are the daemon's alone: another local user cannot make the
/// daemon truncate a file through them, or swap the socket for one of their own.
final class SocketFolderTests: XCTestCase {
    var folder = ""

    override func setUp() {
        var template = Array("/tmp/motionscript-folder-XXXXXX".utf8CString)
        folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    override func tearDown() { _ = try? FileManager.default.removeItem(atPath: folder) }

    func testALockThatIsASymbolicLinkIsNotFollowedNorTruncated() throws {
        let victim = folder + "/victim"
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        XCTAssertEqual(symlink(victim, folder + "/control.sock.lock"), 0)
        XCTAssertThrowsError(try ControlServer(path: folder + "/control.sock", target: FakeTarget())) { error in
            XCTAssertEqual("\(error)", "cannot open \(folder)/control.sock.lock: it is a symbolic link (refused: the lock is the daemon's own file)")
        }
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious\n")
    }

    func testAFolderThatIsASymbolicLinkIsRefused() throws {
        let real = folder + "/real"
        XCTAssertEqual(mkdir(real, 0o700), 0)
        XCTAssertEqual(symlink(real, folder + "/link"), 0)
        XCTAssertThrowsError(try ControlServer(path: folder + "/link/control.sock", target: FakeTarget())) { error in
            XCTAssertEqual("\(error)", "refusing the control socket's folder \(folder)/link: it is a symbolic link")
        }
        XCTAssertEqual(access(real + "/control.sock", F_OK), -1)
    }

    func testAFolderOthersCanWriteIsRefused() throws {
        let open = folder + "/open"
        XCTAssertEqual(mkdir(open, 0o700), 0)
        XCTAssertEqual(chmod(open, 0o777), 0)
        XCTAssertThrowsError(try ControlServer(path: open + "/control.sock", target: FakeTarget())) { error in
            XCTAssertEqual("\(error)", "refusing the control socket's folder \(open): others can write to it (mode 0777); it must be 0700 or at least not writable by group or others")
        }
    }

    /// /tmp (sticky, root's) may hold a socket given with --socket: no one can replace another's
    /// file there. A socket already there of another user is refused (someone made it first).
    func testASharedStickyFolderIsAllowedButNotAnotherUsersSocketInIt() throws {
        XCTAssertNil(ControlSocketPath.problem(socketPath: "/tmp/ms-sticky-\(getpid()).sock", environment: [:]))
        guard geteuid() == 0 else { throw XCTSkip("needs root to give a file away") }
        let theirs = "/tmp/ms-sticky-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        XCTAssertEqual(mkfifo(theirs, 0o600), 0)
        defer { unlink(theirs) }
        XCTAssertEqual(chown(theirs, 4242, 4242), 0)
        XCTAssertEqual(ControlSocketPath.problem(socketPath: theirs, environment: [:]),
                       "refusing the control socket \(theirs): it belongs to uid 4242, not to this user (uid 0)")
    }

    func testAFolderOfAnotherUserIsRefused() throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root to give a folder away") }
        let theirs = folder + "/theirs"
        XCTAssertEqual(mkdir(theirs, 0o700), 0)
        XCTAssertEqual(chown(theirs, 4242, 4242), 0)
        XCTAssertThrowsError(try ControlServer(path: theirs + "/control.sock", target: FakeTarget())) { error in
            XCTAssertEqual("\(error)", "refusing the control socket's folder \(theirs): it belongs to uid 4242, not to this user (uid 0)")
        }
    }

    /// The standard folder is made 0700 by the daemon: one that is not is refused (someone
    /// else made it, or loosened it); a world-writable XDG_RUNTIME_DIR is refused outright.
    func testTheStandardFolderMustBe0700AndTheRuntimeFolderNotWorldWritable() throws {
        let environment = ["XDG_RUNTIME_DIR": folder]
        let path = ControlSocketPath.standard(environment: environment)
        XCTAssertEqual(path, folder + "/motionscript/control.sock")
        XCTAssertNil(ControlSocketPath.problem(socketPath: path, environment: environment), "missing: made 0700 by the daemon")
        XCTAssertEqual(mkdir(folder + "/motionscript", 0o700), 0)
        XCTAssertNil(ControlSocketPath.problem(socketPath: path, environment: environment))
        XCTAssertEqual(chmod(folder + "/motionscript", 0o750), 0)
        XCTAssertEqual(ControlSocketPath.problem(socketPath: path, environment: environment),
                       "refusing the control socket's folder \(folder)/motionscript: its mode is 0750, not 0700 (remove it: the daemon makes it 0700)")
        // A folder given with --socket may be 0750 (no one else can write to it).
        XCTAssertNil(ControlSocketPath.problem(socketPath: folder + "/motionscript/other.sock", environment: environment))
        XCTAssertEqual(chmod(folder, 0o1777), 0)
        XCTAssertEqual(ControlSocketPath.problem(socketPath: path, environment: environment),
                       "refusing XDG_RUNTIME_DIR \(folder): anyone can write to it (mode 1777); it must be the user's own (0700)")
    }
}

/// `accept` failing with EMFILE. Run alone (`scripts/test`: *AloneTests): it lowers the process's
/// descriptor limit for a moment, and tests running beside it failed to open anything then (a
/// FIFO writer's open in LiveTests crashed the suite in CI).
final class AcceptEMFILEAloneTests: XCTestCase {
    var folder = ""

    override func setUp() {
        var template = Array("/tmp/motionscript-emfile-XXXXXX".utf8CString)
        folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    override func tearDown() { _ = try? FileManager.default.removeItem(atPath: folder) }

    /// With the descriptors exhausted, `accept` fails (EMFILE) while the listener stays readable:
    /// the server stops waiting on it for a while instead of waking the loop at once forever.
    func testAcceptFailingWithEMFILEBacksOffInsteadOfSpinning() throws {
        let server = try ControlServer(path: folder + "/control.sock", target: FakeTarget())
        defer { server.close() }
        var logged: [String] = []
        server.diagnostics = { logged.append($0) }
        let client = try RawClient(path: server.path)
        defer { client.close() }
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let saved = limit
        // No descriptor number is free from here on.
        let lowestFree = dup(0)
        close(lowestFree)
        limit.rlim_cur = rlim_t(lowestFree)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        server.serve(timeout: 0)
        var copy = saved
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &copy)
        var fds = server.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        XCTAssertEqual(poll(&fds, nfds_t(fds.count), 0), 0, "nothing the loop waits on is ready: it sleeps")
        XCTAssertEqual(logged, ["warning: control socket: cannot accept a client: Too many open files (EMFILE); waiting 0.1 s before accepting again"])
        // Once the back-off ends, the client is served.
        client.write(#"{"id":1,"command":"hello"}"# + "\n")
        var answered: String?
        for _ in 0..<300 where answered == nil {
            server.serve(timeout: 0.01)
            answered = client.readLineNow()
        }
        XCTAssertTrue(answered?.hasPrefix(#"{"id":1,"ok":true"#) == true, "\(answered ?? "no answer")")
        XCTAssertEqual(logged.count, 1, "said once")
    }
}
