import CLua
import MotionGestures
import MotionStreams

/// `r:on(state, fn)`: calls `fn(g)` each time the recognizer reaches `state`, and returns the
/// subscription. The short form of `motion.gesture(r):subscribe(function(g) if g.state == state
/// then fn(g) end end)`, with one difference that matters: a state the recognizer never
/// reaches (`"ended"` for a swipe, whose gestures are `recognized` or `failed`) is an error at
/// the script's line instead of a callback that silently never runs.
enum RecognizerStateCallbacks {
    static let methods: [(String, Binding)] = [
        ("on", BindingTable.register("on", on)),
    ]

    /// The states recognizers of `kind` report to their listeners (`possible` is where they
    /// rest, never a change).
    static func reachedStates(_ kind: GestureKind) -> [GestureState] {
        switch kind {
        case .tap, .swipe: return [.recognized, .failed]
        default: return [.began, .changed, .ended, .cancelled, .failed]
        }
    }

    static func on(_ call: LuaCall) throws -> Int32 {
        let box: RecognizerBox = try call.object(1, .recognizer)
        let recognizer = box.recognizer
        let kind = recognizer.value.kind
        let reached = reachedStates(kind)
        let names = reached.map(\.rawValue)
        let list = names.dropLast().joined(separator: ", ") + " or " + names.last!
        guard call.lua.type(at: 2) == LUA_TSTRING, let name = call.lua.string(at: 2) else {
            throw LuaBindingError("bad argument #1 to 'on' (a state name expected: \(kind.rawValue)s reach \(list); got \(call.lua.typeName(at: 2)))")
        }
        guard let state = GestureState(rawValue: name), reached.contains(state) else {
            throw LuaBindingError("on: a \(kind.rawValue) never reaches \"\(name)\": \(kind.rawValue)s reach \(list)")
        }
        let callback = try call.function(3)
        let source = gestureSource(recognizer)._filter { $0.state == state }._map { MotionValue.gesture($0) }
        let values = recognizer.decidesOnTime ? RecognizerFactories.stamped(source, by: recognizer, call.runtime) : source
        let subscription = values.subscribe(next: { callback.run($0) })
        // A callback switched off after an error (live input) takes its subscription with it.
        callback.onDisabled = { [gate = call.runtime.gate, weak subscription] in
            guard let subscription else { return }
            subscription.unsubscribe()
            gate.runtime?.forget(subscription)
        }
        return StreamMethods.pushSubscription(subscription, call)
    }
}
