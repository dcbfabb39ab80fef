import Foundation
import MotionPluginHost

/// `motionscript test` as a library call: discover, select, run, report.
public struct ScenarioBatch {
    public var paths: [String]
    public var options: ScenarioOptions
    public var filter: String?
    /// 1-based shard index and shard count.
    public var shard: (index: Int, count: Int)?

    public init(paths: [String], options: ScenarioOptions = ScenarioOptions(), filter: String? = nil,
                shard: (index: Int, count: Int)? = nil) {
        self.paths = paths
        self.options = options
        self.filter = filter
        self.shard = shard
    }

    /// The scenarios this batch takes, in name order. Throws ScenarioUsageError (exit 2).
    public func select() throws -> [Scenario] {
        var scenarios = try ScenarioDiscovery.discover(paths)
        if let filter { scenarios = scenarios.filter { ScenarioSelection.matches($0.name, pattern: filter) } }
        if let shard { scenarios = ScenarioSelection.shard(scenarios, index: shard.index, count: shard.count) }
        return scenarios
    }

    public func run(progress: (@Sendable (Int, Int, ScenarioResult) -> Void)? = nil) throws -> ScenarioReport {
        try run(try select(), progress: progress)
    }

    /// Runs scenarios already selected; the report has the batch's start time and wall time.
    public func run(_ scenarios: [Scenario], progress: (@Sendable (Int, Int, ScenarioResult) -> Void)? = nil) throws -> ScenarioReport {
        let started = Date()
        let clock = Clock.monotonic()
        let results = ScenarioRunner.run(scenarios, options: options) { done, result in
            progress?(done, scenarios.count, result)
        }
        return ScenarioReport(results, started: started, wallTime: Clock.monotonic() - clock)
    }
}
