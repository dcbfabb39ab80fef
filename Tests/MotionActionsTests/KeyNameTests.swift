import Testing
@testable import MotionActions

@Suite struct KeyNameTests {
    @Test(arguments: [
        ("ctrl", 29), ("KEY_LEFTCTRL", 29), ("leftctrl", 29), ("alt", 56), ("shift", 42), ("super", 125),
        ("Right", 106), ("Left", 105), ("Up", 103), ("Down", 108), ("Tab", 15), ("a", 30), ("Z", 44),
        ("1", 2), ("0", 11), ("F5", 63), ("Return", 28), ("Escape", 1), ("plus", 78), ("minus", 12),
        ("KEY_ZOOMIN", 418), ("pagedown", 109),
    ] as [(String, Int)])
    func namesAndAliasesFindTheirCode(name: String, code: Int) throws {
        #expect(try KeyName.code(name) == UInt16(code))
    }

    @Test func anUnknownNameListsTheCloseOnes() {
        #expect(throws: ActionError("unknown key name 'ctrll'; did you mean ctrl, lctrl, rctrl? (key names are those of linux/input-event-codes.h with or without KEY_, e.g. LEFTCTRL, Right, a, 1, F5, or ctrl, alt, shift, super)")) {
            try KeyName.code("ctrll")
        }
        #expect(KeyName.suggestions(for: "KEY_RIGTH") == ["right"])
        #expect(KeyName.suggestions(for: "qqqqqqqq") == [])
    }

    @Test func chordsKeepTheirKeysInOrder() throws {
        let chord = try Chord("ctrl+alt+Right")
        #expect(chord.codes == [29, 56, 106])
        #expect(chord.text == "ctrl+alt+Right")
        #expect(try Chord("ctrl + shift + t").codes == [29, 42, 20])
    }

    @Test func chordsThatCannotBeTyped() {
        #expect(throws: ActionError("the chord 'ctrl++' cannot be typed: it has an empty key name (keys are joined by '+'; the '+' key itself is 'plus' (keypad) or 'shift+equal')")) {
            try Chord("ctrl++")
        }
        #expect(throws: ActionError("the chord 'ctrl+control' cannot be typed: it presses KEY_LEFTCTRL twice ('control')")) {
            try Chord("ctrl+control")
        }
        #expect(throws: (any Error).self) { try Chord("") }
    }

    @Test func mouseButtonsByName() throws {
        #expect(try MouseButton.code("left") == 0x110)
        #expect(try MouseButton.code("Right") == 0x111)
        #expect(try MouseButton.code("BTN_MIDDLE") == 0x112)
        #expect(throws: ActionError("unknown mouse button 'wheel' (buttons: left, right, middle, side, extra, forward, back)")) {
            try MouseButton.code("wheel")
        }
    }
}
