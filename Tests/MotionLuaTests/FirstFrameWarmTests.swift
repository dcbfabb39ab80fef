import Testing
@testable import MotionLua

/// The per-frame path warmed when a Lua state is made (docs/performance.md "The first frames").
@Suite struct FirstFrameWarmTests {
    /// Room for four devices' tables is made with the state: the first event of a device grows
    /// nothing (was: capacity 0, grown at the first event, with the Swift runtime's first look-up
    /// of the dictionary's storage type, some 24,000 instructions on the daemon's first frame).
    @Test func deviceTablesHaveRoomForFourDevicesBeforeTheFirstEvent() {
        #expect(DeviceTables().reservedDevices >= 4)
    }
}
