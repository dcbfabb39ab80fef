import MotionGestures
import MotionStreams

/// Methods of streams (and of properties, which are streams too).
enum StreamMethods {
    /// Every stream method: these, the gesture operators and the value operator catalog.
    static let all: [(String, Int)] = core + GestureOperatorMethods.all + ValueOperatorMethods.all

    static let core: [(String, Int)] = [
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

    static func push(_ observable: MotionObservable<MotionValue>, _ call: LuaCall) -> Int32 {
        LuaObject.push(LuaStream(observable), .stream, on: call.lua)
        return 1
    }

    static func pushSubscription(_ subscription: Subscription, _ call: LuaCall) -> Int32 {
        call.runtime.keep(subscription)
        LuaObject.push(SubscriptionBox(subscription), .subscription, on: call.lua)
        return 1
    }

    /// `s:subscribe(onNext [, onState])` or `s:subscribe(property)`.
    static func subscribe(_ call: LuaCall) throws -> Int32 {
        let stream = try call.stream(1)
        if let target: LuaProperty = LuaObject.get(call.lua, at: 2, .property) {
            let runtime = call.runtime
            let place = call.place
            return pushSubscription(stream.subscribe(next: { PropertyMethods.write($0, to: target, runtime, place) }), call)
        }
        let onNext = try call.function(2)
        let onState = call.lua.isNoneOrNil(3) ? nil : try call.function(3)
        let subscription = stream.subscribe(
            next: { _ = onNext.call($0) },
            state: { state in _ = onState?.call(.string(state.name)) })
        // A callback switched off after an error (live input) takes its subscription with it.
        let runtime = call.runtime
        let end = { [weak runtime, weak subscription] in
            guard let subscription else { return }
            subscription.unsubscribe()
            runtime?.forget(subscription)
        }
        onNext.onDisabled = end
        onState?.onDisabled = end
        return pushSubscription(subscription, call)
    }

    /// `s:emit(name)`: output lines for values and states.
    static func emit(_ call: LuaCall) throws -> Int32 {
        let stream = try call.stream(1)
        let name = try call.string(2)
        let runtime = call.runtime
        let output = runtime.output
        let subscription = stream.subscribe(
            next: { output.emit(t: runtime.time, name: name, value: $0) },
            state: { output.emit(t: runtime.time, name: name, state: $0) })
        return pushSubscription(subscription, call)
    }

    static func map(_ call: LuaCall) throws -> Int32 {
        let stream = try call.stream(1)
        let transform = try call.function(2)
        return push(stream._nextOperator { value, next in
            if let result = transform.call(value) { next(result) }
        }, call)
    }

    static func filter(_ call: LuaCall) throws -> Int32 {
        let stream = try call.stream(1)
        let predicate = try call.function(2)
        return push(stream._filter { predicate.test($0) }, call)
    }

    static func dedupe(_ call: LuaCall) throws -> Int32 {
        push(try call.stream(1).dedupe(), call)
    }

    static func log(_ call: LuaCall) throws -> Int32 {
        let stream = try call.stream(1)
        let label = try call.optionalString(2) ?? ""
        let runtime = call.runtime
        let output = runtime.output
        return push(stream._nextOperator { value, next in
            output.log((label.isEmpty ? "" : label + " ") + JSONText.value(value))
            next(value)
        }, call)
    }

    static func component(_ key: KeyPath<Point, Double>, _ name: String, _ call: LuaCall) throws -> Int32 {
        let stream = try call.stream(1)
        let runtime = call.runtime
        let place = call.place
        return push(stream._nextOperator { value, next in
            guard case .point(let p) = value else {
                runtime.fail(.runtime, "\(place) \(name)() expects a stream of points, got a \(value.kindName)")
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
            return push(try GestureOperatorMethods.gestures(call, name, kinds: [.translation, .tap])
                .translation(in: element)._map { MotionValue.point($0) }, call)
        }
        let gestures = try GestureOperatorMethods.gestures(call, name, kinds: [.translation])
        let read = try initialValueReader(call, index: 2, expecting: "point")
        let element = try call.element(3)
        let points = gestures.translation(addedTo: { read()?.point }, in: element)
        return push(points._map { MotionValue.point($0) }, call)
    }

    /// How an `addedTo` argument is read when a gesture begins: a property is read; any other
    /// stream is followed for as long as the script runs and its latest value is used.
    static func initialValueReader(_ call: LuaCall, index: Int32, expecting kind: String) throws -> () -> MotionValue? {
        let runtime = call.runtime
        let place = call.place
        let check: (MotionValue?) -> MotionValue? = { value in
            guard let value else { return nil }
            let ok = kind == "point" ? value.point != nil : value.number != nil
            if !ok { runtime.fail(.runtime, "\(place) the initial value is a \(value.kindName), expected a \(kind)") }
            return ok ? value : nil
        }
        if let property: LuaProperty = LuaObject.get(call.lua, at: index, .property) {
            return { check(property.property.read()) }
        }
        let stream = try call.stream(index)
        let latest = LatestValue()
        call.runtime.keep(stream.subscribe(next: { latest.value = $0 }))
        return { check(latest.value) }
    }
}

private final class LatestValue {
    var value: MotionValue?
}

extension MotionState {
    /// The name used in output lines and passed to Lua state callbacks.
    public var name: String { self == .active ? "active" : "atRest" }
}
