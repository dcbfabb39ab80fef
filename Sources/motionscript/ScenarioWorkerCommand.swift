import ArgumentParser
import MotionScenarios

/// `motionscript scenario-worker`: not for people. `motionscript test` starts these to run its
/// scenarios in processes of their own (see ScenarioWorker).
struct ScenarioWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ScenarioWorker.subcommand,
        abstract: "Runs scenarios for `motionscript test` (internal).",
        shouldDisplay: false
    )

    func run() throws {
        ScenarioWorker.serve()
    }
}
