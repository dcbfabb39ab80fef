import CLuaShim
import MotionStreams

/// `p:read()` and `p:write(v)`; properties have every stream method too.
enum PropertyMethods {
    static let all: [(String, Binding)] = [
        ("read", BindingTable.register("read", read)),
        ("write", BindingTable.register("write", write)),
    ]

    static let maxWriteDepth = 100

    static func read(_ call: LuaCall) throws -> Int32 {
        let box: LuaProperty = try call.object(1, .property)
        try LuaConversion.push(box.property.read(), on: call.lua)
        return 1
    }

    static func write(_ call: LuaCall) throws -> Int32 {
        let box: LuaProperty = try call.object(1, .property)
        write(try call.value(2), to: box, call.runtime, call.place)
        return 0
    }

    /// `write` when it has nothing to report: true if the value was written or the runtime has
    /// closed (nothing is written then); false when `write` must run to report the problem.
    static func tryWrite(_ value: MotionValue, to box: LuaProperty, _ gate: LuaCallGate) -> Bool {
        guard gate.isOpen else { return true }
        if box.property.observerCount == 0 {
            // A write nobody observes goes no deeper: it can neither loop nor run out of stack.
            store(value, in: box)
            return true
        }
        guard ms_stacklow(LuaRuntime.stackReserve) == 0, box.writeDepth < maxWriteDepth else { return false }
        box.writeDepth += 1
        defer { box.writeDepth -= 1 }
        store(value, in: box)
        return true
    }

    /// Points and numbers (what drags, pinches and turns write) are stored as made here: no copy
    /// of a general value.
    @inline(__always)
    private static func store(_ value: MotionValue, in box: LuaProperty) {
        if case .point(let p) = value {
            box.property.write(.point(p))
        } else if case .number(let x) = value {
            box.property.write(.number(x))
        } else {
            box.property.write(value)
        }
    }

    /// `s:subscribe(property)` for a stream of unboxed points or numbers: the same writes, the
    /// value boxed only as it is stored.
    static func subscribe(_ target: LuaProperty, to values: UnboxedValues, _ call: LuaCall) -> Subscription {
        let gate = call.runtime.gate
        let place = call.place
        switch values {
        case .points(let points):
            return points.subscribe(next: { p in
                if tryWrite(.point(p), to: target, gate) { return }
                if let runtime = gate.runtime { write(.point(p), to: target, runtime, place) }
            })
        case .numbers(let numbers):
            return numbers.subscribe(next: { x in
                if tryWrite(.number(x), to: target, gate) { return }
                if let runtime = gate.runtime { write(.number(x), to: target, runtime, place) }
            })
        }
    }

    /// Writes with a guard: a property written, through its own subscriptions, more than
    /// `maxWriteDepth` times within one write is a loop, reported instead of overflowing.
    @inline(__always)
    static func write(_ value: MotionValue, to box: LuaProperty, _ runtime: LuaRuntime, _ place: String) {
        guard !runtime.isClosed else { return }
        if box.property.observerCount == 0 {
            // A write nobody observes goes no deeper: it can neither loop nor run out of stack.
            store(value, in: box)
            return
        }
        // With a whole reserve of stack left it is not low: the full check only near the end.
        guard ms_stackleft() >= LuaRuntime.stackReserve || runtime.hasStackLeft(place) else { return }
        guard box.writeDepth < maxWriteDepth else {
            runtime.fail(.runtime, "\(place) a property is written from its own subscription in a loop")
            return
        }
        box.writeDepth += 1
        defer { box.writeDepth -= 1 }
        store(value, in: box)
    }
}
