import CLua
import MotionJSON
import MotionStreams

/// The value operators of the Material Motion catalog (reference.md) as stream methods, each
/// the Swift operator of the same name applied to the stream's values:
/// `distance(from)` (a number, point, stream or property), `ignoreUntil(v)`, `inverted()`, `lowerBound(min)`, `upperBound(max)`,
/// `merge(other, …)`, `normalized(by)`, `offset(by)`, `scaled(by)`, `rewrite(table)`,
/// `rewriteTo(v)`, `rewriteRange(a, b, c, d)`, `rubberBanded(below, above, maxLength)`,
/// `slop(size)`, `startWith(v)`, `threshold(t)`, `thresholdRange(min, max)`, `valve(open)`,
/// `xLocked(to)`, `yLocked(to)`, `delay(seconds)`, `toString()`.
///
/// Where the Swift operator has a number and a point form, the argument picks it (`offset(5)`
/// expects numbers, `offset({x = 1, y = 2})` points); `scaled(by)` takes a number and scales
/// numbers and points alike. A value of the wrong kind at event time stops the script with the
/// `file:line` of the method call.
enum ValueOperatorMethods {
    static let all: [(String, Binding)] = [
        method("distance") { call, s in
            if lua_type(call.lua.L, 2) == LUA_TUSERDATA { return try distance(call, s, from: try call.stream(2)) }
            switch try numberOrPoint(call, 2) {
            case .number(let n): return s.numbers(call).distance(from: n)._map(MotionValue.number)
            case .point(let p): return s.points(call).distance(from: p)._map(MotionValue.number)
            }
        },
        method("ignoreUntil") { call, s in s.ignoreUntil(try call.value(2)) },
        method("inverted") { call, s in s.bools(call).inverted()._map(MotionValue.bool) },
        method("lowerBound") { call, s in s.numbers(call).lowerBound(try call.number(2))._map(MotionValue.number) },
        method("upperBound") { call, s in s.numbers(call).upperBound(try call.number(2))._map(MotionValue.number) },
        method("merge") { call, s in
            guard call.argumentCount >= 2 else { throw call.badArgument(2, "stream") }
            return s.merge(with: try (2...call.argumentCount).map { try call.stream($0) })
        },
        method("normalized") { call, s in
            switch try numberOrPoint(call, 2) {
            case .number(let n): return s.numbers(call).normalized(by: n)._map(MotionValue.number)
            case .point(let p): return s.points(call).normalized(by: p)._map(MotionValue.point)
            }
        },
        method("offset") { call, s in
            switch try numberOrPoint(call, 2) {
            case .number(let n): return s.numbers(call).offset(by: n)._map(MotionValue.number)
            case .point(let p): return s.points(call).offset(by: p)._map(MotionValue.point)
            }
        },
        method("scaled") { call, s in
            let amount = try call.number(2)
            return s.checked(call, "numbers or points") { value in
                switch value {
                case .number(let n): return .number(n * amount)
                case .integer(let i): return .number(Double(i) * amount)
                case .point(let p): return .point(p * amount)
                default: return nil
                }
            }
        },
        method("rewrite", rewrite),
        method("rewriteTo") { call, s in s.rewriteTo(try call.value(2)) },
        method("rewriteRange") { call, s in
            s.numbers(call).rewriteRange(start: try call.number(2), end: try call.number(3),
                                         destinationStart: try call.number(4), destinationEnd: try call.number(5))
                ._map(MotionValue.number)
        },
        method("rubberBanded") { call, s in
            let maxLength = try call.number(4)
            switch (try numberOrPoint(call, 2), try numberOrPoint(call, 3)) {
            case let (.number(below), .number(above)):
                return s.numbers(call).rubberBanded(below: below, above: above, maxLength: maxLength)._map(MotionValue.number)
            case let (.point(below), .point(above)):
                return s.points(call).rubberBanded(below: below, above: above, maxLength: maxLength)._map(MotionValue.point)
            default:
                throw LuaBindingError("rubberBanded: 'below' and 'above' must both be numbers or both be points")
            }
        },
        method("slop") { call, s in s.numbers(call).slop(size: try call.number(2))._map { .string($0.rawValue) } },
        method("startWith") { call, s in s.startWith(try call.value(2)) },
        method("threshold") { call, s in s.numbers(call).threshold(try call.number(2))._map { .string($0.rawValue) } },
        method("thresholdRange") { call, s in
            let min = try call.number(2), max = try call.number(3)
            guard min <= max else { throw LuaBindingError("thresholdRange: min (\(JSONText.number(min))) must be <= max (\(JSONText.number(max)))") }
            return s.numbers(call).thresholdRange(min: min, max: max)._map { .string($0.rawValue) }
        },
        method("valve") { call, s in
            let open = try call.stream(2)
            return s.valve(open.checked(call, "booleans (the valve's open stream)") { value in
                if case .bool(let b) = value { return b }
                return nil
            })
        },
        method("xLocked") { call, s in s.points(call).xLocked(to: try call.number(2))._map(MotionValue.point) },
        method("yLocked") { call, s in s.points(call).yLocked(to: try call.number(2))._map(MotionValue.point) },
        method("delay", delay),
        method("toString") { call, s in s._map { .string(text($0)) } },
    ]

