import MotionGestures

/// The windows a wlroots compositor lists over `zwlr_foreign_toplevel_manager_v1`, and which of
/// them has the focus: the one in the `activated` state (of several, the one activated last).
/// Each window's events (`title`, `app_id`, `state`) apply together at its `done`, as the
/// protocol says; `closed` removes it. Kept apart from the wire (`WlrootsFocusSource`) so the
/// decisions are tested without a compositor.
struct ForeignToplevels {
    struct Toplevel: Equatable {
        var title: String?
        var appId: String?
        var activated = false
    }

    /// Windows as of their last `done`, by handle.
    private var applied: [UInt: Toplevel] = [:]
    /// Windows with events since their last `done`.
    private var pending: [UInt: Toplevel] = [:]
    /// When each activated window became so (a counter), to pick the latest of several.
    private var activatedAt: [UInt: Int] = [:]
    private var activations = 0

    mutating func title(_ handle: UInt, _ title: String) { edit(handle) { $0.title = title } }
    mutating func appId(_ handle: UInt, _ appId: String) { edit(handle) { $0.appId = appId } }
    mutating func state(_ handle: UInt, activated: Bool) { edit(handle) { $0.activated = activated } }

    mutating func done(_ handle: UInt) {
        guard let toplevel = pending.removeValue(forKey: handle) else { return }
        if toplevel.activated, applied[handle]?.activated != true {
            activations += 1
            activatedAt[handle] = activations
        } else if !toplevel.activated {
            activatedAt[handle] = nil
        }
        applied[handle] = toplevel
    }

    mutating func closed(_ handle: UInt) {
        applied[handle] = nil
        pending[handle] = nil
        activatedAt[handle] = nil
    }

    private mutating func edit(_ handle: UInt, _ change: (inout Toplevel) -> Void) {
        var toplevel = pending[handle] ?? applied[handle] ?? Toplevel()
        change(&toplevel)
        pending[handle] = toplevel
    }

    /// The handle of the focused window, if one is.
    var focusedHandle: UInt? {
        activatedAt.max { $0.value < $1.value }?.key
    }

    /// The focused application (nil: no window activated, or one without an app id, as sway
    /// reports a window it cannot name).
    var focus: AppInfo? {
        guard let handle = focusedHandle, let toplevel = applied[handle],
              let id = toplevel.appId, !id.isEmpty else { return nil }
        return AppInfo(id: id, title: toplevel.title)
    }

    var count: Int { applied.count }
}
