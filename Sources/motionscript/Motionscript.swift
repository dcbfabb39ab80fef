import ArgumentParser

struct Motionscript: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "motionscript",
        abstract: "Gesture pipelines in Lua, on the Material Motion streams model.",
        version: "0.1.0 (Lua 5.4)",
        subcommands: [RunCommand.self, DaemonCommand.self, TestCommand.self, RecordCommand.self, DevicesCommand.self, InitCommand.self, PlotCommand.self,
                      ScenarioWorkerCommand.self]
    )
}
