import Foundation
import Testing
import MotionHost
@testable import MotionActions

/// Launched commands leave nothing behind: a daemon runs `motion.exec` for months, and each
/// command's reaping (one wake-up of the reaper thread when it starts, one when it ends) must
/// keep no memory and no descriptor.
///
/// Like `ReloadLeakTests` the heap and descriptor counts are the whole process's: they are
/// checked only when this suite runs in a process of its own (`scripts/test` sets
/// `MOTIONSCRIPT_LEAK_CHECK_ALONE=1`); in a parallel run it checks that every command was reaped.
@Suite struct CommandLeakTests {
    /// 48 bytes a command. The leak this guards against was about 600 bytes a command (a
    /// pollfd buffer kept per wake-up, in optimized builds only: see `ChildReaper.run`).
    static let heapAllowance = 48 * 1000

    /// Launches `count` commands and waits until the reaper has reaped them all.
    private func launchAndReap(_ count: Int) throws {
        let launcher = ProcessLauncher(report: { _ in })
        let target = ChildReaper.shared.reaped + count
        for _ in 0..<count { _ = try #require(launcher.launch(["true"])) }
        for _ in 0..<3000 where ChildReaper.shared.reaped < target { usleep(2_000) }  // a hang guard
        #expect(ChildReaper.shared.reaped >= target)
    }

    @Test func aThousandCommandsLeakNoMemoryNoDescriptors() throws {
        try launchAndReap(100)  // warm-up: the reaper thread, its buffers, malloc's caches
        guard ReloadLeakTests.runsAlone else {
            try launchAndReap(100)
            print("command leak check: heap and descriptor counts skipped (other tests share this process; scripts/test runs this alone)")
            return
        }
        // The other leak suite runs in this process meanwhile (allocating and freeing as it
        // reloads): a leak shows in every round of 1,000 commands, so up to five rounds are
        // allowed for a quiet one.
        var measured: [(heap: Int, fds: Int)] = []
        for _ in 0..<5 {
            let heap = ProcessResources.heapInUse, fds = ProcessResources.openFileDescriptors
            try launchAndReap(1000)
            measured.append((ProcessResources.heapInUse - heap, ProcessResources.openFileDescriptors - fds))
            if abs(measured.last!.heap) < Self.heapAllowance && measured.last!.fds == 0 { break }
        }
        print("command leak check: heap growth per 1000 commands \(measured.map(\.heap)) bytes, descriptors \(measured.map(\.fds))")
        #expect(measured.contains { abs($0.heap) < Self.heapAllowance }, "heap grew \(measured.map(\.heap)) bytes over 1000 commands")
        #expect(measured.contains { $0.fds == 0 }, "descriptors grew by \(measured.map(\.fds))")
        #expect(ChildReaper.shared.waiting == 0)
    }
}
