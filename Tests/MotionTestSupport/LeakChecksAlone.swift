import Foundation

/// Whether the leak suites run in a process of their own, one test at a time: `scripts/test` sets
/// `MOTIONSCRIPT_LEAK_CHECK_ALONE=1` for its `--no-parallel` pass over them. Only then do the
/// whole process's heap and descriptor counts mean something (ReloadLeakTests, CommandLeakTests).
public let leakChecksRunAlone = ProcessInfo.processInfo.environment["MOTIONSCRIPT_LEAK_CHECK_ALONE"] == "1"
