import Foundation
import Testing
import MotionTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's watchdog stops a plugin's call with a real-time signal (SIGRTMIN+4, handled on the
/// daemon's thread, docs/daemon.md "Limits"). A command a plugin launches must not inherit it
/// blocked (a mask is inherited across exec), ignored or caught.
@Suite(.timeLimit(.minutes(5))) struct WatchdogSignalChildTests {
    @Test func aCommandAPluginLaunchesHasTheWatchdogsSignalAsUsual() throws {
        let folder = makeTemporaryFolder("rtsig")
        let plugins = folder.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        // grep itself, not through sh (dash clears its signal mask as it starts): its output goes
        // to the daemon's stderr, which the run reads to its end (the child holds it open).
        _ = writeFile("""
            motion.pointers():subscribe(function(p)
              if p.phase == "down" then motion.exec{"grep", "-E", "^Sig(Blk|Ign|Cgt):", "/proc/self/status"} end
            end)
            """, "x.lua", in: plugins)
        let events = writeFile(#"{"t":0,"id":1,"phase":"down","x":1,"y":1}"# + "\n", "e.jsonl", in: folder)
        let uinput = writeFile("", "uinput.raw", in: folder)
        let r = try runMotionscript(["daemon", plugins.path, "--events", events, "--act", "--uinput", uinput])
        #expect(r.status == 0, "\(r.stderr)")
        let masks = r.stderr.split(separator: "\n").filter { $0.hasPrefix("Sig") }.compactMap { line -> UInt64? in
            line.split(separator: "\t").last.flatMap { UInt64($0, radix: 16) }
        }
        #expect(masks.count == 3, "\(r.stderr)")
        let bit = UInt64(1) << UInt64(__libc_current_sigrtmin() + 4 - 1)
        #expect(masks.allSatisfy { $0 & bit == 0 }, "\(r.stderr)")
    }
}
