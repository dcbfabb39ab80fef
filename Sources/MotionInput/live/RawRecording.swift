/// Where a live device set's raw input is kept as it is decoded (the daemon's flight recorder):
/// the ring each device's reader puts every event it reads into, handed out once per device as
/// it joins the set (at start, plugged in later, back after it went away). The recording is
/// of the raw events, before any frame is made of them, so a paused host (whose plugins see
/// nothing) is recorded all the same, and `ctl record` writes exactly what the devices sent.
public protocol RawRecording: AnyObject {
    /// The ring `member`'s events go into (nil: that device is not recorded).
    func ring(for member: LiveDeviceSet.Member) -> RawEventRing?
}
