import Foundation
import Testing
import MotionActions
import MotionGestures
@testable import MotionLua

/// `motion.exec` children are capped: 16 running at once per plugin (a Lua state), 64 in the
/// whole process (docs/daemon.md). Each holds a descriptor (its pidfd) until it ends: one plugin
/// starting long-running commands without end must not take the daemon's descriptors. A refusal
/// is that plugin's error, with the reason.
@Suite(.timeLimit(.minutes(2))) struct ExecLimitTests {
    @Test func thePluginThatStartsASeventeenthCommandGetsTheError() throws {
        let host = ActionHost(performs: true, device: RecordingSink(), launcher: ProcessLauncher(report: { _ in }))
        let greedy = try LuaRuntime(scriptPath: writeScript("""
            for i = 1, 17 do motion.exec{"sleep", "10"} end
            """), output: TestOutput())
        defer { greedy.close() }
        greedy.actions = ActionSession(host: host)
        #expect {
            try greedy.load()
        } throws: { error in
            "\(error)".contains("motion.exec: 16 commands this plugin started are still running (the most at once); sleep not started")
        }
        // Another plugin still starts its command.
        let other = try LuaRuntime(scriptPath: writeScript(#"motion.exec{"sleep", "10"}"#), output: TestOutput())
        defer { other.close() }
        other.actions = ActionSession(host: host)
        try other.load()
    }
}
