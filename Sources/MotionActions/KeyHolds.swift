/// Who holds each key and button down on the one virtual device of a process: a count per
/// code across every `VirtualInput` (script, reload version, daemon plugin) that shares it. A
/// code goes down on the device when its first holder presses it and up when its last holder
/// lets go, so one holder's release (a plugin unloading, the old version of a reloaded script
/// releasing alt) never undoes another's hold.
///
/// Not thread-safe: every session acts on the host loop's thread.
public final class KeyHolds {
    private var counts: [UInt16: Int] = [:]

    public init() {}

    /// Holders of `code` now.
    public func count(_ code: UInt16) -> Int { counts[code] ?? 0 }

    /// Whether anyone holds `code` (it is down on the device).
    public func isDown(_ code: UInt16) -> Bool { counts[code] != nil }

    /// One more holder; true when `code` was up (the device must be told).
    @discardableResult
    func add(_ code: UInt16) -> Bool {
        let before = counts[code] ?? 0
        counts[code] = before + 1
        return before == 0
    }

    /// One holder fewer; true when that was the last (the device must be told).
    @discardableResult
    func remove(_ code: UInt16) -> Bool {
        guard let before = counts[code] else { return false }
        if before <= 1 {
            counts[code] = nil
            return true
        }
        counts[code] = before - 1
        return false
    }
}
