import Foundation
import Testing
import MotionPluginHost
import MotionRun
@testable import MotionActions
import MotionTestSupport

/// Launched commands leave nothing behind: a daemon runs `motion.exec` for months, and each
/// command's reaping (one wake-up of the reaper thread when it starts, one when it ends) must
/// keep no memory and no descriptor.
///
/// Like `ReloadLeakTests` the heap and descriptor counts are the whole process's: they are
/// checked only when the leak suites run in a process of their own, one test at a time
/// (`scripts/test` sets `MOTIONSCRIPT_LEAK_CHECK_ALONE=1` and `--no-parallel`); in a parallel
/// run it checks that every command was reaped. Then every round must be quiet: a leak shows in
/// each round of 1,000 commands, and with nothing else in the process no round may pass by luck.
///
/// What it cannot see: it runs on the debug build. The reaper's leak of 0.1.0's development
/// (about 600 bytes a command, a pollfd buffer kept per wake-up: see `ChildReaper.run`) showed in
/// optimized builds only, and this test passed on the debug build while it was there. The release
/// build's memory over a long session is what `scripts/bench-daemon` reports (RSS flat or not,
/// docs/performance.md); no test runs on the release build.
@Suite(.timeLimit(.minutes(5))) struct CommandLeakTests {
    /// 48 bytes a command: a leak of one allocation per command is over it.
    static let heapAllowance = 48 * 1000
    static let rounds = 3

    /// Launches `count` commands and waits until the reaper has reaped them all.
    /// `tagged`: each command is a plugin's, its end said through the plugin's `ChildQuota.ended`
    /// (the daemon's path), else the launcher's own report (`run`'s).
    private func launchAndReap(_ count: Int, tagged: Bool = false) throws {
        let launcher = ProcessLauncher(report: { _ in })
        let quota = tagged ? ChildQuota(limit: 100_000, ended: { _ in }) : nil
        let target = ChildReaper.shared.reaped + count
        for _ in 0..<count {
            if let quota {
                _ = try #require(try launcher.launch(LaunchCommand(["true"]), quota: quota, startFailure: { _ in }))
            } else {
                _ = try #require(launcher.launch(["true"]))
            }
        }
        for _ in 0..<3000 where ChildReaper.shared.reaped < target { usleep(2_000) }  // a hang guard
        #expect(ChildReaper.shared.reaped >= target)
    }

    @Test func aThousandCommandsLeakNoMemoryNoDescriptors() throws {
        try launchAndReap(100)  // warm-up: the reaper thread, its buffers, malloc's caches
        guard leakChecksRunAlone else {
            try launchAndReap(100)
            print("command leak check: heap and descriptor counts skipped (other tests share this process; scripts/test runs this alone)")
            return
        }
        var measured: [(heap: Int, fds: Int)] = []
        for round in 0..<Self.rounds {
            let heap = ProcessResources.heapInUse, fds = ProcessResources.openFileDescriptors
            // Every other round through a plugin's quota (a closure made per launch showed here).
            try launchAndReap(1000, tagged: round % 2 == 1)
            measured.append((ProcessResources.heapInUse - heap, ProcessResources.openFileDescriptors - fds))
        }
        print("command leak check: heap growth per 1000 commands \(measured.map(\.heap)) bytes, descriptors \(measured.map(\.fds))")
        #expect(measured.allSatisfy { $0.heap < Self.heapAllowance }, "heap grew \(measured.map(\.heap)) bytes over 1000 commands")
        #expect(measured.allSatisfy { $0.fds == 0 }, "descriptors grew by \(measured.map(\.fds))")
        #expect(ChildReaper.shared.waiting == 0)
    }
}
