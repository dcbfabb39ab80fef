import Foundation
import MotionGestures
@testable import MotionPluginHost
import Testing

/// Live input whose device has no clock now (it went away, a pipe ended and is waited for):
/// a lifecycle line carries the time it happened, on from the device's last reading by the
/// host's clock, not the last frame's time.
@Suite struct LifecycleClockTests {
    @Test func aReloadWhileTheDeviceIsGoneCarriesTheClock() throws {
        let config = TestConfig(["a.lua": echoPlugin])
        let (host, _) = config.host()
        var device: Double? = 0
        var local = 100.0
        host.clock = { local }
        host.inputTimeNow = { device }
        host.loadAll()
        host.handle(Frame(t: 4, events: [PointerEvent(t: 4, id: 1, phase: .down, x: 1, y: 1)]))
        local = 105
        device = 5
        config.write("a.lua", echoPlugin + "\n-- v2")
        host.filesChanged([config.file("a.lua")])
        // The device goes away; 2.5 s later the plugin is edited again.
        device = nil
        local = 107.5
        config.write("a.lua", echoPlugin + "\n-- v3")
        host.filesChanged([config.file("a.lua")])
        #expect(host.lines(of: "a").filter { $0.contains("status") } == [
            #"{"t":0,"plugin":"a","status":"loaded","version":1}"#,
            #"{"t":5,"plugin":"a","status":"reloaded","version":2}"#,
            #"{"t":7.5,"plugin":"a","status":"reloaded","version":3}"#,
        ])
    }
}
