import Foundation
import Testing
import MotionTestSupport

/// `run --explain`: the recognizers' state changes with their reasons on stderr, stdout unchanged.
@Suite(.timeLimit(.minutes(5))) struct ExplainCommandTests {
    @Test func aDoubleTapReplaySaysWhyTheSingleTapWaitedAndWhatReleasedIt() throws {
        let arguments = ["run", "examples/double-tap.lua", "--events", "examples/double-tap.events.jsonl"]
        let plain = try runMotionscript(arguments)
        let explained = try runMotionscript(arguments + ["--explain"])
        #expect(explained.status == 0)
        #expect(explained.stdout == plain.stdout)
        #expect(plain.stderr.isEmpty)
        let lines = explained.stderr.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(6)) == [
            "0.100 double-tap.lua:7 tap#2 waiting: waiting for rival tap#1 (double-tap.lua:6)",
            "0.400 double-tap.lua:6 tap#1(taps=2) failed: timed out: tap 2 of 2 did not start within 0.3 s",
            "0.400 double-tap.lua:7 tap#2 recognized: rival tap#1 (double-tap.lua:6) failed: released",
            "1.080 double-tap.lua:7 tap#2 waiting: waiting for rival tap#1 (double-tap.lua:6)",
            "1.280 double-tap.lua:6 tap#1(taps=2) recognized: 2 taps",
            "1.280 double-tap.lua:7 tap#2 failed: rival tap#1 (double-tap.lua:6) recognized",
        ])
    }

    @Test func explainAndPlotDoNotGoTogether() throws {
        let r = try runMotionscript(["run", "examples/drag.lua", "--events", "examples/drag.events.jsonl", "--explain",
                                     "--plot", "/tmp/never.svg"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("use --plot or --explain, not both"))
    }
}
