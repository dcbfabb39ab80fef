import MotionGestures
import MotionJSON
import MotionStreams

/// Methods of streams (and of properties, which are streams too).
enum StreamMethods {
    /// Every stream method: these, the gesture operators and the value operator catalog.
    static let all: [(String, Binding)] = core + GestureOperatorMethods.all + ValueOperatorMethods.all + CooldownOperatorMethods.all

    static let core: [(String, Binding)] = [
        ("subscribe", BindingTable.register("subscribe", subscribe)),
        ("emit", BindingTable.register("emit", emit)),
        ("map", BindingTable.register("map", map)),
        ("filter", BindingTable.register("filter", filter)),
        ("dedupe", BindingTable.register("dedupe", dedupe)),
        ("log", BindingTable.register("log", log)),
        ("x", BindingTable.register("x", { try component(\.x, "x", $0) })),
        ("y", BindingTable.register("y", { try component(\.y, "y", $0) })),
        ("translation", BindingTable.register("translation", { try translation($0, name: "translation") })),
        ("translated", BindingTable.register("translated", { try translation($0, name: "translated") })),
    ]

    /// The longest chain of operators a stream may be: subscribing, and every value, recurse
    /// through the whole chain on the native stack, so a longer one is refused when it is made.
    static let maxChainDepth = 1000
    /// The most operators one subscription may connect: a stream merged with itself doubles
    /// at each step, and 30 such steps would connect a billion.
    static let maxConnections = 100_000

    /// Pushes a stream made by the binding from the streams among its arguments, one operator
    /// deeper than the deepest of them; refused past `maxChainDepth` or `maxConnections`.
    static func push(_ observable: MotionObservable<MotionValue>, _ call: LuaCall,
                     unboxed: UnboxedValues? = nil, endsAtRest animation: Bool = false) throws -> Int32 {
        var depth = 0
        var connections = 1
        var inputs = 0, finiteInputs = 0
        if call.argumentCount > 0 {
            for index in 1...call.argumentCount {
                if LuaObject.get(call.lua, at: index, .property) as LuaProperty? != nil { inputs += 1 }
                guard let input: LuaStream = LuaObject.get(call.lua, at: index, .stream) else { continue }
                input.used = true
                depth = max(depth, input.depth)
                connections = min(connections + input.connections, maxConnections + 1)
                inputs += 1
                if input.endsAtRest { finiteInputs += 1 }
            }
        }
        guard depth < maxChainDepth else {
            throw LuaBindingError("\(call.name): a chain of more than \(maxChainDepth) stream operators is too deep (every value would recurse through all of them)")
        }
        guard connections <= maxConnections else {
            throw LuaBindingError("\(call.name): this stream would connect more than \(maxConnections) operators per subscription (a stream used several times counts each time)")
        }
        let stream = LuaStream(observable, depth: depth + 1, connections: connections, unboxed: unboxed)
        stream.endsAtRest = animation || (inputs == 1 && finiteInputs == 1 && !AnimationEnd.outlivesItsSource.contains(call.name))
        LuaObject.push(stream, .stream, on: call.lua)
        return 1
    }

    static func pushSubscription(_ subscription: Subscription, _ call: LuaCall, ending end: AnimationEnd? = nil) -> Int32 {
        call.runtime.keep(subscription)
        end?.attach(subscription)
        LuaObject.push(SubscriptionBox(subscription), .subscription, on: call.lua)
        return 1
    }

    /// `s:subscribe(onNext [, onState])` or `s:subscribe(property)`.
    static func subscribe(_ call: LuaCall) throws -> Int32 {
        let animationEnd = AnimationEnd(call)
        let stream = AnimationEnd.watching(try call.stream(1), by: animationEnd)
        if let target: LuaProperty = LuaObject.get(call.lua, at: 2, .property) {
            if animationEnd == nil, let source: LuaStream = LuaObject.get(call.lua, at: 1, .stream), let unboxed = source.unboxed {
                return pushSubscription(PropertyMethods.subscribe(target, to: unboxed, call), call)
            }
            let gate = call.runtime.gate
            let place = call.place
            return pushSubscription(stream.subscribe(next: { value in
                // Per event: the runtime is reached only to report a problem.
                if PropertyMethods.tryWrite(value, to: target, gate) { return }
                if let runtime = gate.runtime { PropertyMethods.write(value, to: target, runtime, place) }
            }), call, ending: animationEnd)
        }
        let onNext = try call.function(2)
        let onState = call.lua.isNoneOrNil(3) ? nil : try call.function(3)
        let subscription: Subscription
        if let source: LuaStream = LuaObject.get(call.lua, at: 1, .stream), source.isPointers {
            // Raw input to a Lua function, the commonest callback per event: straight from the
            // dispatcher (the source has values only, no states), as the stream would connect it.
            weak let dispatcher = call.runtime.dispatcher
            let id = dispatcher?.addPointerListener { onNext.run(pointer: $0) }
            subscription = Subscription { if let id { dispatcher?.removePointerListener(id) } }
        } else {
            subscription = stream.subscribe(
                next: { onNext.run($0) },
                state: { state in onState?.run(.string(state.name)) })
        }
        // A callback switched off after an error (live input) takes its subscription with it.
        let end = { [gate = call.runtime.gate, weak subscription] in
            guard let subscription else { return }
            subscription.unsubscribe()
            gate.runtime?.forget(subscription)
        }
        onNext.onDisabled = end
        onState?.onDisabled = end
        return pushSubscription(subscription, call, ending: animationEnd)
    }

