import Foundation
import MotionControl
import MotionDaemon
import MotionGestures
import MotionPluginHost
import MotionInput
import MotionProxy
import MotionScenarios
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `ctl pause`/`resume` and `ctl status` with the live proxy: a real daemon service, a proxy
/// standing in for the live wiring with one real arbiter (single-threaded: no stall here).
final class ProxyControlTests: XCTestCase {
    final class Clone: CloneSink {
        var frames: [[(UInt16, UInt16, Int32)]] = []
        func write(_ frame: UnsafeBufferPointer<InputEventRecord>, due: Double) { frames.append(frame.map { ($0.type, $0.code, $0.value) }) }
    }

    final class Proxy: ProxyControl {
        let arbiter: TouchArbiter
        var now = 0.0
        init(_ arbiter: TouchArbiter) { self.arbiter = arbiter }
        func proxyStatus() -> [ProxyDeviceStatus] {
            [ProxyDeviceStatus(node: "/dev/input/event5", name: "Test Clickpad", clone: "/dev/input/event9", grabbed: true, arbiter: arbiter)]
        }
        func passAll() { arbiter.passAll(.paused, at: now) }
        func takeBack() { arbiter.takeBack(.paused, at: now) }
    }

    var folder = ""
    var clone = Clone()
    var proxy: Proxy!

    override func setUp() {
        clone = Clone()
        var template = Array("/tmp/motionscript-proxyctl-XXXXXX".utf8CString)
        folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        mkdir(folder + "/config", 0o700)
        var d = DeviceDescription()
        d.name = "Test Clickpad"
        d.absinfo[ABS.MT_SLOT] = AbsInfo(minimum: 0, maximum: 4)
        proxy = Proxy(TouchArbiter(identity: CloneIdentity(d), sink: clone))
    }

    override func tearDown() { _ = try? FileManager.default.removeItem(atPath: folder) }

    /// One frame to the arbiter as the host gives it: events, then the consumers' claim.
    func frame(_ t: Double, _ events: [(UInt16, UInt16, Int32)], _ claim: ConsumeClaim) {
        let records = (events + [(EV.SYN, SYN.REPORT, 0)]).map { InputEventRecord(sec: 0, usec: 0, type: $0.0, code: $0.1, value: $0.2) }
        for r in records where proxy.arbiter.take(r) { proxy.arbiter.decide(claim, at: t) }
    }

    let down: [(UInt16, UInt16, Int32)] = [(EV.ABS, ABS.MT_SLOT, 0), (EV.ABS, ABS.MT_TRACKING_ID, 1), (EV.ABS, ABS.MT_POSITION_X, 100),
                                          (EV.ABS, ABS.MT_SLOT, 1), (EV.ABS, ABS.MT_TRACKING_ID, 2), (EV.ABS, ABS.MT_POSITION_X, 200),
                                          (EV.ABS, ABS.MT_SLOT, 2), (EV.ABS, ABS.MT_TRACKING_ID, 3), (EV.ABS, ABS.MT_POSITION_X, 300),
                                          (EV.KEY, BTN.TOUCH, 1)]
    let move: [(UInt16, UInt16, Int32)] = [(EV.ABS, ABS.MT_SLOT, 0), (EV.ABS, ABS.MT_POSITION_X, 110)]
    let up: [(UInt16, UInt16, Int32)] = [(EV.ABS, ABS.MT_SLOT, 0), (EV.ABS, ABS.MT_TRACKING_ID, -1), (EV.ABS, ABS.MT_SLOT, 1),
                                        (EV.ABS, ABS.MT_TRACKING_ID, -1), (EV.ABS, ABS.MT_SLOT, 2), (EV.ABS, ABS.MT_TRACKING_ID, -1),
                                        (EV.KEY, BTN.TOUCH, 0)]

    func testPauseHandsTheTouchInProgressToTheDesktopAndResumeTakesItBackAtTheNextIdleMoment() throws {
        let host = PluginHost(folder: try ConfigFolder(folder + "/config"), options: RunOptions(scriptPath: ""), router: OutputRouter(.memory))
        host.loadAll()
        let service = try DaemonService(host: host, socketPath: folder + "/control.sock", grabs: false, notify: SystemdNotify(socketPath: nil))
        defer { service.close() }
        XCTAssertNil(service.controlStatus().proxy)
        service.proxy = proxy

        // Three fingers a consumer may still take: held.
        frame(0.00, down, .matching)
        frame(0.01, move, .matching)
        XCTAssertTrue(clone.frames.isEmpty)
        proxy.now = 0.05
        service.controlPause()
        // Released in order; the consumer beginning now takes nothing.
        XCTAssertEqual(clone.frames.count, 2)
        frame(0.06, move, .began)
        XCTAssertEqual(clone.frames.count, 3)
        var status = try XCTUnwrap(service.controlStatus().proxy?.first)
        XCTAssertEqual(status.passing, "paused")
        XCTAssertEqual(status.last, ProxyDeviceStatus.json(.released(t: 0.05, frames: 2, lag: 0.05)))
        XCTAssertEqual(status.json.jsonText, #"{"clone":"/dev/input/event9","grabbed":true,"last":{"decision":"released","frames":2,"lag":0.05,"t":0.05},"name":"Test Clickpad","node":"/dev/input/event5","passing":"paused","stalls":0,"touches":{"consumed":0,"held":0,"passed":0}}"#)

        // Resumed with the fingers down: the touch stays the desktop's to its lift.
        proxy.now = 0.07
        service.controlResume()
        XCTAssertEqual(try XCTUnwrap(service.controlStatus().proxy?.first).passing, "until the touch ends")
        frame(0.08, move, .began)
        frame(0.09, up, .began)
        XCTAssertEqual(clone.frames.count, 5)
        status = try XCTUnwrap(service.controlStatus().proxy?.first)
        XCTAssertNil(status.passing)
        XCTAssertEqual(status.last, ProxyDeviceStatus.json(.proxying(t: 0.09)))
        XCTAssertTrue(status.touches == (passed: 0, held: 1, consumed: 0), "\(status.touches)")
        // The next touch is the consumers' again.
        frame(1.00, down, .matching)
        frame(1.01, up, .began)
        XCTAssertEqual(clone.frames.count, 5)
        status = try XCTUnwrap(service.controlStatus().proxy?.first)
        XCTAssertTrue(status.touches == (passed: 0, held: 1, consumed: 1), "\(status.touches)")
        let json = service.controlStatus().json
        XCTAssertEqual(json["proxy"]?.arrayValue?.count, 1)
        XCTAssertEqual(ProxyDeviceStatus.textLines(try XCTUnwrap(json["proxy"]?.arrayValue?.first)), [
            "  /dev/input/event5 -> clone /dev/input/event9  Test Clickpad  (grabbed)",
            "    touches: 0 passed, 1 held, 1 consumed; stalls: 0; last: touch consumed 2 held 2 passed 0 at 1.01 s",
        ])
    }

    func testAPausedDeviceSaysWhyInText() {
        proxy.arbiter.passAll(.paused, at: 0)
        let status = ProxyDeviceStatus(node: "/dev/input/event5", name: "Test Clickpad", clone: nil, grabbed: false, arbiter: proxy.arbiter)
        XCTAssertEqual(ProxyDeviceStatus.textLines(status.json), [
            "  /dev/input/event5 -> clone (node unknown)  Test Clickpad  PASSING ALL: paused",
            "    touches: 0 passed, 0 held, 0 consumed; stalls: 0; last: passing why paused at 0 s",
        ])
    }
}
