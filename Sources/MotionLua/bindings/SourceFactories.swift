import CLua
import MotionStreams

/// `motion.spring{to=, from=, velocity=0, stiffness=342, damping=30, mass=1}` and
/// `motion.tween{values={…}, duration=, offsets=, timingFunction="easeInOut"}`: sources on input
/// time (reference.md), of numbers or of points `{x=, y=}` (all values of one kind). Each
/// subscription starts its own animation at the current input time; its values are stamped
/// with the input time they fall due. Timing functions: "linear", "easeIn", "easeOut",
/// "easeInOut", or a cubic Bézier `{x1, y1, x2, y2}`.
enum SourceFactories {
    static let functions: [(String, Binding)] = [
        ("spring", BindingTable.register("motion.spring", spring)),
        ("tween", BindingTable.register("motion.tween", tween)),
    ]

    static func spring(_ call: LuaCall) throws -> Int32 {
        let options = try Options(call, at: 1, for: call.name,
                                  known: ["to", "from", "velocity", "stiffness", "damping", "mass"])
        guard let to = try options.value("to"), let from = try options.value("from") else {
            throw LuaBindingError("motion.spring: options 'to' and 'from' are required")
        }
        let velocity = try options.value("velocity")
        let stiffness = try options.number("stiffness", min: 0, exclusiveMin: true) ?? SpringDefaults.stiffness
        let damping = try options.number("damping", min: 0, exclusiveMin: true) ?? SpringDefaults.damping
        let mass = try options.number("mass", min: 0, exclusiveMin: true) ?? SpringDefaults.mass
        let clock = call.runtime.dispatcher.clock
        func make<T: MotionVector>(_ extract: (MotionValue) -> T?, _ wrap: @escaping (T) -> MotionValue) throws -> MotionObservable<MotionValue>? {
            guard let to = extract(to), let from = extract(from) else { return nil }
            var initialVelocity = T.zero
            if let velocity {
                guard let v = extract(velocity) else { return nil }
                initialVelocity = v
            }
            return try MotionStreams.spring(to: to, from: from, initialVelocity: initialVelocity, stiffness: stiffness,
                                            damping: damping, mass: mass, on: clock,
                                            onFailure: stopRun(call, "motion.spring"))._map(wrap)
        }
        guard let source = try make({ $0.number }, { .number($0) }) ?? make({ $0.point }, { .point($0) }) else {
            throw LuaBindingError("motion.spring: options 'to', 'from' and 'velocity' must all be numbers or all be points {x=, y=}")
        }
        return try StreamMethods.push(onClockTime(source, call.runtime), call)
    }

    static func tween(_ call: LuaCall) throws -> Int32 {
        let options = try Options(call, at: 1, for: call.name, known: ["values", "duration", "offsets", "timingFunction"])
        guard case .array(let values)? = try options.value("values"), !values.isEmpty else {
            throw LuaBindingError("motion.tween: option 'values' must be a non-empty list of numbers or of points")
        }
        guard let duration = try options.seconds("duration", min: 0) else {
            throw LuaBindingError("motion.tween: option 'duration' is required")
        }
        var offsets: [Double]?
        if let given = try options.value("offsets") {
            guard case .array(let items) = given, let numbers = Optional(items.compactMap(\.number)), numbers.count == items.count else {
                throw LuaBindingError("motion.tween: option 'offsets' must be a list of numbers")
            }
            offsets = numbers
        }
        let timing = try timingFunction(try options.value("timingFunction"))
        let clock = call.runtime.dispatcher.clock
        func make<T: MotionVector>(_ extract: (MotionValue) -> T?, _ wrap: @escaping (T) -> MotionValue) throws -> MotionObservable<MotionValue>? {
            let typed = values.compactMap(extract)
            guard typed.count == values.count else { return nil }
            return try MotionStreams.tween(values: typed, duration: duration, offsets: offsets,
                                           timingFunctions: [timing], on: clock,
                                           onFailure: stopRun(call, "motion.tween"))._map(wrap)
        }
        guard let source = try make({ $0.number }, { .number($0) }) ?? make({ $0.point }, { .point($0) }) else {
            throw LuaBindingError("motion.tween: option 'values' must be all numbers or all points {x=, y=}")
        }
        return try StreamMethods.push(onClockTime(source, call.runtime), call)
    }

    static func timingFunction(_ value: MotionValue?) throws -> TimingFunction {
        switch value {
        case nil: return TweenDefaults.timingFunction
        case .string("linear")?: return .linear
        case .string("easeIn")?: return .easeIn
        case .string("easeOut")?: return .easeOut
        case .string("easeInOut")?: return .easeInOut
        case .array(let items)? where items.count == 4 && items.allSatisfy { $0.number != nil }:
            let n = items.map { $0.number! }
            return try TimingFunction(n[0], n[1], n[2], n[3])
        default:
            throw LuaBindingError("motion.tween: option 'timingFunction' must be \"linear\", \"easeIn\", \"easeOut\", \"easeInOut\" or {x1, y1, x2, y2}")
        }
    }

    /// A source that cannot go on stops the run with an error naming it and where it was made.
    static func stopRun(_ call: LuaCall, _ name: String) -> (String) -> Void {
        let place = call.place
        return { [gate = call.runtime.gate] message in
            gate.runtime?.fail(.runtime, "\(place) \(name): \(message)")
        }
    }

    /// Values a source emits from the input clock are stamped with the clock's time; what it
    /// emits at subscription keeps the current time.
    static func onClockTime(_ source: MotionObservable<MotionValue>, _ runtime: LuaRuntime) -> MotionObservable<MotionValue> {
        // Not owning: the runtime's clock holds these closures while an animation is scheduled.
        let gate = runtime.gate
        return MotionObservable { observer in
            var connecting = true
            let subscription = source.subscribe(
                next: { value in
                    guard let runtime = gate.runtime, !connecting else { return observer.next(value) }
                    runtime.withTime(runtime.dispatcher.clock.now) { observer.next(value) }
                },
                state: { state in
                    guard let runtime = gate.runtime, !connecting else { return observer.state(state) }
                    runtime.withTime(runtime.dispatcher.clock.now) { observer.state(state) }
                })
            connecting = false
            return { subscription.unsubscribe() }
        }
    }
}

extension Options {
    /// Any value a stream can carry.
    func value(_ key: String) throws -> MotionValue? {
        try withField(key) {
            do {
                return try LuaConversion.value(call.lua, at: -1)
            } catch let error as LuaBindingError {
                throw LuaBindingError("\(function): option '\(key)' is \(error.message)")
            }
        }
    }
}
