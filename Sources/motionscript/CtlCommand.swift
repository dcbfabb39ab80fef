import ArgumentParser
import Foundation
import MotionControl
import MotionPluginHost
import MotionRun
import MotionScenarios
#if canImport(Glibc)
import Glibc
import MotionJSON
#endif
import MotionDiagnostics

/// `motionscript ctl COMMAND`: a thin client of a running daemon's control socket
/// (docs/control.md). Exit 0 done, 1 the daemon refused, 2 bad usage, 3 no daemon running.
struct CtlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Talk to a running daemon: status, reload, enable, disable, pause, resume, stop, logs, monitor, record, scenario.",
        discussion: "Exit status: 0 done, 1 the daemon refused (the reason is printed), 2 bad usage, 3 no daemon is running.",
        subcommands: [CtlStatus.self, CtlReload.self, CtlEnable.self, CtlDisable.self, CtlPause.self, CtlResume.self,
                      CtlStop.self, CtlLogs.self, CtlMonitor.self, CtlRecord.self, CtlScenario.self]
    )
}

/// `--socket PATH`, before or after the command.
struct CtlConnection: ParsableArguments {
    @Option(help: ArgumentHelp("The daemon's control socket (default: $XDG_RUNTIME_DIR/motionscript/control.sock).", valueName: "path"))
    var socket: String?

    var path: String { socket ?? ControlSocketPath.standard() }

    /// Connects; exit 3 with how to start a daemon when none runs.
    func connect() throws -> ControlClient {
        do {
            return try ControlClient(path: path)
        } catch let error as ControlClient.ConnectError {
            switch error {
            case .noDaemon:
                StandardError.line("error: \(error)")
                StandardError.line("start one with `motionscript daemon` (or `systemctl --user start motionscript` for the service; see docs/desktop.md)")
                throw ExitCode(3)
            case .failed:
                StandardError.line("error: \(error)")
                throw ExitCode(1)
            }
        }
    }

    /// Sends one request and returns its answer when ok; exit 1 with the daemon's reason otherwise.
    func request(_ command: String, _ arguments: [String: JSONValue] = [:]) throws -> JSONValue {
        let client = try connect()
        defer { client.close() }
        return try Self.checked(try Self.guarded { try client.request(command, arguments) })
    }

    static func checked(_ answer: JSONValue) throws -> JSONValue {
        guard answer["ok"] == .bool(true) else {
            StandardError.line("error: \(answer["error"]?.stringValue ?? "the daemon refused")")
            throw ExitCode(1)
        }
        return answer
    }

    /// A broken connection mid-request is a refusal (exit 1), said plainly.
    static func guarded<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ControlClient.ConnectError {
            StandardError.line("error: \(error)")
            throw ExitCode(1)
        }
    }
}

struct CtlStatus: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status",
        abstract: "Each plugin's state, version, errors, memory, CPU time and recognizers; the devices open; uptime.")
    @OptionGroup var connection: CtlConnection
    @Flag(help: "The status as one JSON object (for scripts).")
    var json = false

    func run() throws {
        let answer = try connection.request("status")
        guard let status = answer["status"] else { throw ExitCode(1) }
        if json {
            print(status.jsonText)
            return
        }
        print(StatusText.render(status))
    }
}

struct CtlReload: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reload",
        abstract: "Reload one plugin from its file, or every plugin (a version that fails to load leaves the previous one running).")
    @OptionGroup var connection: CtlConnection
    @Argument(help: "The plugin (its file name without .lua); all plugins when left out.")
    var plugin: String?

    func run() throws {
        let answer = try connection.request("reload", plugin.map { ["plugin": .string($0)] } ?? [:])
        if let message = answer["message"]?.stringValue, !message.isEmpty { print(message) }
    }
}

struct CtlEnable: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "enable", abstract: "Load a disabled or failed plugin again.")
    @OptionGroup var connection: CtlConnection
    @Argument(help: "The plugin.") var plugin: String
    func run() throws { CtlMessage.print(try connection.request("enable", ["plugin": .string(plugin)])) }
}

struct CtlDisable: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "disable",
        abstract: "Unload a plugin (its held keys released) until `enable` or its file changes.")
    @OptionGroup var connection: CtlConnection
    @Argument(help: "The plugin.") var plugin: String
    func run() throws { CtlMessage.print(try connection.request("disable", ["plugin": .string(plugin)])) }
}

struct CtlPause: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pause",
        abstract: "All gestures off: every device ungrabbed, every held key and button released (the emergency stop).")
    @OptionGroup var connection: CtlConnection
    func run() throws { CtlMessage.print(try connection.request("pause")) }
}

struct CtlResume: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resume", abstract: "Gestures back on after `pause`.")
    @OptionGroup var connection: CtlConnection
    func run() throws { CtlMessage.print(try connection.request("resume")) }
}

