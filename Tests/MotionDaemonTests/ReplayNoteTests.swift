import Foundation
import Testing
import MotionDaemon
import MotionPluginHost

/// `daemon --events` replays through the same loop as `run --events` (`Runner.replay`), so a
/// recording whose times look like milliseconds gets the same note (before, only `run` said it).
@Suite struct ReplayNoteTests {
    @Test func aReplayInMillisecondsIsNotedOnceForTheWholeDaemon() throws {
        let config = TestConfig(["a.lua": echoPlugin, "b.lua": echoPlugin])
        config.write("events.jsonl", [0, 8, 16, 24].map { #"{"t":\#($0),"id":1,"phase":"\#($0 == 0 ? "down" : $0 == 24 ? "up" : "move")","x":1,"y":1}"# }
            .joined(separator: "\n") + "\n")
        let (host, diagnostics) = config.host()
        try HostLoop.replay(Replay.openEvents(path: config.url.appendingPathComponent("events.jsonl").path), host: host)
        #expect(host.lines(of: "a").count == 5)
        #expect(diagnostics.lines.filter { $0.contains(#"is "t" in milliseconds?"#) }.count == 1)
        #expect(diagnostics.lines.first { $0.contains("milliseconds") }?.hasPrefix("motionscript: note: ") == true)
    }
}
