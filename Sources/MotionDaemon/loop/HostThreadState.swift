/// The one place where state skips Swift's dynamic exclusivity check: what the host's thread
/// reads and writes on every frame or step in this module, whose release build keeps the check
/// (the emergency gesture, the config watcher's quiet time), gathered by its owner into one value
/// (`State`) held here. The modules of the per-frame path (Package.swift's `hotPath`: the plugin
/// host, Lua, input) are built without the check in release and need no such holder; their
/// debug builds, where the tests run, check every access.
///
/// Invariant, relied on by every owner: **`value` is used on the host's thread only, and no
/// access to it is held across a call that may use it again** — no part of it is passed `inout`
/// to, or borrowed for the length of, code (a callback, an observer, a plugin's Lua) that could
/// read or write it in turn. So no two accesses overlap, which is what the check would verify at
/// run time (a thread-local lookup per access); without it an access is a plain load or store.
/// Each owner says where it keeps to this. State another thread reads is atomic or locked
/// instead, and what belongs to one Lua state stays in that state (`LuaRuntime`).
///
/// Declared in the module that uses it: code of another module accessing `value` was compiled
/// with the check (seen in the release binary: `swift_beginAccess` around each frame's use).
final class HostThreadState<State> {
    @exclusivity(unchecked) var value: State

    init(_ value: State) {
        self.value = value
    }
}