struct CtlStop: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stop", abstract: "End the daemon (as SIGTERM does).")
    @OptionGroup var connection: CtlConnection
    func run() throws { _ = try connection.request("stop") }
}

struct CtlLogs: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logs",
        abstract: "The recent diagnostics (errors, warnings, plugin lifecycle), one a line; -f follows.")
    @OptionGroup var connection: CtlConnection
    @Flag(name: [.customShort("f"), .long], help: "Keep printing new lines as they come (Ctrl-C ends).")
    var follow = false
    @Argument(help: "Only this plugin's lines.")
    var plugin: String?

    func run() throws {
        let client = try connection.connect()
        defer { client.close() }
        var arguments: [String: JSONValue] = ["follow": .bool(follow)]
        if let plugin { arguments["plugin"] = .string(plugin) }
        let answer = try CtlConnection.checked(try CtlConnection.guarded { try client.request("logs", arguments) })
        for line in answer["lines"]?.arrayValue ?? [] { Self.print(line) }
        guard follow else { return }
        fflush(nil)
        while let line = try CtlConnection.guarded({ try client.readLine() }) {
            if let log = line["log"] {
                Self.print(log)
                fflush(nil)
            }
        }
    }

    static func print(_ entry: JSONValue) {
        let text = entry["text"]?.stringValue ?? ""
        let plugin = entry["plugin"]?.stringValue
        Swift.print(plugin.map { text.hasPrefix($0 + ":") ? text : "\($0): \(text)" } ?? text)
    }
}

struct CtlMonitor: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "monitor",
        abstract: "The output lines as they happen (JSON Lines); with --recognizers, why each gesture fired or did not.")
    @OptionGroup var connection: CtlConnection
    @Argument(help: "Only this plugin's lines.")
    var plugin: String?
    @Flag(help: "Also each recognizer's state changes with the reason, one line each: `12.345 swipes.lua:7 swipe#2(fingers=3) failed: too short 12 < 20 units`.")
    var recognizers = false
    @Flag(help: "With --recognizers: the changes as JSON objects ({\"recognizer\":…,\"state\":…,\"reason\":…,\"value\":…,\"limit\":…}) instead of readable lines.")
    var json = false

    func run() throws {
        let client = try connection.connect()
        defer { client.close() }
        var arguments: [String: JSONValue] = ["recognizers": .bool(recognizers)]
        if let plugin { arguments["plugin"] = .string(plugin) }
        let answer = try CtlConnection.checked(try CtlConnection.guarded { try client.request("monitor", arguments) })
        let lines = MonitorLines(id: answer["id"] ?? .null, json: json)
        while let raw = try CtlConnection.guarded({ try client.readRawLine() }) {
            if let text = lines.text(for: raw) { print(text) }
            fflush(nil)
        }
    }
}

struct CtlRecord: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "record",
        abstract: "Write the flight recorder's last seconds of input as a recording (evemu for one device; see docs/control.md).")
    @OptionGroup var connection: CtlConnection
    @Option(help: "How many seconds back (the daemon keeps 60 by default).")
    var last: Double = 60
    @Option(name: .shortAndLong, help: "The file to write.")
    var output: String

    func validate() throws {
        try OptionChecks.seconds("--last", last)
    }

    func run() throws {
        let answer = try connection.request("record", ["last": .number(last), "path": .string(Self.absolute(output))])
        let events = Int(answer["events"]?.numberValue ?? 0)
        let devices = Int(answer["devices"]?.numberValue ?? 0)
        StandardError.line("motionscript: wrote \(output): \(events) events from \(devices) device\(devices == 1 ? "" : "s")")
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}

struct CtlScenario: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "scenario",
        abstract: "Turn the last seconds of input into a scenario (recording, script, expected output) that `motionscript test` runs.")
    @OptionGroup var connection: CtlConnection
    @Argument(help: "The scenario's name (its files are NAME.lua, NAME.evemu or NAME.events.jsonl, NAME.expected.jsonl).")
    var name: String
    @Option(help: "How many seconds back.")
    var last: Double = 60
    @Option(name: .shortAndLong, help: "The folder to write into (default: the current folder).")
    var output: String = "."

    func validate() throws {
        try OptionChecks.seconds("--last", last)
        guard !name.isEmpty, !name.contains("/") else { throw ValidationError("the scenario's name may not be empty or contain '/'") }
    }

    func run() throws {
        let directory = CtlRecord.absolute(output)
        let answer = try connection.request("scenario", ["name": .string(name), "last": .number(last), "directory": .string(directory)])
        let files = (answer["files"]?.arrayValue ?? []).compactMap(\.stringValue)
        StandardError.line("motionscript: wrote \(files.joined(separator: ", "))")
        StandardError.line("next: motionscript test \(output)")
    }
}

/// What the daemon says a request did (`message`), printed as a line.
enum CtlMessage {
    static func print(_ answer: JSONValue) {
        if let message = answer["message"]?.stringValue, !message.isEmpty { Swift.print(message) }
    }
}
