import MotionJSON
/// Time options are in seconds; `hold{duration = 600}` meant 600 ms and waits ten minutes, with
/// no error and no output. A duration over a minute is allowed (a long hold, a slow tween) but
/// said on stderr, with the script's line and the value it would be in milliseconds.
enum DurationWarning {
    static let limit = 60.0

    static func check(_ seconds: Double?, _ what: String, _ call: LuaCall) {
        guard let seconds, seconds > limit else { return }
        call.runtime.output.log("warning: \(call.lua.whereString(level: 1))\(what) is \(JSONText.number(seconds)) s, over a minute: time options are in seconds (\(JSONText.number(seconds / 1000)) if you meant milliseconds)")
    }
}

extension Options {
    /// A time option in seconds (`number`), with the warning above.
    func seconds(_ key: String, min: Double? = nil, exclusiveMin: Bool = false) throws -> Double? {
        let value = try number(key, min: min, exclusiveMin: exclusiveMin)
        DurationWarning.check(value, "\(function): option '\(key)'", call)
        return value
    }
}
