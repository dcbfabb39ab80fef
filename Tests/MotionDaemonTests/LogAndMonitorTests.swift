import Foundation
import MotionActions
import MotionGestures
import MotionPluginHost
import Synchronization
import Testing

/// What `ctl logs` and `ctl monitor` show of a plugin's life (docs/control.md): under the
/// service stdout goes nowhere, so the log alone must answer "why did my gesture do nothing?".
@Suite struct LogAndMonitorTests {
    @Test func theLogCarriesEachPluginsLifecycle() throws {
        let config = TestConfig(["a.lua": echoPlugin])
        let (host, _) = config.host()
        host.loadAll()
        config.write("a.lua", echoPlugin + "\n-- v2")
        host.filesChanged([config.file("a.lua")])
        host.disable("a")
        host.enable("a")
        config.remove("a.lua")
        host.filesChanged([config.file("a.lua")])
        #expect(host.log.recent(plugin: "a").map(\.line) == [
            "a: loaded (version 1)",
            "a: reloaded (version 2)",
            "a: disabled (version 2)",
            "a: disabled until a.lua changes",
            "a: reloaded (version 3)",
            "a: enabled (running, version 3)",
            "a: unloaded (version 3)",
        ])
    }

    /// A `motion.exec` that cannot start is the plugin's error, in its log, not the process's.
    @Test func anExecThatCannotStartIsThePluginsError() throws {
        let config = TestConfig(["rofi.lua": #"motion.pointers():subscribe(function(p) if p.phase == "down" then motion.exec{"no-such-program-motionscript", "-show"} end end)"#])
        let sink = config.url.appendingPathComponent("uinput.raw").path
        let (host, diagnostics) = config.host(actions: ActionHost(performs: true, device: UinputDevice(path: sink)))
        host.loadAll()
        host.run(taps(1), finish: false)
        let line = "rofi: error: exec [no-such-program-motionscript, -show]: cannot start: No such file or directory"
        #expect(diagnostics.lines.count == 2)
        #expect(diagnostics.lines.first?.hasPrefix("rofi: warning: ") == true)
        #expect(diagnostics.lines.last == line)
        #expect(host.log.recent(plugin: "rofi").map(\.line).last == line)
        #expect(host.lines(of: "rofi").contains(#"{"t":0,"plugin":"rofi","action":"exec","argv":["no-such-program-motionscript","-show"]}"#))
    }

    /// A started `motion.exec` command that fails is said with its plugin's name, through the
    /// host's `childEnded` (the daemon hands it to the plugin's log on the loop's thread), not as
    /// the process's `motionscript: exec …` on stderr that `ctl logs` never showed.
    @Test func anExecThatFailsIsSaidWithItsPluginsName() throws {
        let config = TestConfig(["rofi.lua": #"motion.pointers():subscribe(function(p) if p.phase == "down" then motion.exec{"sh", "-c", "exit 3"} end end)"#])
        let sink = config.url.appendingPathComponent("uinput.raw").path
        let (host, _) = config.host(actions: ActionHost(performs: true, device: UinputDevice(path: sink)))
        let ends = Mutex<[String]>([])
        host.childEnded = { plugin in { line in ends.withLock { $0.append(plugin + ": " + line) } } }
        host.loadAll()
        host.run(taps(1), finish: false)
        // The reaper reports on its own thread once the child ended.
        let deadline = Date().addingTimeInterval(20)
        while ends.withLock({ $0.isEmpty }) && Date() < deadline { usleep(2_000) }
        #expect(ends.withLock { $0 } == [#"rofi: exec [sh, -c, "exit 3"]: exited with status 3"#])
    }

    /// Pause and resume are lines of the output (`ctl monitor`), at the time they happened.
    @Test func pauseAndResumeAreOutputLines() throws {
        let config = TestConfig(["a.lua": echoPlugin])
        let (host, _) = config.host()
        host.loadAll()
        host.run(taps(1), finish: false)
        host.pause()
        host.pause()
        host.handle(Frame(t: 1, events: [PointerEvent(t: 1, id: 9, phase: .down, x: 1, y: 1)]))
        host.resume()
        host.resume()
        #expect(host.lines.filter { $0.contains(#""status":"p"#) || $0.contains(#""status":"r"#) && !$0.contains("plugin") }
                == [#"{"t":0.05,"status":"paused"}"#, #"{"t":1,"status":"resumed"}"#])
    }
}
