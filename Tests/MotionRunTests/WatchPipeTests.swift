import Foundation
import Testing
import MotionTestSupport

/// `--watch` replays the events on every reload, which a pipe cannot give twice: it is refused
/// up front instead of replaying nothing after the first reload.
@Suite(.timeLimit(.minutes(5))) struct WatchPipeTests {
    @Test func watchWithEventsFromAPipeIsAUsageError() throws {
        let folder = makeTemporaryFolder("watch-pipe")
        writeFile("motion.pointers():emit('p')\n", "p.lua", in: folder)
        let line = Data(#"{"t":0,"id":1,"phase":"down","x":0,"y":0}"#.utf8 + [10])
        let r = try runMotionscript(["run", "p.lua", "--watch", "--events", "/dev/stdin"], in: folder, stdin: line)
        #expect(r.status == 2)
        #expect(r.stderr.contains("--watch replays the events on every reload"))
        #expect(r.stderr.contains("/dev/stdin"))
        #expect(r.stdout.isEmpty)
        // Without --watch the pipe is read as ever.
        let once = try runMotionscript(["run", "p.lua", "--events", "/dev/stdin"], in: folder, stdin: line)
        #expect(once.status == 0, "\(once.stderr)")
        // The finger goes down, and is cancelled when the input ends with it still down.
        #expect(once.stdout.split(separator: "\n").count == 2)
        #expect(once.stdout.hasPrefix(#"{"t":0,"name":"p","value":{"id":1,"phase":"down""#))
    }

    @Test func watchWithEventsFromAFIFOIsAUsageError() throws {
        let folder = makeTemporaryFolder("watch-fifo")
        writeFile("motion.pointers():emit('p')\n", "p.lua", in: folder)
        #expect(mkfifo(folder.appendingPathComponent("events").path, 0o600) == 0)
        let r = try runMotionscript(["run", "p.lua", "--watch", "--events", "events"], in: folder)
        #expect(r.status == 2)
        #expect(r.stderr.contains("--watch replays the events on every reload"))
    }
}
