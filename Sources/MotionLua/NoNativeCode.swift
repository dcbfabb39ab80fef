/// What both restricted libraries — `Sandbox` (`test`, `run --sandbox`) and the daemon's plugin
/// profile — take away in the same way: native code (`package.loadlib`, the C searchers of
/// `require`, `package.cpath`) and the `debug` library, which reaches any upvalue, the registry
/// and every metatable. Lua source for the end of such a prelude, which must have defined a local
/// `refuse(name)` that returns a function raising its own message.
public enum NoNativeCode {
    public static let source = """
        package.loadlib = refuse("package.loadlib")
        package.searchers[4] = nil
        package.searchers[3] = nil
        package.cpath = ""
        debug = nil
        package.loaded.debug = nil
        """
}
