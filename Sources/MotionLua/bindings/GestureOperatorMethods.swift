import CLua
import MotionGestures
import MotionStreams

/// Stream methods for streams of gesture values: `rotation(addedTo)`, `scale(addedTo)`,
/// `whenRecognitionState(s)`, `whenRecognitionStateIsAnyOf(s1, s2, …)` (either also takes a
/// table of states),
/// `centroid(E)`, `velocity(E)`. A value of the wrong kind at event time stops the script with
/// the `file:line` of the method call.
enum GestureOperatorMethods {
    static let all: [(String, Binding)] = [
        ("rotation", BindingTable.register("rotation") { try addedTo($0, kind: .rotation) }),
        ("scale", BindingTable.register("scale") { try addedTo($0, kind: .scale) }),
        ("whenRecognitionState", BindingTable.register("whenRecognitionState") { call in
            if call.lua.isTable(2) { return try whenRecognitionStateIsAnyOf(call) }
            let state = try recognitionState(call, 2)
            return try StreamMethods.push(try gestures(call, "whenRecognitionState")
                .whenRecognitionState(is: state)._map { MotionValue.gesture($0) }, call)
        }),
        ("whenRecognitionStateIsAnyOf", BindingTable.register("whenRecognitionStateIsAnyOf", whenRecognitionStateIsAnyOf)),
        ("centroid", BindingTable.register("centroid") { call in
            let element = try call.element(2)
            return try StreamMethods.push(try gestures(call, "centroid").centroid(in: element)._map { MotionValue.point($0) }, call)
        }),
        ("velocity", BindingTable.register("velocity") { call in
            // Translation (and tap) gestures: a point per second in E; rotation and scale: a number.
            let element = try call.element(2)
            return try StreamMethods.push(try gestures(call, "velocity")._map { g -> MotionValue in
                g.kind == .rotation || g.kind == .scale ? .number(g.scalarVelocity) : .point(g.velocity(in: element))
            }, call)
        }),
    ]

    /// The gesture values of the stream at argument 1; anything else (or a gesture of a kind not
    /// in `kinds`) fails the script, naming the method and its call site.
    static func gestures(_ call: LuaCall, _ method: String, kinds: [GestureKind]? = nil) throws -> MotionObservable<GestureValue> {
        if let typed = (LuaObject.get(call.lua, at: 1, .stream) as LuaStream?)?.gestures,
           kinds?.contains(typed.kind) ?? true {
            return typed.source
        }
        let stream = try call.stream(1)
        let gate = call.runtime.gate
        let place = call.place
        let expected = kinds.map { $0.map(\.rawValue).joined(separator: " or ") + " gestures" } ?? "gesture values"
        return stream._nextOperator { (value: MotionValue, next: (GestureValue) -> Void) in
            guard case .gesture(let g) = value, kinds?.contains(g.kind) ?? true else {
                gate.runtime?.fail(.runtime, "\(place) \(method)() expects a stream of \(expected), got a \(value.kindName)")
                return
            }
            next(g)
        }
    }

    /// `s:rotation(addedTo)` adds the gesture's rotation to a number; `s:scale(addedTo)` multiplies
    /// a number by the gesture's scale. `addedTo` is a property (read when a gesture begins) or any
    /// stream (its latest value), with the cache of `translation(addedTo)`.
    static func addedTo(_ call: LuaCall, kind: GestureKind) throws -> Int32 {
        let name = kind.rawValue
        let values = try gestures(call, name, kinds: [kind])
        let numbers = try StreamMethods.initialValue(call, index: 2, expecting: "number") { read in
            kind == .rotation ? values.rotation(addedTo: { read()?.number })
                              : values.scale(addedTo: { read()?.number })
        }
        return try StreamMethods.push(numbers._map { MotionValue.number($0) }, call, unboxed: .numbers(numbers))
    }

    static func whenRecognitionStateIsAnyOf(_ call: LuaCall) throws -> Int32 {
        var states: [GestureState] = []
        if call.lua.isTable(2) {
            let count = lua_rawlen(call.lua.L, 2)
            for i in 0..<Int(count) {
                lua_rawgeti(call.lua.L, 2, lua_Integer(i + 1))
                defer { call.lua.pop() }
                states.append(try recognitionState(call, call.lua.top))
            }
        } else if call.argumentCount >= 2 {
            for index in 2...call.argumentCount { states.append(try recognitionState(call, index)) }
        }
        guard !states.isEmpty else {
            throw LuaBindingError("whenRecognitionStateIsAnyOf needs at least one state (\(stateNames))")
        }
        return try StreamMethods.push(try gestures(call, "whenRecognitionStateIsAnyOf")
            .whenRecognitionState(isAnyOf: states)._map { MotionValue.gesture($0) }, call)
    }

    static let stateNames = GestureState.allCases.map(\.rawValue).joined(separator: ", ")

    static func recognitionState(_ call: LuaCall, _ index: Int32) throws -> GestureState {
        let name = try call.string(index)
        guard let state = GestureState(rawValue: name) else {
            throw LuaBindingError("\(call.name): unknown recognition state '\(name)' (states: \(stateNames))")
        }
        return state
    }
}