    /// Registers `body(call, stream at argument 1)`, pushing the stream it returns.
    private static func method(_ name: String,
                               _ body: @escaping @Sendable (LuaCall, MotionObservable<MotionValue>) throws -> MotionObservable<MotionValue>) -> (String, Binding) {
        (name, BindingTable.register(name) { call in try StreamMethods.push(try body(call, try call.stream(1)), call) })
    }

    private enum NumberOrPoint { case number(Double), point(Point) }

    private static func numberOrPoint(_ call: LuaCall, _ index: Int32) throws -> NumberOrPoint {
        switch try call.value(index) {
        case .number(let n): return .number(n)
        case .integer(let i): return .number(Double(i))
        case .point(let p): return .point(p)
        default: throw call.badArgument(index, "number or point {x=, y=}")
        }
    }

    /// `s:distance(stream or property)`: the distance of the latest value from its latest value,
    /// numbers from a number and points from a point, each time either changes once both have
    /// emitted (Material Motion's `distance(from:)`: a `from` that moves re-emits).
    static func distance(_ call: LuaCall, _ s: MotionObservable<MotionValue>,
                         from location: MotionObservable<MotionValue>) throws -> MotionObservable<MotionValue> {
        let runtime = call.runtime
        let place = call.place
        return s._combineLatest(location) { (value: MotionValue, origin: MotionValue, next: (MotionValue) -> Void) in
                if let v = value.number, let o = origin.number {
                    next(.number(abs(v - o)))
                    return
                }
                switch (value, origin) {
                case let (.point(v), .point(o)): next(.number((v - o).length))
                default:
                    runtime.fail(.runtime, "\(place) distance() needs values and location of one kind (numbers or points), got a \(value.kindName) and a \(origin.kindName)")
                }
        }
    }

    /// `s:rewrite{[from] = to, …}`: each value with an entry emits the entry; others nothing.
    /// Keys and values compare as they print (1 and 1.0 are the same key; "1" is another).
    static func rewrite(_ call: LuaCall, _ s: MotionObservable<MotionValue>) throws -> MotionObservable<MotionValue> {
        try call.table(2)
        var map: [String: MotionValue] = [:]
        let lua = call.lua
        lua.pushNil()
        while lua_next(lua.L, 2) != 0 {
            let value = try call.value(-1)
            lua.pop()
            map[JSONText.value(try call.value(-1))] = value
        }
        return s._map { JSONText.value($0) }.rewrite(map)
    }

    /// `s:delay(seconds)`: on input time; a delayed value is stamped with the time it fell due.
    static func delay(_ call: LuaCall, _ s: MotionObservable<MotionValue>) throws -> MotionObservable<MotionValue> {
        let seconds = try call.number(2)
        guard seconds >= 0, seconds.isFinite else {
            throw LuaBindingError("delay: seconds must be >= 0 and finite, got \(JSONText.number(seconds))")
        }
        DurationWarning.check(seconds, "delay", call)
        // Not owning: the clock and the runtime own what is scheduled, not the other way round.
        let gate = call.runtime.gate
        let delayed = s.delay(by: seconds, on: call.runtime.dispatcher.clock)
        return MotionObservable { observer in
            let subscription = delayed.subscribe(
                next: { value in
                    guard let runtime = gate.runtime else { return }
                    runtime.withTime(runtime.dispatcher.clock.now) { observer.next(value) }
                },
                state: { state in
                    guard let runtime = gate.runtime else { return }
                    runtime.withTime(runtime.dispatcher.clock.now) { observer.state(state) }
                })
            return { subscription.unsubscribe() }
        }
    }

    /// `toString()`: strings stay as they are; numbers print as in output lines ("20", "0.5");
    /// everything else as its JSON text.
    static func text(_ value: MotionValue) -> String {
        if case .string(let s) = value { return s }
        return JSONText.value(value)
    }
}

extension MotionObservable where T == MotionValue {
    /// The values `extract` accepts; any other value fails the script: "`place` `method`() expects
    /// a stream of `expected`, got a `kind`".
    func checked<U>(_ call: LuaCall, _ expected: String, _ extract: @escaping (MotionValue) -> U?) -> MotionObservable<U> {
        let gate = call.runtime.gate
        let place = call.place
        let method = call.name
        return _nextOperator { (value: MotionValue, next: (U) -> Void) in
            guard let result = extract(value) else {
                gate.runtime?.fail(.runtime, "\(place) \(method)() expects a stream of \(expected), got a \(value.kindName)")
                return
            }
            next(result)
        }
    }

    func numbers(_ call: LuaCall) -> MotionObservable<Double> { checked(call, "numbers") { $0.number } }
    func points(_ call: LuaCall) -> MotionObservable<Point> { checked(call, "points") { $0.point } }
    func bools(_ call: LuaCall) -> MotionObservable<Bool> {
        checked(call, "booleans") { value in
            if case .bool(let b) = value { return b }
            return nil
        }
    }
}
