import Foundation
import Testing
import MotionActions
import MotionDaemon
import MotionPluginHost

/// A plugin's new version does not act until it is accepted: its setup's key presses reach the
/// shared device when it loads, and never when it fails to load (the old version keeps running).
@Suite struct PluginStagedSetupActionsTests {
    func host(_ config: TestConfig, sink: RecordingSink) -> PluginHost {
        var options = RunOptions(scriptPath: "")
        options.actions = ActionHost(performs: true, device: sink)
        return PluginHost(folder: try! ConfigFolder(config.path), options: options, router: OutputRouter(.memory),
                          defaults: PluginLimits(timeout: 0.2, memoryMiB: 16))
    }

    func keyEvents(_ sink: RecordingSink) -> Int { sink.events.filter { $0 != .synReport }.count }

    @Test func aReloadedPluginsSetupKeysArePerformedWhenItIsAccepted() throws {
        let config = TestConfig(["a.lua": "motion.emit('v', 1)"])
        let sink = RecordingSink()
        let host = host(config, sink: sink)
        defer { host.close() }
        host.loadAll()
        #expect(keyEvents(sink) == 0)
        config.write("a.lua", #"motion.keys("ctrl+a"); motion.keys("b")"#)
        host.filesChanged([config.file("a.lua")])
        #expect(host.plugin(named: "a")?.version == 2)
        #expect(sink.batches == [
            [.key(29, 1), .key(30, 1), .synReport], [.key(30, 0), .key(29, 0), .synReport],
            [.key(48, 1), .synReport], [.key(48, 0), .synReport],
        ])
        #expect(keyEvents(sink) == 6)
    }

    @Test func aPluginVersionThatFailsToLoadPerformsNoneOfItsSetupKeys() throws {
        let config = TestConfig(["a.lua": "motion.emit('v', 1)"])
        let sink = RecordingSink()
        let host = host(config, sink: sink)
        defer { host.close() }
        host.loadAll()
        config.write("a.lua", """
            motion.keys("ctrl+a")
            motion.keyDown("shift")
            error("broken")
            """)
        host.filesChanged([config.file("a.lua")])
        #expect(host.plugin(named: "a")?.version == 1)
        #expect(host.plugin(named: "a")?.state == .running)
        #expect(keyEvents(sink) == 0)
        #expect(!host.router.lines.contains { $0.contains("keys") })
    }
}
