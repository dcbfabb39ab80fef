import MotionJSON
import MotionLua

/// Outputs that can mark a hot reload on stdout with one line,
/// `{"t":3.7,"reload":"drag.lua","version":2}`: `t` is the input time the new version starts at,
/// `version` counts successful loads (the first is 1). Consumers of the JSON Lines can tell which
/// lines came from which version without reading stderr.
public protocol ReloadMarking: AnyObject {
    func markReload(t: Double, script: String, version: Int)
}

extension JSONWriter {
    mutating func reloadLine(t: Double, script: String, version: Int) {
        raw("{\"t\":")
        number(t)
        raw(",\"reload\":")
        string(script)
        raw(",\"version\":")
        integer(Int64(version))
        raw("}\n")
    }
}
