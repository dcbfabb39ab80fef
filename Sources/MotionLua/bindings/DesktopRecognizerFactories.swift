import CLua
import CLuaShim
import MotionGestures
import MotionStreams

/// `motion.swipe{}` and `motion.hold{}`, and the options every recognizer takes:
/// `fingers = N` (exactly N pointers), `requireToFail = r | {r...}`, `enabled = bool`.
enum DesktopRecognizerFactories {
    static let functions: [(String, Binding)] = [
        ("swipe", BindingTable.register("motion.swipe", swipe)),
        ("hold", BindingTable.register("motion.hold", hold)),
    ]

    /// `motion.swipe{fingers=, direction=, diagonals=false, minDistance=20, minVelocity=0,
    /// from=, edge=10, element=, requireToFail=, enabled=}`. `from` is "left", "right", "top",
    /// "bottom" (within `edge` units of that edge of `element`; right and bottom need an element
    /// with a size) or an element the swipe must start in.
    static func swipe(_ call: LuaCall) throws -> Int32 {
        let options = try Options(call, at: 1, for: call.name,
                                  known: ["fingers", "direction", "diagonals", "minDistance", "minVelocity", "from",
                                          "edge", "element", "requireToFail", "enabled"])
        let element = try options.element() ?? currentScreen(call)
        var direction: SwipeDirection?
        if let name = try options.string("direction") {
            guard let parsed = SwipeDirection(rawValue: name) else {
                throw LuaBindingError("\(call.name): option 'direction' must be one of \(SwipeDirection.allCases.map { $0.rawValue }.joined(separator: ", ")), got '\(name)'")
            }
            direction = parsed
        }
        let recognizer = try SwipeGestureRecognizer(
            element: element, fingers: nil,
            minDistance: try options.number("minDistance", min: 0) ?? SwipeGestureRecognizer.defaultMinDistance,
            minVelocity: try options.number("minVelocity", min: 0) ?? SwipeGestureRecognizer.defaultMinVelocity,
            direction: direction, diagonals: try options.bool("diagonals") ?? false,
            from: try zone(options, element: element))
        try options.applyCommon(to: recognizer)
        return MotionModule.add(recognizer, call)
    }

    private static func zone(_ options: Options, element: Element) throws -> SwipeZone? {
        let depth = try options.number("edge", min: 0, exclusiveMin: true) ?? SwipeZone.defaultDepth
        let name = options.function
        return try options.withField("from") {
            let lua = options.call.lua
            if let box: ElementBox = LuaObject.get(lua, at: -1, .element) { return .element(box.element) }
            guard lua_type(lua.L, -1) == LUA_TSTRING, let text = lua.string(at: -1), let edge = SwipeZone.Edge(rawValue: text) else {
                throw LuaBindingError("\(name): option 'from' must be \"left\", \"right\", \"top\", \"bottom\" or an element, got \(lua.typeName(at: -1))")
            }
            if (edge == .right && !element.width.isFinite) || (edge == .bottom && !element.height.isFinite) {
                throw LuaBindingError("\(name): from = \"\(text)\" needs to know where the \(text) edge is: run with --surface WxH (motion.screen then has the surface's size), or give element = motion.element{x = 0, y = 0, width = W, height = H}, or an element as the start zone")
            }
            return .edge(edge, depth: depth)
        }
    }

    /// `motion.screen` as the script sees it now: with the surface's size under `--surface`, so an
    /// edge zone knows where the right and bottom edges are. Falls back to the unbounded screen.
    private static func currentScreen(_ call: LuaCall) -> Element {
        let lua = call.lua
        let L = lua.L
        let base = lua.top
        defer { lua.top = base }
        guard lua_checkstack(L, 3) != 0 else { return .screen }
        lua_rawgeti(L, ms_registryindex(), lua_Integer(LUA_RIDX_GLOBALS))
        lua_pushstring(L, "motion")
        guard lua_rawget(L, -2) == LUA_TTABLE else { return .screen }
        lua_pushstring(L, "screen")
        lua_rawget(L, -2)
        let box: ElementBox? = LuaObject.get(lua, at: -1, .element)
        return box?.element ?? .screen
    }

    /// `motion.hold{fingers=, duration=0.5, maxMovement=3, element=, requireToFail=, enabled=}`.
    static func hold(_ call: LuaCall) throws -> Int32 {
        let options = try Options(call, at: 1, for: call.name,
                                  known: ["fingers", "duration", "maxMovement", "element", "requireToFail", "enabled"])
        let recognizer = try HoldGestureRecognizer(
            element: try options.element() ?? .screen, fingers: nil,
            duration: try options.seconds("duration", min: 0, exclusiveMin: true) ?? HoldGestureRecognizer.defaultDuration,
            maxMovement: try options.number("maxMovement", min: 0) ?? HoldGestureRecognizer.defaultMaxMovement)
        try options.applyCommon(to: recognizer)
        return MotionModule.add(recognizer, call)
    }
}

extension Options {
    /// The options every recognizer takes: `fingers`, `requireToFail`, `enabled`.
    func applyCommon(to recognizer: GestureRecognizer) throws {
        if let fingers = try integer("fingers", min: 1) {
            if let translation = recognizer as? TranslationGestureRecognizer, translation.maxPointers < fingers {
                throw LuaBindingError("\(function): option 'fingers' (\(fingers)) must be <= 'maxPointers' (\(translation.maxPointers))")
            }
            if recognizer is PairGestureRecognizer, fingers < 2 {
                throw LuaBindingError("\(function): option 'fingers' must be >= 2 (a \(recognizer.value.kind.rawValue) needs two pointers), got \(fingers)")
            }
            recognizer.fingers = fingers
        }
        for other in try recognizers("requireToFail") ?? [] {
            guard other !== recognizer else { throw LuaBindingError("\(function): a recognizer cannot wait for itself to fail") }
            try RecognizerFactories.addRequirement(call, function)
            recognizer.require(toFail: other)
        }
        recognizer.isEnabled = try bool("enabled") ?? true
        // `consume = true`: under `--proxy` a touch this recognizer takes never reaches the
        // desktop's clone of the device (docs/desktop.md).
        recognizer.consumes = try bool("consume") ?? false
    }
}
