import ArgumentParser

struct Motionscript: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "motionscript",
        abstract: "Gesture pipelines in Lua, on the Material Motion streams model.",
        subcommands: [RunCommand.self, TestCommand.self, RecordCommand.self, DevicesCommand.self]
    )
}
