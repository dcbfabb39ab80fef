import Foundation
import Testing
import MotionTestSupport

/// Issue 22, "physical units for the desktop": with no option given, a configuration behaves the
/// same on every touchpad that reports its resolution. examples/scenarios/pads/ holds the same
/// session recorded (synthetically, scripts/make-pad-recordings.py) on pads of 12 and 30 units/mm.
@Suite(.timeLimit(.minutes(5))) struct PhysicalUnitsTests {
    static let pads = "examples/scenarios/pads/"

    /// The actions of `script` over one pad's recording, with no option.
    private func actions(_ script: String, pad: Int, _ options: [String] = []) throws -> [String] {
        let run = try runMotionscript(["run", script, "--events", Self.pads + "desktop-pad\(pad).evemu"] + options)
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    /// Seconds of the session where nothing may happen: a 4 mm three-finger nudge (4.0–4.1), a
    /// 6 mm two-finger scroll (5.0–5.2), one-finger pointer motion (6.0–6.8) and a resting
    /// finger (7.0–8.0).
    private func times(_ lines: [String]) -> [Double] {
        lines.compactMap { line in
            guard let range = line.range(of: #"(?<="t":)[0-9.]+"#, options: .regularExpression) else { return nil }
            return Double(line[range])
        }
    }

    @Test func theDesktopExampleGivesTheSameActionsOnBothPads() throws {
        let twelve = try actions("examples/desktop.lua", pad: 12)
        let thirty = try actions("examples/desktop.lua", pad: 30)
        #expect(twelve == thirty)
        #expect(twelve == [
            #"{"t":0.2,"action":"keys","keys":"ctrl+alt+Right"}"#,
            #"{"t":1.08,"action":"mouse","button":"right","press":"click"}"#,
            // The fingers lift one by one: decided at the first lift (2.2), not the last (3.46).
            #"{"t":2.2,"action":"keys","keys":"ctrl+alt+Down"}"#,
            #"{"t":8.7,"action":"exec","argv":["gnome-terminal"]}"#,
            #"{"t":10.1,"action":"exec","argv":["rofi","-show","window"]}"#,
        ])
    }

    @Test func aConfigurationOfDefaultThresholdsGivesTheSameActionsOnBothPads() throws {
        let twelve = try actions(Self.pads + "default-thresholds.lua", pad: 12)
        let thirty = try actions(Self.pads + "default-thresholds.lua", pad: 30)
        #expect(twelve == thirty)
        #expect(twelve.count == 13)
        #expect(times(twelve).allSatisfy { $0 < 3.5 || $0 >= 8.5 }, "\(twelve)")
        #expect(twelve.contains(#"{"t":1.08,"action":"mouse","button":"right","press":"click"}"#))
        #expect(twelve.contains(#"{"t":10,"action":"exec","argv":["notify-send","3-finger hold"]}"#))
        #expect(!twelve.contains { $0.contains("1-finger") })
    }

    /// Raw device units (today's behaviour, `--surface raw`) are what made pads differ: there a
    /// 4 mm nudge is 48 or 120 units, and 0.3 mm of tap jitter is past a 3-unit tap.
    @Test func rawUnitsAreStillThereWhenAskedFor() throws {
        let raw = try actions("examples/desktop.lua", pad: 30, ["--surface", "raw"])
        #expect(raw.contains(#"{"t":4.1,"action":"keys","keys":"ctrl+alt+Left"}"#))
        #expect(!raw.contains { $0.contains("right") })
    }
}
