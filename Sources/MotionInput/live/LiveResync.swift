#if canImport(Glibc)
import Glibc
#endif

/// After a `SYN_DROPPED` on a live device the kernel's current state is the truth: like libevdev,
/// read it back (EVIOCGMTSLOTS for every slot's tracking id and position, EVIOCGABS for the selected
/// slot and single-touch axes, EVIOCGKEY for the buttons) and replay it as one synthetic frame. The
/// decoder then sees lifts that happened in the gap and tracking ids that changed (a lift plus a new
/// touch), without inventing anything.
enum LiveResync {
    struct SlotState: Equatable {
        var trackingId: Int32
        var x: Int32
        var y: Int32
    }

    /// EVIOCGMTSLOTS(len): `_IOR('E', 0x0a, len)`.
    static func getMTSlots(_ len: UInt) -> UInt { (2 << 30) | (len << 16) | (0x45 << 8) | 0x0a }
    /// EVIOCGKEY(len): `_IOR('E', 0x18, len)`, the pressed keys bitmap.
    static func getKey(_ len: UInt) -> UInt { (2 << 30) | (len << 16) | (0x45 << 8) | 0x18 }

    /// The synthetic events restoring `slots` (then re-selecting `currentSlot`), the single-touch
    /// position and the buttons, ending with `SYN_REPORT`, all stamped `sec.usec`.
    static func events(slots: [SlotState], currentSlot: Int32?, singleTouch: (x: Int32, y: Int32)?, keys: [(code: UInt16, down: Bool)],
                       sec: Int64, usec: Int64, allPositions: Bool = false) -> [InputEventRecord] {
        var out: [InputEventRecord] = []
        func add(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            out.append(InputEventRecord(sec: sec, usec: usec, type: type, code: code, value: value))
        }
        for (i, slot) in slots.enumerated() {
            add(EV.ABS, ABS.MT_SLOT, Int32(i))
            add(EV.ABS, ABS.MT_TRACKING_ID, slot.trackingId)
            // With `allPositions`, lifted slots too: the kernel keeps their last position as the
            // base for the next touch in that slot, whose unchanged axes are not re-sent.
            if slot.trackingId >= 0 || allPositions {
                add(EV.ABS, ABS.MT_POSITION_X, slot.x)
                add(EV.ABS, ABS.MT_POSITION_Y, slot.y)
            }
        }
        if let currentSlot, !slots.isEmpty { add(EV.ABS, ABS.MT_SLOT, currentSlot) }
        if let st = singleTouch {
            add(EV.ABS, ABS.X, st.x)
            add(EV.ABS, ABS.Y, st.y)
        }
        for key in keys { add(EV.KEY, key.code, key.down ? 1 : 0) }
        add(EV.SYN, SYN.REPORT, 0)
        return out
    }

    /// The device's state when reading starts, as events that give the decoder every slot's and
    /// axis's current value without any contact: the kernel sends only values that change, so
    /// a first touch at the X of the last touch before reading started carries no X. Contacts
    /// already down stay unknown (as before: fingers down at start are ignored until they lift).
    /// Stamped 0: the caller restamps them with the first event's time. Nil when ioctls fail.
    static func seed(fd: Int32, device: DeviceDescription) -> [InputEventRecord]? {
        guard let state = read(fd: fd, device: device, sec: 0, usec: 0, allPositions: true) else { return nil }
        var out: [InputEventRecord] = []
        for event in state where event.type == EV.ABS {
            var e = event
            if e.code == ABS.MT_TRACKING_ID { e.value = -1 }
            out.append(e)
        }
        guard !out.isEmpty else { return nil }
        out.append(InputEventRecord(sec: 0, usec: 0, type: EV.SYN, code: SYN.REPORT, value: 0))
        return out
    }

    /// Reads the device state of `fd` for `device`; nil when the ioctls fail.
    static func read(fd: Int32, device: DeviceDescription, sec: Int64, usec: Int64, allPositions: Bool = false) -> [InputEventRecord]? {
        var slots: [SlotState] = []
        var current: Int32?
        if let slotInfo = device.absinfo[ABS.MT_SLOT], slotInfo.maximum >= 0 {
            let count = Int(slotInfo.maximum) + 1
            func values(_ code: UInt16) -> [Int32]? {
                var buffer = [Int32](repeating: 0, count: count + 1)
                buffer[0] = Int32(code)
                let rc = buffer.withUnsafeMutableBytes { ioctl(fd, getMTSlots(UInt($0.count)), $0.baseAddress!) }
                return rc < 0 ? nil : Array(buffer.dropFirst())
            }
            guard let ids = values(ABS.MT_TRACKING_ID), let xs = values(ABS.MT_POSITION_X), let ys = values(ABS.MT_POSITION_Y) else { return nil }
            slots = (0..<count).map { SlotState(trackingId: ids[$0], x: xs[$0], y: ys[$0]) }
            var info = [Int32](repeating: 0, count: 6)
            if info.withUnsafeMutableBytes({ ioctl(fd, EvdevIoctl.getAbs(ABS.MT_SLOT), $0.baseAddress!) }) == 0 { current = info[0] }
        }
        var singleTouch: (x: Int32, y: Int32)?
        if device.absinfo[ABS.X] != nil, device.absinfo[ABS.Y] != nil {
            var ix = [Int32](repeating: 0, count: 6), iy = [Int32](repeating: 0, count: 6)
            if ix.withUnsafeMutableBytes({ ioctl(fd, EvdevIoctl.getAbs(ABS.X), $0.baseAddress!) }) == 0,
               iy.withUnsafeMutableBytes({ ioctl(fd, EvdevIoctl.getAbs(ABS.Y), $0.baseAddress!) }) == 0 {
                singleTouch = (ix[0], iy[0])
            }
        }
        var keys: [(code: UInt16, down: Bool)] = []
        if let pressed = EvdevIoctl.read(fd, getKey(96), count: 96) {
            for code in [BTN.TOUCH, BTN.LEFT] where device.has(type: EV.KEY, code: code) {
                keys.append((code, pressed[Int(code) / 8] & UInt8(1 << (code % 8)) != 0))
            }
        }
        return events(slots: slots, currentSlot: current, singleTouch: singleTouch, keys: keys, sec: sec, usec: usec, allPositions: allPositions)
    }
}
