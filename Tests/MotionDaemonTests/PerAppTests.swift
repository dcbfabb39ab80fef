import Foundation
import Testing
import MotionDaemon
import MotionGestures
import MotionPluginHost

/// `apps =` in the daemon: every plugin decides against the same focused application, and a
/// focus change is one output line for the whole daemon, not one per plugin.
@Suite struct DaemonPerAppTests {
    /// A plugin that emits "tap" with the app its tap began under, for taps in `apps`.
    static func tapPlugin(apps: String) -> String {
        """
        motion.gesture(motion.tap{apps = "\(apps)"}):subscribe(function(g)
          if g.state == "recognized" then motion.emit("tap", g.app.id) end
        end)
        """
    }

    static let config = ["browser.lua": tapPlugin(apps: "firefox"), "terminal.lua": tapPlugin(apps: "foot")]

    func focus(_ t: Double, _ id: String) -> Frame { Frame(t: t, focus: FocusChange(app: AppInfo(id: id))) }

    /// Tap lines of `plugin`, as "t id".
    func taps(of plugin: String, in host: PluginHost) -> [String] {
        host.lines(of: plugin).filter { $0.contains(#""name":"tap""#) }
    }

    @Test func appLinesInAReplayReachEveryPluginAndEachReactsOnlyForItsApp() {
        let config = TestConfig(Self.config)
        let (host, _) = config.host()
        host.loadAll()
        // firefox for the taps at 0 and 1, foot for 2, firefox again for 3.
        host.run([focus(0, "firefox")] + MotionDaemonTests.taps(2) + [focus(1.5, "foot")] + MotionDaemonTests.taps(1, from: 2)
                 + [focus(2.5, "firefox")] + MotionDaemonTests.taps(1, from: 3))
        #expect(taps(of: "browser", in: host) == [#"{"t":0.05,"plugin":"browser","name":"tap","value":"firefox"}"#,
                                                 #"{"t":1.05,"plugin":"browser","name":"tap","value":"firefox"}"#,
                                                 #"{"t":3.05,"plugin":"browser","name":"tap","value":"firefox"}"#])
        #expect(taps(of: "terminal", in: host) == [#"{"t":2.05,"plugin":"terminal","name":"tap","value":"foot"}"#])
        // One untagged app line per change, none from the plugins.
        #expect(host.lines.filter { $0.contains(#""app":"#) } == [#"{"t":0,"app":{"id":"firefox"}}"#,
                                                                  #"{"t":1.5,"app":{"id":"foot"}}"#,
                                                                  #"{"t":2.5,"app":{"id":"firefox"}}"#])
        #expect(!host.lines.contains { $0.contains(#""name":"app""#) })
    }

    @Test func appFixesTheApplicationForEveryPluginAndIgnoresAppLines() {
        let config = TestConfig(Self.config)
        var options = RunOptions(scriptPath: "")
        options.app = "foot"
        let router = OutputRouter(.memory)
        router.diagnostics = { _ in }
        let host = PluginHost(folder: try! ConfigFolder(config.path), options: options, router: router,
                              defaults: PluginLimits(timeout: 0.2, memoryMiB: 16))
        host.loadAll()
        host.run([focus(0, "firefox")] + MotionDaemonTests.taps(2))
        host.setFocusedApp(AppInfo(id: "firefox"))
        host.run(MotionDaemonTests.taps(1, from: 2))
        #expect(taps(of: "browser", in: host).isEmpty)
        #expect(taps(of: "terminal", in: host).count == 3)
        #expect(!host.lines.contains { $0.contains(#""app":"#) })
    }

    @Test func aLiveFocusChangeIsOneLineAndReachesPluginsLoadedLater() {
        let config = TestConfig(["browser.lua": Self.tapPlugin(apps: "firefox")])
        let (host, _) = config.host()
        host.loadAll()
        host.setFocusedApp(AppInfo(id: "firefox", title: "News"))
        // The same focus again is no change: no line.
        host.setFocusedApp(AppInfo(id: "firefox", title: "News"))
        host.run(MotionDaemonTests.taps(1), finish: false)
        // A plugin added after the change starts from it.
        config.write("terminal.lua", Self.tapPlugin(apps: "firefox"))
        host.filesChanged([config.file("terminal.lua")])
        host.run(MotionDaemonTests.taps(1, from: 1))
        host.setFocusedApp(nil)
        #expect(host.lines.filter { $0.contains(#""app":"#) } == [#"{"t":0,"app":{"id":"firefox","title":"News"}}"#,
                                                                  #"{"t":1.05,"app":null}"#])
        #expect(taps(of: "browser", in: host).count == 2)
        #expect(taps(of: "terminal", in: host) == [#"{"t":1.05,"plugin":"terminal","name":"tap","value":"firefox"}"#])
    }
}
