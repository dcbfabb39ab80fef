import Testing
import MotionGestures
@testable import MotionLua

/// `consume = true` (docs/desktop.md, "The proxy"): every recognizer kind takes it.
@Suite struct ConsumeOptionTests {
    @Test func everyRecognizerKindTakesConsume() throws {
        let (runtime, _) = try loadedRuntime("""
            motion.swipe{fingers = 3, consume = true}
            motion.swipe{fingers = 4, from = "left", consume = true}
            motion.hold{fingers = 3, consume = true}
            motion.tap{fingers = 3, consume = true}
            motion.scale{consume = true}
            motion.rotation{consume = true}
            motion.translation{fingers = 3, consume = true}
            motion.pan{consume = false}
            motion.tap{}
            """)
        defer { runtime.close() }
        #expect(runtime.dispatcher.recognizers.map(\.consumes) == [true, true, true, true, true, true, true, false, false])
    }

    @Test(arguments: [
        ("motion.swipe{consume = 1}", "motion.swipe: option 'consume' must be a boolean, got number"),
        ("motion.tap{consume = 'yes'}", "motion.tap: option 'consume' must be a boolean, got string"),
        ("motion.hold{consume = {}}", "motion.hold: option 'consume' must be a boolean, got table"),
        ("motion.rotation{consumes = true}", "motion.rotation: unknown option 'consumes'"),
    ])
    func aBadConsumeNamesTheOption(source: String, message: String) throws {
        let error = try loadError(source)
        #expect(error.contains("script.lua:1: " + message), "\(error)")
    }
}
