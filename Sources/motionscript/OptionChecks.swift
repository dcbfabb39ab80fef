import ArgumentParser
import Foundation
import MotionDesktop

/// The checks of options several commands share (run, daemon, test, record, plot, ctl), made
/// once so a value one command refuses no other accepts, with the same words: a usage error,
/// exit 2.
enum OptionChecks {
    /// `--timeout`: seconds, 0 = no limit; infinity is no number of seconds (0 says "none").
    static func timeout(_ seconds: Double) throws {
        try self.seconds("--timeout", seconds, zeroMeans: "no limit")
    }

    /// An option's seconds: finite (infinity would reach the control protocol as null, a
    /// timer as never), above 0, or at least 0 when 0 means something (`zeroMeans`).
    static func seconds(_ option: String, _ value: Double, zeroMeans: String? = nil) throws {
        let inRange = zeroMeans == nil ? value > 0 : value >= 0
        guard inRange, value.isFinite else {
            let bound = zeroMeans.map { ">= 0 seconds (0 = \($0))" } ?? "> 0 seconds"
            throw ValidationError("\(option) must be \(bound), got \(value)")
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

    /// `--app-provider NAME`: a provider's name, for live input (a replay tells its focus), and
    /// not beside `--app`, which says the focus itself.
    static func appProvider(_ name: String?, live: Bool, app: String? = nil) throws {
        guard let name else { return }
        guard FocusProviderChoice.names.contains(name) else {
            throw ValidationError("--app-provider must be \(FocusProviderChoice.namesText), got \(name)")
        }
        if !live { throw ValidationError("--app-provider is for live input (a replay's focused application comes from its app lines or --app)") }
        if app != nil { throw ValidationError("use --app or --app-provider, not both") }
    }

    /// `--events FILE` and `--device`: one source of input.
    static func oneInput(events: String?, devices: [String]) throws {
        if events != nil && !devices.isEmpty { throw ValidationError("use --events or --device, not both") }
    }

    /// A script argument: a file that can be read (a folder cannot).
    static func script(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              FileManager.default.isReadableFile(atPath: path) else {
            throw ValidationError("cannot read the script \(path)")
        }
    }
}
