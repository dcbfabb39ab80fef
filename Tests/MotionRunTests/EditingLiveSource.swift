import MotionGestures
import MotionInput
import MotionPluginHost

/// A live source that replays frames and edits the script after frame `editAfter`, as a user
/// saving in an editor while fingers are on the device: the next call then finds no frame yet,
/// so the session looks at the watcher before the following frame. With `clock`, input time
/// stands there once the edit was made (the user saved while holding still).
final class EditingLiveSource: LiveFrameSource {
    let frames: [Frame]
    let editAfter: Int
    let clock: Double?
    let edit: () -> Void
    var index = 0
    var edited = false
    /// Where the session's file watcher registers; run after the edit, as a live source's wait
    /// would, without waiting.
    let eventLoop: EventLoop? = try! EventLoop()

    init(frames: [Frame], editAfter: Int, clock: Double? = nil, edit: @escaping () -> Void) {
        self.frames = frames
        self.editAfter = editAfter
        self.clock = clock
        self.edit = edit
    }

    func nextFrame(timeout: Double?) throws -> LiveDevice.Next {
        guard index < frames.count else { return .end("end of input") }
        if index == editAfter + 1, !edited {
            edited = true
            edit()
            _ = try eventLoop?.wait(seconds: 0)
            return .timeout
        }
        index += 1
        return .frame(frames[index - 1])
    }

    func stop() { index = frames.count }

    func inputTimeNow() -> Double? {
        if edited, let clock { return clock }
        return index > 0 ? frames[index - 1].t : nil
    }
}
