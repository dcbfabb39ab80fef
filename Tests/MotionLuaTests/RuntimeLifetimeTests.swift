import Foundation
import Testing
import MotionGestures
import MotionStreams
@testable import MotionLua

/// A runtime ends when it is closed or dropped, and nothing of it runs afterwards.
@Suite struct RuntimeLifetimeTests {
    static let busyScript = """
        local pan = motion.pan{threshold = 0}
        local tap = motion.tap{}
        local box = motion.property({x = 0, y = 0})
        motion.gesture(pan):translation(box):subscribe(box)
        box:emit("box")
        box:map(function(p) return p.x end):filter(function(x) return x > 0 end):delay(0.1):emit("late")
        motion.tapSource(tap):emit("tap")
        motion.pointers():subscribe(function(e) end)
        motion.spring{to = 10, from = 0}:emit("spring")
        motion.property(1):log("l"):x()
        """

    @Test func aDroppedRuntimeThatWasNeverClosedIsFreed() throws {
        weak var dropped: LuaRuntime?
        weak var recognizer: GestureRecognizer?
        do {
            let (runtime, output) = try loadedRuntime(Self.busyScript)
            for f in dragFrames(moves: 3) { try runtime.handle(f) }
            #expect(output.lines.count > 3)
            dropped = runtime
            recognizer = runtime.dispatcher.recognizers.first
        }
        #expect(dropped == nil)
        #expect(recognizer == nil)
    }

    @Test func closingUnsubscribesAndReleasesEverything() throws {
        weak var recognizer: GestureRecognizer?
        do {
            let (runtime, _) = try loadedRuntime(Self.busyScript)
            recognizer = runtime.dispatcher.recognizers.first
            #expect(recognizer!.listenerCount == 1)
            runtime.close()
            #expect(recognizer!.listenerCount == 0)
            #expect(runtime.liveCallbacks == 0)
        }
        #expect(recognizer == nil)
    }

    @Test func finalizersRunAtCloseCannotCallBindingsOrEmit() throws {
        let source = """
            setmetatable({}, {__gc = function() motion.emit("late", 1) end})
            local p = motion.property(0)
            p:emit("p")
            setmetatable({}, {__gc = function() p:write(2) end})
            """
        // Closed explicitly, and dropped without closing (deinit closes).
        let (runtime, output) = try loadedRuntime(source)
        runtime.close()
        #expect(output.lines == ["0 p 0"])
        var log: [String] = []
        do {
            let (dropped, droppedOutput) = try loadedRuntime(source)
            _ = dropped
            log = droppedOutput.lines
            withExtendedLifetime(droppedOutput) {}
        }
        #expect(log == ["0 p 0"])
    }

    @Test func nothingRunsOrEmitsAfterClose() throws {
        let (runtime, output) = try loadedRuntime("""
            local pan = motion.pan{threshold = 0}
            motion.gesture(pan):subscribe(function(g) motion.emit("g", g.state) end)
            motion.gesture(pan):emit("raw")
            """)
        try runtime.handle(frame(0, (1, .down, 0, 0)))
        let before = output.lines.count
        runtime.close()
        try runtime.handle(frame(0.016, (1, .move, 5, 0)))
        try runtime.handle(frame(0.032, (1, .up, 5, 0)))
        try runtime.finish()
        #expect(output.lines.count == before)
    }

    @Test func fortyThousandSubscriptionsToOneSourceAreTornDownNewestFirst() throws {
        weak var dropped: LuaRuntime?
        let (runtime, output) = try loadedRuntime("""
            local p = motion.property(0)
            for i = 1, 40000 do p:subscribe(function() end) end
            p:emit("p")
            """)
        dropped = runtime
        #expect(runtime.subscriptionCount == 40_001)
        // Each removal finds its listener by binary search at the end of the list: a structural
        // property of the list, checked here on a list of the same size.
        var list = ListenerList<Int>()
        let ids = (0..<40_000).map { list.add($0) }
        for id in ids.reversed() { list.remove(id) }
        #expect(list.isEmpty)
        runtime.close()
        #expect(runtime.subscriptionCount == 0)
        #expect(runtime.liveCallbacks == 0)
        #expect(output.lines == ["0 p 0"])
        _ = dropped
    }
}
