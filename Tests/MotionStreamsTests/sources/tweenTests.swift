import Testing
import MotionStreams
import MotionTestSupport

@Suite struct TweenTests {
    @Test func aLinearTweenEmitsOneValuePerFrameAndEndsAtItsLastValue() throws {
        let clock = InputClock()
        let recorder = Recorder(try tween(values: [0.0, 100], duration: 0.125, timingFunctions: [.linear],
                                          frameInterval: 0.03125, on: clock))
        #expect(recorder.values == [0])
        clock.advance(to: .infinity)
        #expect(recorder.values == [0, 25, 50, 75, 100])
        #expect(recorder.states == [.active, .atRest])
        #expect(clock.now == 0.125)
    }

    @Test func theLastValueComesAtTheDurationExactly() throws {
        let clock = InputClock()
        var times: [Double] = []
        let stream = try tween(values: [0.0, 1], duration: 0.1, frameInterval: 0.03125, on: clock)
        let subscription = stream.subscribe(next: { _ in times.append(clock.now) })
        defer { subscription.unsubscribe() }
        clock.advance(to: .infinity)
        #expect(times == [0, 0.03125, 0.0625, 0.09375, 0.1])
    }

    @Test func keyframesFollowTheirOffsets() throws {
        let clock = InputClock()
        let recorder = Recorder(try tween(values: [0.0, 100, 50], duration: 1, offsets: [0, 0.25, 1],
                                          timingFunctions: [.linear], frameInterval: 0.125, on: clock))
        clock.advance(to: 0.5)
        #expect(recorder.values[1] == 50)   // 0.125: halfway to the first keyframe
        #expect(recorder.values[2] == 100)  // 0.25: the first keyframe
        #expect(abs(recorder.values[4] - (100 - 50.0 / 3)) < 1e-12)  // 0.5: a third into the second segment
    }

    @Test func timingFunctionsEaseEachSegment() throws {
        #expect(abs(TimingFunction.easeInOut(0.5) - 0.5) < 1e-9)
        #expect(TimingFunction.easeIn(0.5) < 0.5)
        #expect(TimingFunction.easeOut(0.5) > 0.5)
        #expect(TimingFunction.linear(0.3) == 0.3)
        #expect(TimingFunction.easeInOut(0) == 0 && TimingFunction.easeInOut(1) == 1)
        let clock = InputClock()
        let recorder = Recorder(try tween(values: [0.0, 10, 20], duration: 1, timingFunctions: [.easeIn, .easeOut],
                                          frameInterval: 0.25, on: clock))
        clock.advance(to: 1)
        #expect(recorder.values[1] == 10 * TimingFunction.easeIn(0.5))
        #expect(recorder.values[3] == 10 + 10 * TimingFunction.easeOut(0.5))
    }

    @Test func pointsTween() throws {
        let clock = InputClock()
        let recorder = Recorder(try tween(values: [Point.zero, Point(x: 10, y: 20)], duration: 1,
                                          timingFunctions: [.linear], frameInterval: 0.5, on: clock))
        clock.advance(to: 1)
        #expect(recorder.values == [.zero, Point(x: 5, y: 10), Point(x: 10, y: 20)])
    }

    @Test func disconnectStopsTheTween() throws {
        let clock = InputClock()
        let recorder = Recorder(try tween(values: [0.0, 1], duration: 1, on: clock))
        recorder.subscription.unsubscribe()
        #expect(clock.pendingCount == 0)
    }

    @Test func outOfRangeOptionsThrowNamingTheOption() {
        let clock = InputClock()
        func option(_ make: () throws -> Any) -> String? {
            do { _ = try make(); return nil } catch { return (error as? OptionError)?.option }
        }
        #expect(option { try tween(values: [Double](), duration: 1, on: clock) } == "values")
        #expect(option { try tween(values: [0.0, 1], duration: -1, on: clock) } == "duration")
        #expect(option { try tween(values: [0.0, 1], duration: 1, offsets: [0, 0.5], on: clock) } == "offsets")
        #expect(option { try tween(values: [0.0, 1, 2], duration: 1, timingFunctions: [.linear, .linear, .linear], on: clock) }
                == "timingFunctions")
        #expect(option { try TimingFunction(1.5, 0, 0.5, 1) } == "timingFunction")
    }
}
