import Testing
@testable import MotionActions

@Suite struct VirtualInputTests {
    private func key(_ code: UInt16, _ value: Int32) -> InputEvent { .key(code, value) }
    private let syn = InputEvent.synReport

    @Test func aChordPressesInOrderThenReleasesInReverse() throws {
        let sink = RecordingSink()
        let input = VirtualInput(sink: sink)
        try input.keys(try Chord("ctrl+alt+Right"))
        #expect(sink.batches == [[key(29, 1), key(56, 1), key(106, 1), syn], [key(106, 0), key(56, 0), key(29, 0), syn]])
        #expect(input.held.isEmpty)
    }

    @Test func aHeldKeyStaysHeldThroughAChordThatNamesIt() throws {
        let sink = RecordingSink()
        let input = VirtualInput(sink: sink)
        try input.down(56)  // alt
        try input.keys(try Chord("alt+Tab"))
        try input.keys(try Chord("alt+Tab"))
        #expect(sink.batches == [[key(56, 1), syn], [key(15, 1), syn], [key(15, 0), syn], [key(15, 1), syn], [key(15, 0), syn]])
        #expect(input.held == [56])
        #expect(try input.releaseAll() == [56])
        #expect(sink.batches.last == [key(56, 0), syn])
    }

    @Test func downAndUpWriteOnlyChanges() throws {
        let sink = RecordingSink()
        let input = VirtualInput(sink: sink)
        #expect(try input.down(42))
        #expect(try !input.down(42))
        #expect(try input.up(42))
        #expect(try !input.up(42))
        #expect(sink.batches == [[key(42, 1), syn], [key(42, 0), syn]])
    }

    @Test func releaseAllLetsGoOfKeysAndButtonsLastPressedFirst() throws {
        let sink = RecordingSink()
        let input = VirtualInput(sink: sink)
        try input.down(29)
        try input.down(0x110)
        try input.down(42)
        #expect(try input.releaseAll() == [42, 0x110, 29])
        #expect(sink.batches.last == [key(42, 0), key(0x110, 0), key(29, 0), syn])
        #expect(try input.releaseAll() == [])
        #expect(sink.batches.count == 4)
    }

    @Test func aClickPressesAndReleasesAButton() throws {
        let sink = RecordingSink()
        try VirtualInput(sink: sink).click(0x111)
        #expect(sink.batches == [[key(0x111, 1), syn], [key(0x111, 0), syn]])
    }

    @Test func movementKeepsFractions() throws {
        let sink = RecordingSink()
        let input = VirtualInput(sink: sink)
        try input.move(dx: 0.5, dy: 0)
        #expect(sink.batches.isEmpty)
        try input.move(dx: 0.5, dy: -2.5)
        try input.move(dx: 3, dy: -0.5)
        #expect(sink.batches == [[.rel(0, 1), .rel(1, -2), syn], [.rel(0, 3), .rel(1, -1), syn]])
        try input.move(dx: .nan, dy: .infinity)  // not a trap, not a movement
        #expect(sink.batches.count == 2)
    }

    @Test func scrollingIsInNotchesWithHighResolutionUnits() throws {
        let sink = RecordingSink()
        let input = VirtualInput(sink: sink)
        try input.scroll(dx: 0, dy: 1)      // down: the wheel turns toward the user
        try input.scroll(dx: 0, dy: -0.25)  // a quarter notch up: high resolution only
        try input.scroll(dx: 2, dy: 0)      // right
        #expect(sink.batches == [
            [.rel(InputEvent.relWheel, -1), .rel(InputEvent.relWheelHiRes, -120), syn],
            [.rel(InputEvent.relWheelHiRes, 30), syn],
            [.rel(InputEvent.relHWheel, 2), .rel(InputEvent.relHWheelHiRes, 240), syn],
        ])
    }

    @Test func withoutASinkTheStateIsStillKept() throws {
        let input = VirtualInput(sink: nil)
        try input.down(56)
        try input.keys(try Chord("ctrl+c"))
        #expect(input.held == [56])
        #expect(try input.releaseAll() == [56])
    }
}
