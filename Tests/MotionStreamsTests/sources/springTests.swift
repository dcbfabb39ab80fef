import Testing
import MotionStreams
import MotionTestSupport

/// Seed 003 "Inline connections": the spring is created, configured and started inside
/// `connect`, and stopped by disconnect.
@Suite struct SpringTests {
    @Test func inlineConnectionsStartOnSubscribeAndStopOnDisconnect() throws {
        let clock = InputClock()
        let stream = try spring(to: 100.0, from: 0, on: clock)
        #expect(clock.pendingCount == 0)  // cold: nothing until a subscription
        let recorder = Recorder(stream)
        #expect(recorder.states == [.active])
        #expect(recorder.values == [0])
        #expect(clock.pendingCount == 1)
        recorder.subscription.unsubscribe()
        #expect(clock.pendingCount == 0)
        clock.advance(to: 10)
        #expect(recorder.values == [0])
    }

    @Test func emitsOneValuePerFrameOfInputTimeAndComesToRestAtTheDestination() throws {
        let clock = InputClock()
        let recorder = Recorder(try spring(to: 100.0, from: 0, on: clock))
        clock.advance(to: 1.0 / 60)
        #expect(recorder.values.count == 2)
        clock.advance(to: 0.1)
        #expect(recorder.values.count == 7)
        clock.advance(to: .infinity)
        #expect(recorder.values.last == 100)
        #expect(recorder.states == [.active, .atRest])
        if case .state(.atRest) = recorder.events.last {} else { Issue.record("atRest comes last") }
        #expect(clock.now < 2)  // 342/30/1 settles well within two seconds
    }

    @Test func valuesAreTheExactSolutionOfTheDefaultSpring() throws {
        #expect(SpringDefaults.stiffness == 342 && SpringDefaults.damping == 30 && SpringDefaults.mass == 1)
        let clock = InputClock()
        let recorder = Recorder(try spring(to: 100.0, from: 0, initialVelocity: 50, frameInterval: 0.125, on: clock))
        clock.advance(to: 0.25)
        // Integrate m·x'' = −k·(x − 100) − c·x' finely (RK4) to 0.25 s.
        var x = 0.0, v = 50.0
        let h = 1e-5
        func a(_ x: Double, _ v: Double) -> Double { -342 * (x - 100) - 30 * v }
        for _ in 0..<25_000 {
            let k1x = v, k1v = a(x, v)
            let k2x = v + h / 2 * k1v, k2v = a(x + h / 2 * k1x, v + h / 2 * k1v)
            let k3x = v + h / 2 * k2v, k3v = a(x + h / 2 * k2x, v + h / 2 * k2v)
            let k4x = v + h * k3v, k4v = a(x + h * k3x, v + h * k3v)
            x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
        }
        #expect(abs(recorder.values[2] - x) < 1e-6)
    }

    @Test func pointsSpringOnBothAxes() throws {
        let clock = InputClock()
        let recorder = Recorder(try spring(to: Point(x: 100, y: -50), from: .zero, on: clock))
        clock.advance(to: 0.05)
        let value = recorder.values.last!
        #expect(value.x > 0 && value.y < 0)
        #expect(abs(value.x / value.y + 2) < 1e-9)  // straight line: both axes share the curve
        clock.advance(to: .infinity)
        #expect(recorder.values.last == Point(x: 100, y: -50))
    }

    @Test func eachSubscriptionRunsItsOwnSpringFromItsOwnStart() throws {
        let clock = InputClock()
        let stream = try spring(to: 1.0, from: 0, frameInterval: 0.25, on: clock)
        let first = Recorder(stream)
        clock.advance(to: 0.125)
        let second = Recorder(stream)
        clock.advance(to: 0.25)
        #expect(first.values.count == 2)
        #expect(second.values.count == 1)
        clock.advance(to: 0.375)
        #expect(second.values == Array(first.values.prefix(2)))
    }

    @Test func outOfRangeOptionsThrowNamingTheOption() {
        let clock = InputClock()
        #expect { try spring(to: 1.0, from: 0, stiffness: 0, on: clock) } throws: { ($0 as? OptionError)?.option == "stiffness" }
        #expect { try spring(to: 1.0, from: 0, damping: -1, on: clock) } throws: { ($0 as? OptionError)?.option == "damping" }
        #expect { try spring(to: 1.0, from: 0, mass: 0, on: clock) } throws: { ($0 as? OptionError)?.option == "mass" }
        #expect { try spring(to: 1.0, from: 0, frameInterval: 0, on: clock) } throws: { ($0 as? OptionError)?.option == "frameInterval" }
    }
}
