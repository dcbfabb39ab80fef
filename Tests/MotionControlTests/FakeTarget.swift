import MotionControl
#if canImport(Glibc)
import Glibc
#endif

/// A plugin host stand-in that records what the socket asked of it.
final class FakeTarget: ControlTarget {
    var plugins: [String: String] = ["swipe": "running", "pinch": "failed"]
    var calls: [String] = []
    var paused = false

    func controlStatus() -> ControlStatus {
        ControlStatus(plugins: plugins.keys.sorted().map { ControlStatus.Plugin(name: $0, state: plugins[$0]!, version: 1,
                                                                                  recognizers: ["swipe(fingers=3)"]) },
                      devices: [ControlStatus.Device(node: "/dev/input/event5", name: "pad", kind: "touchpad", grabbed: true)],
                      uptimeSeconds: 12.5, paused: paused, pid: getpid(), directory: "/config")
    }

    func known(_ plugin: String) throws {
        guard plugins[plugin] != nil else { throw ControlError("no plugin named \(plugin)") }
    }

    func controlReload(plugin: String?) throws -> String {
        if let plugin { try known(plugin) }
        calls.append("reload \(plugin ?? "*")")
        return "reloaded \(plugin ?? "every plugin")"
    }

    func controlEnable(plugin: String) throws { try known(plugin); calls.append("enable \(plugin)") }
    func controlDisable(plugin: String) throws { try known(plugin); calls.append("disable \(plugin)") }
    func controlPause() { paused = true; calls.append("pause") }
    func controlResume() { paused = false; calls.append("resume") }
    func controlStop() { calls.append("stop") }

    func controlRecord(lastSeconds: Double, to path: String) throws -> ControlRecording {
        calls.append("record \(lastSeconds) \(path)")
        return ControlRecording(path: path, devices: 1, events: 42, seconds: lastSeconds)
    }

    func controlScenario(name: String, lastSeconds: Double, into directory: String) throws -> [String] {
        calls.append("scenario \(name)")
        return [directory + "/" + name + ".lua"]
    }
}
