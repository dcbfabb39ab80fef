import Testing
@testable import MotionStreams

@Suite struct InputClockTests {
    @Test func actionsRunInTimeOrderWhenTheClockIsAdvancedPastThem() {
        let clock = InputClock()
        var ran: [String] = []
        clock.schedule(at: 0.2) { ran.append("b@\(clock.now)") }
        clock.schedule(at: 0.1) { ran.append("a@\(clock.now)") }
        clock.schedule(at: 0.2) { ran.append("c@\(clock.now)") }
        clock.advance(to: 0.15)
        #expect(ran == ["a@0.1"])
        #expect(clock.now == 0.15)
        clock.advance(to: 0.2)
        #expect(ran == ["a@0.1", "b@0.2", "c@0.2"])
    }

    @Test func cancelledActionsDoNotRun() {
        let clock = InputClock()
        var ran = false
        let action = clock.schedule(at: 1) { ran = true }
        action.cancel()
        clock.advance(to: 2)
        #expect(!ran)
        #expect(clock.pendingCount == 0)
    }

    @Test func advancingToInfinityRunsEverythingAtItsOwnTime() {
        let clock = InputClock()
        var times: [Double] = []
        clock.schedule(at: 0.5) {
            times.append(clock.now)
            clock.schedule(at: clock.now + 0.25) { times.append(clock.now) }
        }
        clock.advance(to: .infinity)
        #expect(times == [0.5, 0.75])
        #expect(clock.now == 0.75)
    }

    @Test func timeNeverGoesBackwards() {
        let clock = InputClock(now: 1)
        clock.advance(to: 0.5)
        #expect(clock.now == 1)
    }
}

@Suite struct InputClockRunawayTests {
    /// An action that schedules itself at the same instant never lets time move on: the clock
    /// stops after maxActionsPerInstant and says when.
    @Test func anActionReschedulingItselfAtOneInstantStopsTheClock() {
        let clock = InputClock()
        var runs = 0
        func again() { runs += 1; clock.schedule(at: clock.now, again) }
        clock.schedule(at: 1, again)
        var runaway: Double?
        clock.onRunaway = { runaway = $0 }
        clock.advance(to: 2)
        #expect(runaway == 1)
        #expect(runs == InputClock.maxActionsPerInstant)
        #expect(clock.isStopped && clock.nextTime == nil)
        clock.advance(to: 3)
        #expect(runs == InputClock.maxActionsPerInstant)
    }

    /// The host's time limit and interruptions are asked for every 1,024 actions of a drain.
    @Test func aDrainAsksWhetherToStopEvery1024Actions() {
        let clock = InputClock()
        var runs = 0
        for i in 0..<5000 { clock.schedule(at: Double(i) * 1e-3) { runs += 1 } }
        var asked = 0
        clock.shouldStop = { asked += 1; return asked == 2 }
        clock.advance(to: 100)
        #expect(asked == 2)
        #expect(runs == 2048)
        #expect(clock.isStopped)
    }
}
