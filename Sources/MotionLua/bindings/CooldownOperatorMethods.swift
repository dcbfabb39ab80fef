import MotionJSON
import MotionStreams

/// `s:throttle(seconds)` and `s:debounce(seconds)`: cooldowns on input time (the time of the
/// value arriving, `motion.time()`); a debounced value is stamped with the time it fell due.
enum CooldownOperatorMethods {
    static let all: [(String, Binding)] = [
        ("throttle", BindingTable.register("throttle") { call in
            let stream = try call.stream(1)
            let seconds = try CooldownOperatorMethods.seconds(call, "throttle")
            let runtime = call.runtime
            return try StreamMethods.push(stream.throttle(seconds, now: { runtime.time }), call)
        }),
        ("debounce", BindingTable.register("debounce") { call in
            let stream = try call.stream(1)
            let seconds = try CooldownOperatorMethods.seconds(call, "debounce")
            let runtime = call.runtime
            let clock = runtime.dispatcher.clock
            let debounced = stream.debounce(seconds, on: clock, now: { runtime.time })
            return try StreamMethods.push(MotionObservable { observer in
                let subscription = debounced.subscribe(
                    next: { value in runtime.withTime(clock.now) { observer.next(value) } },
                    state: { state in observer.state(state) })
                return { subscription.unsubscribe() }
            }, call)
        }),
    ]

    static func seconds(_ call: LuaCall, _ name: String) throws -> Double {
        let seconds = try call.number(2)
        guard seconds >= 0, seconds.isFinite else {
            throw LuaBindingError("\(name): seconds must be >= 0 and finite, got \(JSONText.number(seconds))")
        }
        DurationWarning.check(seconds, name, call)
        return seconds
    }
}
