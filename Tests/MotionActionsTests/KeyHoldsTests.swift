import Foundation
import Testing
@testable import MotionActions

/// Fails every write, as a device that cannot be opened does.
private final class FailingSink: InputEventSink {
    var attempts = 0
    func write(_ events: [InputEvent]) throws {
        attempts += 1
        throw ActionError("cannot open /dev/uinput")
    }
}

/// One device, several holders (sessions: plugins, reload versions): a key goes down with its
/// first holder and up with its last.
@Suite(.timeLimit(.minutes(5))) struct KeyHoldsTests {
    private func key(_ code: UInt16, _ value: Int32) -> InputEvent { .key(code, value) }
    private let syn = InputEvent.synReport

    @Test func aKeyGoesUpWhenItsLastHolderReleasesIt() throws {
        let sink = RecordingSink(), holds = KeyHolds()
        let a = VirtualInput(sink: sink, holds: holds), b = VirtualInput(sink: sink, holds: holds)
        #expect(try a.down(56))
        #expect(try b.down(56))
        #expect(holds.count(56) == 2)
        #expect(sink.batches == [[key(56, 1), syn]])
        #expect(try a.up(56))
        #expect(sink.batches == [[key(56, 1), syn]])
        #expect(holds.count(56) == 1 && holds.isDown(56))
        #expect(try b.up(56))
        #expect(sink.batches == [[key(56, 1), syn], [key(56, 0), syn]])
        #expect(!holds.isDown(56))
    }

    /// A session closing (releaseAll) lets go of its holds only: keys another session holds
    /// stay down, the others go up in one batch.
    @Test func releasingAllKeepsTheKeysOthersHold() throws {
        let sink = RecordingSink(), holds = KeyHolds()
        let old = VirtualInput(sink: sink, holds: holds), new = VirtualInput(sink: sink, holds: holds)
        try old.down(29)  // ctrl
        try old.down(56)  // alt
        try new.down(56)
        #expect(try old.releaseAll() == [56, 29])
        #expect(sink.batches == [[key(29, 1), syn], [key(56, 1), syn], [key(29, 0), syn]])
        #expect(holds.count(56) == 1 && !holds.isDown(29))
        #expect(try new.releaseAll() == [56])
        #expect(sink.batches.last == [key(56, 0), syn])
    }

    /// A chord by one session does not press or release a key another session holds; a click
    /// of a button another session holds writes nothing.
    @Test func chordsAndClicksLeaveOthersHoldsAlone() throws {
        let sink = RecordingSink(), holds = KeyHolds()
        let a = VirtualInput(sink: sink, holds: holds), b = VirtualInput(sink: sink, holds: holds)
        try a.down(56)
        try b.keys(try Chord("alt+Tab"))
        #expect(sink.batches == [[key(56, 1), syn], [key(15, 1), syn], [key(15, 0), syn]])
        try a.down(0x110)
        try b.click(0x110)
        #expect(sink.batches.count == 4)
        #expect(holds.isDown(0x110))
    }

    /// A press that could not be written holds nothing: no release is written (or tried) later.
    @Test func aFailedPressHoldsNothing() throws {
        let sink = FailingSink()
        let input = VirtualInput(sink: sink)
        #expect(throws: ActionError.self) { try input.down(56) }
        #expect(input.held.isEmpty && !input.holds.isDown(56))
        #expect(try input.releaseAll() == [])
        #expect(sink.attempts == 1)
    }

    /// One reaper thread for every launched command, each reaped by its own pid.
    @Test func oneReaperThreadReapsEveryCommand() throws {
        let launcher = ProcessLauncher(report: { _ in })
        var pids: [pid_t] = []
        for _ in 0..<20 { pids.append(try #require(launcher.launch(["true"]))) }
        var gone = 0
        for _ in 0..<1000 {  // a hang guard, not a timing assertion
            gone = pids.filter { kill($0, 0) != 0 && errno == ESRCH }.count
            if gone == pids.count { break }
            usleep(10_000)
        }
        #expect(gone == 20)
        #expect(ChildReaper.shared.threadsStarted == 1)
    }
}
