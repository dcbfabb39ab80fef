import CLua
import MotionGestures
import MotionStreams

/// `motion.rotation{}`, `motion.scale{}`, `motion.tap{}`, `motion.tapSource(tap [, E])`, and
/// the tap recognizers' method `requireToFail`.
///
/// Require-to-fail is spelled `single:requireToFail(double)` (it returns `single`, so it chains),
/// or, when the tap is made, `motion.tap{requireToFail = double}` (one recognizer or a list).
/// The single tap then waits: a tap that completes while `double` is in progress is recognized
/// only when `double` fails (stamped with the time `double` failed), and fails if `double` is
/// recognized. Every recognizer kind can wait (`GestureRecognizer.require(toFail:)`): a pinch
/// and a 2-finger swipe, or a swipe and a hold, are made exclusive so.
enum RecognizerFactories {
    static let functions: [(String, Binding)] = [
        ("rotation", BindingTable.register("motion.rotation") { try pair($0, kind: .rotation) }),
        ("scale", BindingTable.register("motion.scale") { try pair($0, kind: .scale) }),
        ("tap", BindingTable.register("motion.tap", tap)),
        ("tapSource", BindingTable.register("motion.tapSource", tapSource)),
    ]

    /// The most require-to-fail relations one script may make. A recognizer's decision runs
    /// the listeners of every tap waiting on it, recursively, and releasing a chain of them
    /// recurses too: a bound on the relations bounds the depth of both.
    static let maxRequirements = 256

    /// Counts one more relation against `maxRequirements`.
    static func addRequirement(_ call: LuaCall, _ function: String) throws {
        guard call.runtime.requirementCount < maxRequirements else {
            throw LuaBindingError("\(function): more than \(maxRequirements) require-to-fail relations in one script")
        }
        call.runtime.requirementCount += 1
    }

    static let recognizerMethods: [(String, Binding)] = [
        ("requireToFail", BindingTable.register("requireToFail", requireToFail)),
    ]

    /// `motion.rotation{element=, threshold=, enabled=}` (threshold in radians, default π/36) and
    /// `motion.scale{element=, threshold=, enabled=}` (|scale − 1|, default 0.05).
    static func pair(_ call: LuaCall, kind: GestureKind) throws -> Int32 {
        let options = try Options(call, at: 1, for: call.name, known: ["element", "threshold", "enabled", "fingers", "requireToFail"])
        let element = try options.element() ?? .screen
        let threshold = try options.number("threshold", min: 0)
        let recognizer: GestureRecognizer = kind == .rotation
            ? try RotationGestureRecognizer(element: element, threshold: threshold ?? RotationGestureRecognizer.defaultThreshold)
            : try ScaleGestureRecognizer(element: element, threshold: threshold ?? ScaleGestureRecognizer.defaultThreshold)
        try options.applyCommon(to: recognizer)
        return MotionModule.add(recognizer, call)
    }

    /// `motion.tap{element=, taps=1, maxDuration=0.3, maxMovement=10, interval=0.3, requireToFail=, enabled=}`.
    static func tap(_ call: LuaCall) throws -> Int32 {
        let options = try Options(call, at: 1, for: call.name,
                                  known: ["element", "taps", "maxDuration", "maxMovement", "interval", "requireToFail", "enabled", "fingers"])
        let recognizer = try TapGestureRecognizer(
            element: try options.element() ?? .screen,
            taps: try options.integer("taps", min: 1) ?? TapGestureRecognizer.defaultTaps,
            maxDuration: try options.seconds("maxDuration", min: 0, exclusiveMin: true) ?? TapGestureRecognizer.defaultMaxDuration,
            maxMovement: try options.number("maxMovement", min: 0) ?? TapGestureRecognizer.defaultMaxMovement,
            interval: try options.seconds("interval", min: 0) ?? TapGestureRecognizer.defaultInterval)
        try options.applyCommon(to: recognizer)
        return MotionModule.add(recognizer, call)
    }

    /// `tap:requireToFail(other)`: see the type's documentation. Returns the tap.
    static func requireToFail(_ call: LuaCall) throws -> Int32 {
        let box: RecognizerBox = try call.object(1, .recognizer)
        let other: RecognizerBox = try call.object(2, .recognizer)
        guard other.recognizer !== box.recognizer else { throw LuaBindingError("requireToFail: a recognizer cannot wait for itself to fail") }
        try addRequirement(call, "requireToFail")
        box.recognizer.require(toFail: other.recognizer)
        call.lua.pushValue(at: 1)
        return 1
    }

    /// `motion.tapSource(tap [, E])` (seed 003): on each recognition `state(active)`,
    /// `next(location)` (a point, in E, by default the tap's element), `state(atRest)`.
    static func tapSource(_ call: LuaCall) throws -> Int32 {
        let box: RecognizerBox = try call.object(1, .recognizer)
        guard let tap = box.recognizer as? TapGestureRecognizer else {
            throw LuaBindingError("bad argument #1 to 'motion.tapSource' (tap recognizer expected, got a \(box.recognizer.value.kind.rawValue) recognizer)")
        }
        let element: Element? = call.lua.isNoneOrNil(2) ? nil : try call.element(2)
        let locations = MotionGestures.tapSource(tap, in: element)._map { MotionValue.point($0) }
        return try StreamMethods.push(stamped(locations, by: tap, call.runtime), call)
    }

    /// What a recognizer's listeners cause downstream happens at the time of the recognizer's
    /// value (`LuaRuntime.time`): a tap recognized or failed because an interval ran out is
    /// stamped with the time it fell due, not with the frame that revealed it. What the source
    /// replays at subscription, and what a script causes itself (disabling a recognizer from a
    /// callback), keep the current time.
    static func stamped<T>(_ source: MotionObservable<T>, by recognizer: GestureRecognizer,
                           _ runtime: LuaRuntime) -> MotionObservable<T> {
        // Not owning: the recognizer (owned by the runtime's dispatcher) holds these closures.
        let gate = runtime.gate
        return MotionObservable { observer in
            var connecting = true
            // The usual case, a value of the frame being handled, takes the short path.
            let subscription = source.subscribe(
                next: { value in
                    let t = recognizer.value.t
                    guard let runtime = gate.runtime, !connecting, t != runtime.dispatcher.time, !runtime.isTimeSet else { return observer.next(value) }
                    runtime.withTime(t) { observer.next(value) }
                },
                state: { state in
                    let t = recognizer.value.t
                    guard let runtime = gate.runtime, !connecting, t != runtime.dispatcher.time, !runtime.isTimeSet else { return observer.state(state) }
                    runtime.withTime(t) { observer.state(state) }
                })
            connecting = false
            return { subscription.unsubscribe() }
        }
    }
}

extension Options {
    /// A recognizer, or a non-empty list of recognizers.
    func recognizers(_ key: String) throws -> [GestureRecognizer]? {
        try withField(key) {
            let lua = call.lua
            if let box: RecognizerBox = LuaObject.get(lua, at: -1, .recognizer) { return [box.recognizer] }
            let problem = LuaBindingError("\(function): option '\(key)' must be a recognizer or a list of recognizers, got \(lua.typeName(at: -1))")
            guard lua.isTable(-1) else { throw problem }
            var result: [GestureRecognizer] = []
            let count = lua_rawlen(lua.L, -1)
            guard count > 0 else { throw problem }
            for i in 1...count {
                lua_rawgeti(lua.L, -1, lua_Integer(i))
                defer { lua.pop() }
                guard let box: RecognizerBox = LuaObject.get(lua, at: -1, .recognizer) else { throw problem }
                result.append(box.recognizer)
            }
            return result
        }
    }
}
