import ArgumentParser
import MotionCheck
import MotionPluginHost
import MotionRun
#if canImport(Glibc)
import Glibc
#endif
import MotionDiagnostics

/// `motionscript check [PATH…]`: the plugins' mistakes before they go live, as `file:line:
/// error|warning: …` lines on stderr. Exit 1 when there is an error, 0 otherwise (warnings printed).
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check plugins before they go live: load and syntax errors, unknown key and button names, exec programs not in PATH, millisecond-like durations, gestures two plugins bind.",
        discussion: "Each plugin is loaded without input in the sandbox. Exit status: 1 when an error is found, 0 otherwise (warnings are printed)."
    )

    @Argument(help: "Plugins: files, or folders whose top-level *.lua files are plugins (default: the config folder, $XDG_CONFIG_HOME/motionscript).")
    var paths: [String] = []

    func run() throws {
        let plugins: [String]
        // A fresh install has no config folder yet (the daemon makes it): nothing to check,
        // which is no usage error. A folder named on the command line must exist.
        if paths.isEmpty, access(PluginCheck.configFolder, F_OK) != 0 {
            let folder = PluginCheck.configFolder
            StandardError.line("motionscript: no config folder yet (\(folder)): nothing to check. Put plugins there, e.g. mkdir -p \(folder) && cp \(ConfigFolder.examplesFolder)/desktop.lua \(folder)/")
            StandardError.line("motionscript: checked 0 plugins: 0 errors, 0 warnings")
            return
        }
        let folders = paths.isEmpty ? [PluginCheck.configFolder] : paths
        do {
            plugins = try PluginCheck.plugins(in: folders)
        } catch {
            throw ValidationError("\(error)")
        }
        var report = PluginCheck.check(plugins)
        report.findings = PluginCheck.skipped(in: folders) + report.findings
        for finding in report.findings { StandardError.line(finding.description) }
        let n = report.plugins.count
        StandardError.line("motionscript: checked \(n) plugin\(n == 1 ? "" : "s"): \(report.errors) error\(report.errors == 1 ? "" : "s"), \(report.warnings) warning\(report.warnings == 1 ? "" : "s")")
        if report.errors > 0 { throw ExitCode(1) }
    }
}
