/// The LuaLS (lua-language-server) definitions of the `motion` module, compiled into the binary
/// from `definitions/motion.lua` so that `motionscript init` works from an installed binary.
public enum LuaDefinitions {
    /// Where `init` writes the definitions, relative to the project folder, and where its
    /// `.luarc.json` points LuaLS.
    public static let relativePath = "types/motion.lua"

    /// The text of the definition file.
    public static var text: String { String(decoding: PackageResources.motion_lua, as: UTF8.self) }
}
