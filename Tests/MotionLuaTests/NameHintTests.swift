import Foundation
import Testing
import MotionGestures
@testable import MotionLua

/// `motion.swpie{}` got a bare "attempt to call a nil value" while key names got "did you
/// mean": misspelt API names (functions of `motion` and its tables, methods of streams,
/// recognizers and gesture values) name the close ones.
@Suite struct NameHintTests {
    private func firstLine(_ source: String) throws -> String {
        let error = try #require(setupError(source))
        return String(error.message.split(separator: "\n").first ?? "")
    }

    @Test func misspeltMotionFunctionsSuggestTheCloseOnes() throws {
        #expect(try firstLine("motion.swpie{direction = 'left'}").hasSuffix(
            "script.lua:1: attempt to call a nil value (field 'swpie'); did you mean motion.swipe?"))
        #expect(try firstLine("local s = motion.propery(1)").hasSuffix("(field 'propery'); did you mean motion.property?"))
        #expect(try firstLine("motion.mouse.mvoe(1, 2)").hasSuffix("(field 'mvoe'); did you mean motion.mouse.move?"))
        #expect(try firstLine("motion.Swipe{}").hasSuffix("(field 'Swipe'); did you mean motion.swipe?"))
        #expect(try firstLine("moton.pan{}").hasSuffix("(global 'moton'); did you mean motion?"))
    }

    @Test func misspeltMethodsOfStreamsRecognizersAndGesturesSuggestTheCloseOnes() throws {
        #expect(try firstLine("motion.property(1):emitt('x')").hasSuffix("(method 'emitt'); did you mean :emit?"))
        #expect(try firstLine("motion.pan{}:requireToFial(motion.tap{})").hasSuffix("(method 'requireToFial'); did you mean :requireToFail?"))
        #expect(try firstLine("motion.property(1):subscribe(function() end):unsubscibe()").hasSuffix("(method 'unsubscibe'); did you mean :unsubscribe?"))
    }

    @Test func aGestureMethodMisspeltInACallbackGetsTheHintToo() throws {
        let runtime = try LuaRuntime(scriptPath: writeScript("""
            motion.gesture(motion.pan{threshold = 0}):subscribe(function(g) local p = g:locaton() end)
            """), output: TestOutput())
        defer { runtime.close() }
        var message = ""
        do {
            try runtime.load()
            try runtime.handle(Frame(t: 0, events: [PointerEvent(t: 0, id: 1, phase: .down, x: 0, y: 0)]))
            try runtime.handle(Frame(t: 0.1, events: [PointerEvent(t: 0.1, id: 1, phase: .move, x: 50, y: 0)]))
        } catch {
            message = "\(error)"
        }
        #expect(message.contains("script.lua:1: attempt to call a nil value (method 'locaton'); did you mean :location?"), "\(message)")
    }

    @Test func unrelatedNilsAndMissingFieldsStayAsLuaSaysThem() throws {
        #expect(try firstLine("local t = {} t.qqqqqqq()").hasSuffix("attempt to call a nil value (field 'qqqqqqq')"))
        #expect(try firstLine("local x = motion.nothingLikeIt == nil; error('reached')").hasSuffix("reached"))
    }
}
