import Foundation

/// Finds scenarios under files and folders. Every `NAME.lua` is a candidate; what sits beside
/// it decides: events and expected output make a scenario; neither makes it a module (skipped);
/// one without the other is a scenario that fails with the reason, so a forgotten file is
/// never silently ignored.
public enum ScenarioDiscovery {
    /// Event file suffixes, in the order API.md lists them.
    public static let eventSuffixes = [".events.jsonl", ".evemu", ".yml", ".raw"]
    public static let expectedSuffix = ".expected.jsonl"

    /// Scenarios sorted by name; a path that does not exist is a usage error.
    public static func discover(_ paths: [String]) throws -> [Scenario] {
        var found: [String: Scenario] = [:]  // by script path: overlapping arguments count once
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ScenarioUsageError("no such file or folder: \(path)")
            }
            if !isDirectory.boolValue {
                guard path.hasSuffix(".lua") else { throw ScenarioUsageError("not a Lua script or folder: \(path)") }
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
                case let .problem(name, relativePath, reason):
                    let place = (path as NSString).appendingPathComponent(relativePath)
                    found[place] = Scenario(name: name, scriptPath: place, eventsPath: nil, expectedPath: "",
                                            hasExpected: false, problem: .fail(reason))
                }
            }
        }
        return found.values.sorted { $0.name == $1.name ? $0.scriptPath < $1.scriptPath : $0.name < $1.name }
    }

    /// The scenario of one script, from the files beside it.
    public static func scenario(name: String, scriptPath: String) -> Scenario {
        let base = String(scriptPath.dropLast(4))
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
