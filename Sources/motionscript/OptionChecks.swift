import ArgumentParser

/// The checks of options several commands share (run, daemon, test, record), made once so a
/// value one command refuses no other accepts, with the same words: a usage error, exit 2.
enum OptionChecks {
    /// `--timeout`: seconds, 0 = no limit; infinity is no number of seconds (0 says "none").
    static func timeout(_ seconds: Double) throws {
        guard seconds >= 0, seconds.isFinite else {
            throw ValidationError("--timeout must be >= 0 seconds (0 = no limit), got \(seconds)")
        }
    }

    /// `--memory`: MiB, 0 = no limit, at most what a byte count holds.
    static func memory(_ mebibytes: Int) throws {
        guard mebibytes >= 0 else { throw ValidationError("--memory must be >= 0 MiB (0 = no limit), got \(mebibytes)") }
        guard mebibytes <= RunCommand.maxMemory else {
            throw ValidationError("--memory must be at most \(RunCommand.maxMemory) MiB, got \(mebibytes)")
        }
    }

    /// `--app NAME`.
    static func app(_ name: String?) throws {
        if name?.isEmpty == true { throw ValidationError("--app needs an application name") }
    }
}
