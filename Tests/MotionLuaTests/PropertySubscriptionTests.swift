import Testing
import MotionGestures
import MotionStreams
@testable import MotionLua

/// `s:subscribe(property)` on the points and numbers gesture operators make: the property holds,
/// and its subscribers see, exactly what the same stream hands a callback.
@Suite struct PropertySubscriptionTests {
    @Test func dragTurnAndPinchWrittenIntoPropertiesAreWhatCallbacksSee() throws {
        let (runtime, output) = try loadedRuntime("""
            position = motion.property({x = 200, y = 200})
            angle = motion.property(0)
            size = motion.property(1)
            local pan = motion.gesture(motion.pan{threshold = 0}):translation(position)
            local turn = motion.gesture(motion.rotation{threshold = 0}):rotation(angle)
            local pinch = motion.gesture(motion.scale{threshold = 0}):scale(size)
            pan:subscribe(function(p) motion.emit("pan", p) end)
            turn:subscribe(function(a) motion.emit("turn", a) end)
            pinch:subscribe(function(s) motion.emit("pinch", s) end)
            pan:subscribe(position)
            turn:subscribe(angle)
            pinch:subscribe(size)
            position:emit("position")
            angle:emit("angle")
            size:emit("size")
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 0, 0), (2, .down, 100, 0)))
        try runtime.handle(frame(0.016, (1, .move, 10, 0), (2, .move, 10, 100)))
        try runtime.handle(frame(0.032, (1, .move, 20, 5), (2, .move, -180, 5)))
        func values(_ name: String) -> [String] {
            output.lines.filter { $0.split(separator: " ")[1] == name }.map { String($0.split(separator: " ")[2]) }
        }
        #expect(values("position") == ["{\"x\":200,\"y\":200}"] + values("pan"))
        #expect(values("angle") == ["0"] + values("turn"))
        #expect(values("size") == ["1"] + values("pinch"))
        #expect(values("pan") == ["{\"x\":160,\"y\":250}", "{\"x\":70,\"y\":205}"])
        #expect(values("turn") == ["1.5707963267948966", "3.141592653589793"])
        #expect(values("pinch") == ["2"])  // a scale of 1 is not past a threshold of 0
        #expect(runtime.global("position")?.point == Point(x: 70, y: 205))
    }
}

@Suite struct UnsubscribedDuringDispatchTests {
    /// A subscription unsubscribed by an earlier subscriber of the same value does not receive it.
    @Test(arguments: ["property", "gesture", "pointers"])
    func anUnsubscribedSubscriptionDoesNotReceiveTheValueBeingSent(source: String) throws {
        let make = [
            "property": "local s = motion.property(0)",
            "gesture": "local s = motion.gesture(motion.pan{})",
            "pointers": "local s = motion.pointers()",
        ][source]!
        let (runtime, output) = try loadedRuntime("""
            \(make)
            local armed
            s:subscribe(function() if armed then armed:unsubscribe() motion.emit("disarmed", true) end end)
            armed = s:subscribe(function() motion.emit("action", true) end)
            if s.write then s:write(1) end
            """)
        defer { runtime.close() }
        try runtime.handle(frame(0, (1, .down, 0, 0)))
        try runtime.handle(frame(0.1, (1, .move, 50, 0)))
        #expect(runtime.pendingError == nil)
        let afterDisarm = output.lines.drop { !$0.contains("disarmed") }
        #expect(afterDisarm.count >= 1)
        #expect(!afterDisarm.contains { $0.contains("action") }, "\(output.lines)")
    }
}