    /// `s:emit(name)`: output lines for values and for changes of state. Streams repeat their
    /// state (a gesture stream says `active` before every value); the output records only
    /// transitions, so a line with `"state"` always means the state changed.
    static func emit(_ call: LuaCall) throws -> Int32 {
        let end = AnimationEnd(call)
        let stream = AnimationEnd.watching(try call.stream(1), by: end)
        let name = try call.string(2)
        // Not owning (no cycle through the sources' listeners), and silent once the script has ended.
        let gate = call.runtime.gate
        let output = call.runtime.output
        var lastState: MotionState?
        let subscription = stream.subscribe(
            next: { value in
                guard let runtime = gate.runtime, !runtime.isClosed else { return }
                output.emit(t: runtime.time, name: name, value: value)
            },
            state: { state in
                guard let runtime = gate.runtime, !runtime.isClosed else { return }
                guard state != lastState else { return }
                lastState = state
                output.emit(t: runtime.time, name: name, state: state)
            })
        return pushSubscription(subscription, call, ending: end)
    }

    static func map(_ call: LuaCall) throws -> Int32 {
        let stream = try call.stream(1)
        let transform = try call.function(2)
        return try push(stream._nextOperator { value, next in
            transform.map(value, next)
        }, call)
    }

    static func filter(_ call: LuaCall) throws -> Int32 {
        let stream = try call.stream(1)
        let predicate = try call.function(2)
        return try push(stream._filter { predicate.test($0) }, call)
    }

    static func dedupe(_ call: LuaCall) throws -> Int32 {
        try push(try call.stream(1).dedupe(), call)
    }

    static func log(_ call: LuaCall) throws -> Int32 {
        let stream = try call.stream(1)
        let label = try call.optionalString(2) ?? ""
        let output = call.runtime.output
        return try push(stream._nextOperator { value, next in
            output.log((label.isEmpty ? "" : label + " ") + JSONText.value(value))
            next(value)
        }, call)
    }

    static func component(_ key: KeyPath<Point, Double>, _ name: String, _ call: LuaCall) throws -> Int32 {
        let stream = try call.stream(1)
        let gate = call.runtime.gate
        let place = call.place
        return try push(stream._nextOperator { value, next in
            guard case .point(let p) = value else {
                gate.runtime?.fail(.runtime, "\(place) \(name)() expects a stream of points, got a \(value.kindName)")
                return
            }
            next(.number(p[keyPath: key]))
        }, call)
    }

    /// `s:translation(addedTo, E)` (seed 001) and its older name `s:translated(from, E)` (seed 000).
    /// `s:translation([E])`, with no `addedTo`, is the catalog's `translation(in:)`: each
    /// gesture's own translation in E.
    static func translation(_ call: LuaCall, name: String) throws -> Int32 {
        if name == "translation", call.lua.isNoneOrNil(2) || LuaObject.get(call.lua, at: 2, .element) as ElementBox? != nil {
            let element = try call.element(2)
            return try push(try GestureOperatorMethods.gestures(call, name, kinds: [.translation, .tap])
                .translation(in: element)._map { MotionValue.point($0) }, call)
        }
        let gestures = try GestureOperatorMethods.gestures(call, name, kinds: [.translation])
        let element = try call.element(3)
        let points = try initialValue(call, index: 2, expecting: "point") { read in
            gestures.translation(addedTo: { read()?.point }, in: element)
        }
        return try push(points._map { MotionValue.point($0) }, call, unboxed: .points(points))
    }

    /// Builds an `addedTo` operator from how its argument is read when a gesture begins: a
    /// property is read; any other stream is followed while the result is subscribed and its
    /// latest value is used (the Swift operators' `_latestValue`, so both behave the same).
    static func initialValue<U>(_ call: LuaCall, index: Int32, expecting kind: String,
                                _ make: @escaping (_ read: @escaping () -> MotionValue?) -> MotionObservable<U>) throws -> MotionObservable<U> {
        let gate = call.runtime.gate
        let place = call.place
        let check: (MotionValue?) -> MotionValue? = { value in
            guard let value else { return nil }
            let ok = kind == "point" ? value.point != nil : value.number != nil
            if !ok { gate.runtime?.fail(.runtime, "\(place) the initial value is a \(value.kindName), expected a \(kind)") }
            return ok ? value : nil
        }
        if let property: LuaProperty = LuaObject.get(call.lua, at: index, .property) {
            return make { check(property.property.read()) }
        }
        let stream = try call.stream(index)
        return _latestValue(of: stream) { latest in make { check(latest()) } }
    }
}

extension MotionState {
    /// The name used in output lines and passed to Lua state callbacks.
    public var name: String { self == .active ? "active" : "atRest" }
}
