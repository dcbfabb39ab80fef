import CLua
import MotionGestures
import MotionStreams

/// The arguments and context of one call from Lua into a Swift binding.
public struct LuaCall {
    public let lua: Lua
    public let runtime: LuaRuntime
    /// The binding's Lua name, for error messages.
    let name: String

    public var argumentCount: Int32 { lua.top }

    func badArgument(_ index: Int32, _ expected: String) -> LuaBindingError {
        LuaBindingError("bad argument #\(index) to '\(name)' (\(expected) expected, got \(lua.typeName(at: index)))")
    }

    public func number(_ index: Int32) throws -> Double {
        guard let value = lua.number(at: index) else { throw badArgument(index, "number") }
        return value
    }

    public func optionalNumber(_ index: Int32) throws -> Double? {
        if lua.isNoneOrNil(index) { return nil }
        return try number(index)
    }

    public func string(_ index: Int32) throws -> String {
        guard let value = lua.string(at: index) else { throw badArgument(index, "string") }
        return value
    }

    public func optionalString(_ index: Int32) throws -> String? {
        if lua.isNoneOrNil(index) { return nil }
        return try string(index)
    }

    public func table(_ index: Int32) throws {
        guard lua.isTable(index) else { throw badArgument(index, "table") }
    }

    /// A Lua function argument, kept in the registry until the returned callback is released.
    public func function(_ index: Int32) throws -> LuaCallback {
        guard lua.isFunction(index) else { throw badArgument(index, "function") }
        return runtime.makeCallback(at: index, place: place)
    }

    public func object<T: AnyObject>(_ index: Int32, _ type: LuaObjectType) throws -> T {
        guard let object: T = LuaObject.get(lua, at: index, type) else {
            throw badArgument(index, type.displayName)
        }
        return object
    }

    /// An element argument; nil/none means the screen.
    public func element(_ index: Int32) throws -> Element {
        if lua.isNoneOrNil(index) { return .screen }
        let box: ElementBox = try object(index, .element)
        return box.element
    }

    /// A stream argument: a stream or a property.
    public func stream(_ index: Int32) throws -> MotionObservable<MotionValue> {
        if let stream: LuaStream = LuaObject.get(lua, at: index, .stream) {
            stream.used = true
            return stream.observable
        }
        if let property: LuaProperty = LuaObject.get(lua, at: index, .property) { return property.property.stream }
        throw badArgument(index, "stream")
    }

    /// Any Lua value as a MotionValue.
    public func value(_ index: Int32) throws -> MotionValue {
        do {
            return try LuaConversion.value(lua, at: index)
        } catch let error as LuaBindingError {
            throw LuaBindingError("bad argument #\(index) to '\(name)' (\(error.message))")
        }
    }

    /// "file:line:" of the Lua code making this call (luaL_where's trailing space dropped:
    /// messages add their own).
    public var place: String {
        let place = lua.whereString(level: 1)
        return place.hasSuffix(" ") ? String(place.dropLast()) : place
    }
}
