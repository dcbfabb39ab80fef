import Foundation
import Testing
import MotionTestSupport

/// Mistakes that ran with exit 0, no output and no hint: a stream never subscribed, a duration
/// meant in milliseconds, an event file with `t` in milliseconds. Each now says so on stderr
/// (stdout stays JSON Lines), and the run goes on as before.
@Suite(.timeLimit(.minutes(5))) struct SilentMistakeTests {
    private let tap = #"{"t":0,"id":1,"phase":"down","x":0,"y":0}"# + "\n" + #"{"t":0.05,"id":1,"phase":"up","x":0,"y":0}"# + "\n"

    @Test func streamsBuiltAndNeverSubscribedGetANoteNamingTheirLines() throws {
        let folder = makeTemporaryFolder("mistakes")
        writeFile("""
            local pan = motion.pan{}
            local box = motion.property({x = 0, y = 0})
            motion.gesture(pan):translation(box)
            local g = motion.gesture(pan)
            g:map(function(v) return v.state end):emit("state")
            motion.pointers()

            """, "s.lua", in: folder)
        writeFile(tap, "e.jsonl", in: folder)
        let r = try runMotionscript(["run", "s.lua", "--events", "e.jsonl"], in: folder)
        #expect(r.status == 0)
        #expect(r.stderr.contains("note: 2 streams were built and never subscribed (s.lua:3, s.lua:6): nothing flows until s:subscribe(…) or s:emit(name)\n"), "\(r.stderr)")
        // Every stream used: no note.
        writeFile("motion.gesture(motion.pan{}):emit('p')\nmotion.pointers():subscribe(function() end)\n", "ok.lua", in: folder)
        let ok = try runMotionscript(["run", "ok.lua", "--events", "e.jsonl"], in: folder)
        #expect(ok.status == 0 && !ok.stderr.contains("note:"), "\(ok.stderr)")
    }

    @Test func durationsOverAMinuteGetAWarning() throws {
        let folder = makeTemporaryFolder("mistakes")
        writeFile("""
            motion.hold{fingers = 1, duration = 600}
            motion.tap{maxDuration = 0.3, interval = 300}
            motion.property(1):throttle(250):emit("x")
            motion.hold{fingers = 2, duration = 60}

            """, "d.lua", in: folder)
        let r = try runMotionscript(["run", "d.lua"], in: folder)
        #expect(r.status == 0)
        let warnings = r.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
        #expect(warnings == [
            "warning: d.lua:1: motion.hold: option 'duration' is 600 s, over a minute: time options are in seconds (0.6 if you meant milliseconds)",
            "warning: d.lua:2: motion.tap: option 'interval' is 300 s, over a minute: time options are in seconds (0.3 if you meant milliseconds)",
            "warning: d.lua:3: throttle is 250 s, over a minute: time options are in seconds (0.25 if you meant milliseconds)",
        ], "\(r.stderr)")
    }

    @Test func anEventFileWithTimesInMillisecondsGetsAHint() throws {
        let folder = makeTemporaryFolder("mistakes")
        writeFile("motion.pointers():subscribe(function() end)\n", "p.lua", in: folder)
        let ms = [#"{"t":0,"id":1,"phase":"down","x":0,"y":0}"#, #"{"t":16,"id":1,"phase":"move","x":5,"y":0}"#,
                  #"{"t":33,"id":1,"phase":"move","x":9,"y":0}"#, #"{"t":50,"id":1,"phase":"up","x":9,"y":0}"#]
        writeFile(ms.joined(separator: "\n") + "\n", "ms.events.jsonl", in: folder)
        let r = try runMotionscript(["run", "p.lua", "--events", "ms.events.jsonl"], in: folder)
        #expect(r.status == 0)
        #expect(r.stderr == "note: ms.events.jsonl: every frame is at least 16 s after the one before: is \"t\" in milliseconds? It is in seconds (divide by 1000)\n", "\(r.stderr)")
        // Seconds: no hint.
        writeFile(ms.map { $0.replacingOccurrences(of: #""t":16"#, with: #""t":0.016"#).replacingOccurrences(of: #""t":33"#, with: #""t":0.033"#).replacingOccurrences(of: #""t":50"#, with: #""t":0.05"#) }.joined(separator: "\n") + "\n", "s.events.jsonl", in: folder)
        let seconds = try runMotionscript(["run", "p.lua", "--events", "s.events.jsonl"], in: folder)
        #expect(seconds.status == 0 && seconds.stderr == "", "\(seconds.stderr)")
    }
}
