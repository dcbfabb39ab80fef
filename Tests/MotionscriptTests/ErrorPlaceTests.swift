import Foundation
import Testing
import MotionTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A callback that fails on the 1000th event said the script line only: on a minutes-long
/// recording the user bisected. Runtime errors name the input time and the frame's place in
/// the event file (its line, or byte offset for raw evdev).
@Suite(.timeLimit(.minutes(5))) struct ErrorPlaceTests {
    private let script = """
        local n = 0
        motion.pointers():subscribe(function(p)
          n = n + 1
          if n == 1000 then error("boom on event " .. n) end
        end)

        """

    @Test func aCallbackErrorNamesTheInputTimeAndTheEventFileLine() throws {
        let folder = makeTemporaryFolder("place")
        writeFile(script, "long.lua", in: folder)
        var lines = [#"{"t":0,"id":1,"phase":"down","x":0,"y":0}"#]
        for i in 1..<1200 { lines.append(#"{"t":\#(Double(i) / 100),"id":1,"phase":"move","x":\#(i),"y":0}"#) }
        writeFile(lines.joined(separator: "\n") + "\n", "long.events.jsonl", in: folder)
        let r = try runMotionscript(["run", "long.lua", "--events", "long.events.jsonl"], in: folder)
        #expect(r.status == 1)
        let first = r.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first == "error: long.lua:4: boom on event 1000 at t=9.99 (long.events.jsonl:1000)", "\(r.stderr)")
        #expect(r.stderr.contains("stack traceback:"))
    }

    @Test func rawEvdevNamesTheByteOffset() throws {
        let folder = makeTemporaryFolder("place")
        writeFile(script.replacingOccurrences(of: "1000", with: "3"), "s.lua", in: folder)
        // Two frames of one pointer, 4 records each, then its lift: 24 bytes a record.
        var bytes: [UInt8] = []
        for frame in 0..<2 {
            let usec = frame * 10_000
            bytes += inputEvent(usec: usec, 3, 0x39, 7)
            bytes += inputEvent(usec: usec, 3, 0x35, Int32(100 + frame))
            bytes += inputEvent(usec: usec, 3, 0x36, 50)
            bytes += inputEvent(usec: usec, 0, 0, 0)
        }
        bytes += inputEvent(usec: 20_000, 3, 0x39, -1) + inputEvent(usec: 20_000, 0, 0, 0)
        let raw = folder.appendingPathComponent("s.raw").path
        FileManager.default.createFile(atPath: raw, contents: Data(bytes))
        let r = try runMotionscript(["run", "s.lua", "--events", "s.raw", "--axes", "0:1000,0:1000"], in: folder)
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: s.lua:4: boom on event 3 at t=0.02 (s.raw: byte 192)\n"), "\(r.stderr)")
    }

    @Test func anErrorAtTheEndOfInputSaysSo() throws {
        let folder = makeTemporaryFolder("place")
        writeFile("motion.property(1):delay(0.5):subscribe(function() error('late') end)\n", "d.lua", in: folder)
        writeFile(#"{"t":0,"id":1,"phase":"down","x":0,"y":0}"# + "\n" + #"{"t":0.1,"id":1,"phase":"up","x":0,"y":0}"# + "\n", "d.events.jsonl", in: folder)
        let r = try runMotionscript(["run", "d.lua", "--events", "d.events.jsonl"], in: folder)
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: d.lua:1: late at t=0.5 (end of input)\n"), "\(r.stderr)")
    }
}
