import Foundation

/// Finds scenarios under files and folders. Every `NAME.lua` is a candidate; what sits beside
/// it decides: events and expected output make a scenario; neither makes it a module (skipped);
/// one without the other is a scenario that fails with the reason, so a forgotten file is
/// never silently ignored.
public enum ScenarioDiscovery {
    /// Event file suffixes, in the order API.md lists them.
    public static let eventSuffixes = [".events.jsonl", ".evemu", ".yml", ".raw"]
    public static let expectedSuffix = ".expected.jsonl"
    /// `NAME.script`: a sidecar whose first line is the path of the script the scenario runs
    /// (relative to the sidecar's folder), for testing a configuration kept elsewhere.
    public static let sidecarSuffix = ".script"

    /// Scenarios sorted by name; a path that does not exist is a usage error.
    public static func discover(_ paths: [String]) throws -> [Scenario] {
        var found: [String: Scenario] = [:]  // by script path: overlapping arguments count once
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ScenarioUsageError("no such file or folder: \(path)")
            }
            if !isDirectory.boolValue, path.hasSuffix(sidecarSuffix) {
                let name = String(((path as NSString).lastPathComponent).dropLast(sidecarSuffix.count))
                found[standardized(path)] = sidecarScenario(name: name, sidecarPath: path)
                continue
            }
            if !isDirectory.boolValue {
                guard path.hasSuffix(".lua") else { throw ScenarioUsageError("not a Lua script, NAME.script or folder: \(path)") }
                let name = String(((path as NSString).lastPathComponent).dropLast(4))
                found[standardized(path)] = scenario(name: name, scriptPath: path)
                continue
            }
            for entry in FolderWalk.entries(under: path) {
                switch entry {
                case .script(let relative):
                    let script = (path as NSString).appendingPathComponent(relative)
                    found[standardized(script)] = found[standardized(script)]
                        ?? scenario(name: String(relative.dropLast(4)), scriptPath: script)
                case .sidecar(let relative):
                    let sidecar = (path as NSString).appendingPathComponent(relative)
                    found[standardized(sidecar)] = sidecarScenario(name: String(relative.dropLast(sidecarSuffix.count)), sidecarPath: sidecar)
                case let .problem(name, relativePath, reason):
                    let place = (path as NSString).appendingPathComponent(relativePath)
                    found[place] = Scenario(name: name, scriptPath: place, eventsPath: nil, expectedPath: "",
                                            hasExpected: false, problem: .fail(reason))
                }
            }
        }
        return found.values.sorted { $0.name == $1.name ? $0.scriptPath < $1.scriptPath : $0.name < $1.name }
    }

    /// The scenario of a `NAME.script` sidecar: its events and expected output beside the
    /// sidecar, its script where the sidecar's first line says.
    static func sidecarScenario(name: String, sidecarPath: String) -> Scenario {
        let base = String(sidecarPath.dropLast(sidecarSuffix.count))
        let file = (base as NSString).lastPathComponent
        func failing(_ reason: String) -> Scenario {
            Scenario(name: name, scriptPath: sidecarPath, eventsPath: nil, expectedPath: base + expectedSuffix,
                     hasExpected: false, problem: .fail(reason))
        }
        guard let data = FileManager.default.contents(atPath: sidecarPath), data.count <= 4096 else {
            return failing("cannot read \(file)\(sidecarSuffix) (a sidecar holds one path, at most 4096 bytes)")
        }
        let target = String(decoding: data, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty && !$0.hasPrefix("#") }
        guard let target else { return failing("\(file)\(sidecarSuffix) names no script (its first line is the script's path)") }
        if FileManager.default.fileExists(atPath: base + ".lua") {
            return failing("both \(file).lua and \(file)\(sidecarSuffix): a scenario runs one script")
        }
        let scriptPath = target.hasPrefix("/") ? target : (ScenarioPaths.folder(of: sidecarPath) as NSString).appendingPathComponent(target)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: scriptPath, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return failing("\(file)\(sidecarSuffix) names \(target), which is not a file")
        }
        var scenario = self.scenario(name: name, scriptPath: scriptPath, base: base)
        if case .skip? = scenario.problem {
            scenario.problem = .fail("missing events file: \(file).events.jsonl, .evemu, .yml or .raw beside \(file)\(sidecarSuffix)")
        }
        return scenario
    }

    /// The scenario of one script, from the files beside it.
    public static func scenario(name: String, scriptPath: String) -> Scenario {
        scenario(name: name, scriptPath: scriptPath, base: String(scriptPath.dropLast(4)))
    }

    /// The scenario of `scriptPath` whose events and expected output are `base` + a suffix.
    static func scenario(name: String, scriptPath: String, base: String) -> Scenario {
        let events = eventSuffixes.map { base + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
        let expected = base + expectedSuffix
        let hasExpected = FileManager.default.fileExists(atPath: expected)
        let file = (base as NSString).lastPathComponent
        var problem: Scenario.Problem?
        if events.isEmpty && !hasExpected {
            problem = .skip("no events or expected file beside it (a module?)")
        } else if events.isEmpty {
            problem = .fail("missing events file: \(file).events.jsonl, .evemu, .yml or .raw beside \(file).lua")
        } else if events.count > 1 {
            let names = events.map { ($0 as NSString).lastPathComponent }
            problem = .fail("more than one events file: \(names.joined(separator: ", "))")
        }
        return Scenario(name: name, scriptPath: scriptPath, eventsPath: events.count == 1 ? events[0] : nil,
                        expectedPath: expected, hasExpected: hasExpected, problem: problem)
    }

    static func standardized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}

/// Bad arguments to `motionscript test` (exit 2).
public struct ScenarioUsageError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
