/// How a host's profile writes to stderr without Lua's C stdio (whose write(2) blocks when
/// nobody reads stderr): the text goes to the runtime's output (`MotionOutput.standardError`),
/// which the daemon queues without ever waiting (docs/daemon.md). Handed to the profile's
/// chunk as its argument, so a script never sees it.
enum HostStandardError {
    static let write = BindingTable.register("io.stderr:write") { call in
        call.runtime.output.standardError(try call.string(1))
        return 0
    }
}
