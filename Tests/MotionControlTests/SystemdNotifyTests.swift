import XCTest
import MotionControl
import MotionDaemon
#if canImport(Glibc)
import Glibc
#endif

final class SystemdNotifyTests: XCTestCase {
    /// A datagram listener as systemd would have (a path, or "@name" in the abstract namespace).
    func listen(_ name: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        let length = socklen_t(2 + bytes.count + (abstract ? 0 : 1))
        let ok = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        XCTAssertEqual(ok, 0)
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    func receive(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : "<nothing>"
    }

    func testReadyStatusReloadingAndStoppingReachAPathSocket() {
        let path = "/tmp/motionscript-notify-\(getpid()).sock"
        unlink(path)
        let fd = listen(path)
        defer { close(fd); unlink(path) }
        let notify = SystemdNotify(socketPath: path)
        notify.ready(status: "5 plugins, 1 failed, 2 devices")
        XCTAssertEqual(receive(fd), "READY=1\nSTATUS=5 plugins, 1 failed, 2 devices")
        notify.reloading()
        let reloading = receive(fd)
        XCTAssertTrue(reloading.hasPrefix("RELOADING=1\nMONOTONIC_USEC="), reloading)
        XCTAssertNotNil(Int64(reloading.dropFirst("RELOADING=1\nMONOTONIC_USEC=".count)))
        notify.stopping()
        XCTAssertEqual(receive(fd), "STOPPING=1")
    }

    func testTheAbstractNamespace() {
        let name = "@motionscript-notify-\(getpid())"
        let fd = listen(name)
        defer { close(fd) }
        SystemdNotify(socketPath: name).status("2 plugins, 0 devices")
        XCTAssertEqual(receive(fd), "STATUS=2 plugins, 0 devices")
    }

    func testWithoutASocketNothingIsSent() {
        XCTAssertFalse(SystemdNotify(socketPath: nil).send(["READY=1"]))
        XCTAssertFalse(SystemdNotify(socketPath: "").isActive)
    }

    func testJournalPrefixesOnlyUnderJournald() {
        XCTAssertEqual(JournalStream.format("swipe: error: x.lua:3: boom", priority: LogPriority.of("swipe: error: x.lua:3: boom"), journal: true),
                       "<3>swipe: error: x.lua:3: boom")
        XCTAssertEqual(JournalStream.format("warning: slow", priority: LogPriority.of("warning: slow"), journal: true), "<4>warning: slow")
        XCTAssertEqual(JournalStream.format("swipe: loaded", priority: LogPriority.of("swipe: loaded"), journal: true), "<6>swipe: loaded")
        XCTAssertEqual(JournalStream.format("swipe: loaded", priority: .info, journal: false), "swipe: loaded")
        XCTAssertFalse(JournalStream.isStandardError(environment: nil))
        XCTAssertFalse(JournalStream.isStandardError(environment: "garbage"))
        var info = stat()
        fstat(STDERR_FILENO, &info)
        XCTAssertTrue(JournalStream.isStandardError(environment: "\(info.st_dev):\(info.st_ino)"))
        XCTAssertFalse(JournalStream.isStandardError(environment: "\(info.st_dev):\(info.st_ino &+ 1)"))
    }

    func testStatusSummaryCounts() {
        let status = ControlStatus(plugins: [.init(name: "a", state: "running", version: 1), .init(name: "b", state: "failed", version: 2),
                                             .init(name: "c", state: "running", version: 1), .init(name: "d", state: "running", version: 1),
                                             .init(name: "e", state: "running", version: 1)],
                                   devices: [.init(node: "/dev/input/event1", name: "x", kind: "touchpad", grabbed: false),
                                             .init(node: "/dev/input/event2", name: "y", kind: "touchscreen", grabbed: false)],
                                   uptimeSeconds: 1, paused: false, pid: 1, directory: "/c")
        XCTAssertEqual(status.summary, "5 plugins, 1 failed, 2 devices")
    }
}
