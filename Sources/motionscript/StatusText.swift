import MotionControl
import MotionJSON
import MotionScenarios

/// `ctl status` for people: one line for the daemon, one per plugin, one per device.
enum StatusText {
    static func render(_ status: JSONValue) -> String {
        var lines: [String] = []
        let pid = Int(status["pid"]?.numberValue ?? 0)
        let uptime = status["uptime"]?.numberValue ?? 0
        let paused = status["paused"]?.boolValue == true
        lines.append("daemon \(pid), up \(duration(uptime))\(paused ? ", PAUSED (ctl resume)" : ""): \(status["directory"]?.stringValue ?? "")")
        if let focus = status["focus"] { lines.append(focusLine(focus)) }
        let plugins = status["plugins"]?.arrayValue ?? []
        lines.append("plugins: \(plugins.count)")
        for p in plugins {
            var parts = ["  \(p["name"]?.stringValue ?? "?")", p["state"]?.stringValue ?? "?", "v\(Int(p["version"]?.numberValue ?? 0))"]
            let errors = Int(p["errors"]?.numberValue ?? 0)
            if errors > 0 { parts.append("\(errors) error\(errors == 1 ? "" : "s")") }
            if let m = p["memory"]?.numberValue { parts.append("\(Int((m / 1024).rounded())) KiB") }
            if let c = p["cpu"]?.numberValue { parts.append("cpu \(JSONTextShort.seconds(c))") }
            let recognizers = (p["recognizers"]?.arrayValue ?? []).compactMap(\.stringValue)
            if !recognizers.isEmpty { parts.append("recognizers: " + recognizers.joined(separator: ", ")) }
            lines.append(parts.joined(separator: "  "))
            if let e = p["error"]?.stringValue { lines.append("    error: \(e)") }
            for finding in (p["findings"]?.arrayValue ?? []).compactMap(\.stringValue) { lines.append("    \(finding)") }
        }
        let devices = status["devices"]?.arrayValue ?? []
        lines.append("devices: \(devices.count)")
        for d in devices {
            lines.append("  \(d["node"]?.stringValue ?? "?")  \(d["kind"]?.stringValue ?? "?")  \(d["name"]?.stringValue ?? "")\(d["grabbed"]?.boolValue == true ? "  (grabbed)" : "")")
        }
        if let proxy = status["proxy"]?.arrayValue {
            lines.append("proxy: \(proxy.count) device\(proxy.count == 1 ? "" : "s")")
            for p in proxy { lines += ProxyDeviceStatus.textLines(p) }
        }
        return lines.joined(separator: "\n")
    }

    /// `focus: sway (SWAYSOCK is set), connected: firefox "Home" pid 7`; `…: no window focused`;
    /// `…: unknown` (no provider, or none reported yet).
    static func focusLine(_ focus: JSONValue) -> String {
        var line = "focus: \(focus["provider"]?.stringValue ?? "?")"
        if let reason = focus["reason"]?.stringValue, !reason.isEmpty { line += " (\(reason))" }
        if let connected = focus["connected"]?.boolValue { line += connected ? ", connected" : ", not connected (retrying)" }
        guard focus["known"]?.boolValue == true, let app = focus["app"] else {
            return line + ": unknown (recognizers whose 'apps' name applications do not begin)"
        }
        guard let id = app["id"]?.stringValue else { return line + ": no window focused" }
        line += ": \(id)"
        if let title = app["title"]?.stringValue { line += " \"\(title)\"" }
        if let pid = app["pid"]?.numberValue { line += " pid \(Int(pid))" }
        return line
    }

    static func duration(_ s: Double) -> String {
        let total = Int(s)
        if total < 60 { return "\(total) s" }
        if total < 3600 { return "\(total / 60) min \(total % 60) s" }
        return "\(total / 3600) h \(total % 3600 / 60) min"
    }
}

enum JSONTextShort {
    static func seconds(_ s: Double) -> String {
        let ms = (s * 1000).rounded()
        return ms < 1000 ? "\(Int(ms)) ms" : "\(Double(Int(s * 100)) / 100) s"
    }
}
