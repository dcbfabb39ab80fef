#if canImport(Glibc)
import Glibc
#endif
@testable import MotionClone
import MotionInput
import MotionProxy
import Testing

/// A uinput that records what it is asked: each ioctl (its request and its integer value or the
/// bytes it points at) and each write.
final class FakeUinput: UinputChannel {
    enum Call: Equatable {
        case value(UInt, Int32)
        case bytes(UInt, [UInt8])
        case write([UInt8])
        case close
    }
    var calls: [Call] = []
    /// A request that fails (EINVAL), as a kernel refusing it would.
    var failing: UInt?
    var sysname = "input42"

    func control(_ request: UInt, value: Int32) -> Int32 {
        calls.append(.value(request, value))
        if request == failing { errno = EINVAL; return -1 }
        return 0
    }

    func control(_ request: UInt, pointer: UnsafeMutableRawPointer) -> Int32 {
        if request == failing { errno = EINVAL; return -1 }
        if request == UinputRequest.getSysname(64) {
            for (i, b) in sysname.utf8.enumerated() { pointer.storeBytes(of: b, toByteOffset: i, as: UInt8.self) }
            pointer.storeBytes(of: 0, toByteOffset: sysname.utf8.count, as: UInt8.self)
            return Int32(sysname.utf8.count)
        }
        let size = Int((request >> 16) & 0x3fff)
        // UI_SET_PHYS passes a string: its bytes up to the NUL.
        let count = request == UinputRequest.setPhys ? strlen(pointer.assumingMemoryBound(to: CChar.self)) + 1 : size
        calls.append(.bytes(request, Array(UnsafeRawBufferPointer(start: pointer, count: count))))
        return 0
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        calls.append(.write(Array(bytes)))
        return bytes.count
    }

    func close() { calls.append(.close) }

    var writes: [[UInt8]] { calls.compactMap { if case .write(let b) = $0 { b } else { nil } } }
    func values(_ request: UInt) -> [Int32] { calls.compactMap { if case .value(request, let v) = $0 { v } else { nil } } }
    func payloads(_ request: UInt) -> [[UInt8]] { calls.compactMap { if case .bytes(request, let b) = $0 { b } else { nil } } }
}

/// A clickpad as bcm5974.evemu's header describes it (Apple's, 2 slots here for brevity).
func clickpad(name: String = "bcm5974") -> CloneIdentity {
    var d = DeviceDescription()
    d.name = name
    (d.bus, d.vendor, d.product, d.version) = (0x03, 0x05ac, 0x0262, 0x0110)
    d.properties = [INPUT_PROP.POINTER, INPUT_PROP.BUTTONPAD]
    d.codes[EV.SYN] = [EV.SYN, EV.KEY, EV.ABS, EV.MSC]
    d.codes[EV.KEY] = [BTN.LEFT, BTN.TOUCH, 0x145, 0x14a, 0x14d, 0x14e, 0x14f]
    d.codes[EV.MSC] = [MSC.TIMESTAMP]
    d.absinfo[ABS.X] = AbsInfo(minimum: -4828, maximum: 5345, fuzz: 40, flat: 0, resolution: 46)
    d.absinfo[ABS.Y] = AbsInfo(minimum: -203, maximum: 6803, fuzz: 20, flat: 0, resolution: 45)
    d.absinfo[ABS.MT_SLOT] = AbsInfo(minimum: 0, maximum: 1)
    d.absinfo[ABS.MT_POSITION_X] = AbsInfo(minimum: -4828, maximum: 5345, fuzz: 40, flat: 0, resolution: 46)
    d.absinfo[ABS.MT_POSITION_Y] = AbsInfo(minimum: -203, maximum: 6803, fuzz: 20, flat: 0, resolution: 45)
    d.absinfo[ABS.MT_TRACKING_ID] = AbsInfo(minimum: 0, maximum: 65535)
    d.phys = "usb-0000:00:14.0-5/input2"
    return CloneIdentity(d)
}

func le32(_ bytes: [UInt8], _ at: Int) -> Int32 {
    Int32(bitPattern: UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24)
}
func le16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }

func frame(_ events: [(UInt16, UInt16, Int32)]) -> [InputEventRecord] {
    events.map { InputEventRecord(sec: 7, usec: 8, type: $0.0, code: $0.1, value: $0.2) }
}

@Suite struct UinputCloneTests {
    @Test func theCloneIsMadeWithEveryPartOfTheIdentity() throws {
        let fake = FakeUinput()
        let clone = try UinputClone(identity: clickpad(), realPhys: "usb-0000:00:14.0-5/input2", channel: fake)
        #expect(fake.values(UinputRequest.setEvBit) == [Int32(EV.KEY), Int32(EV.ABS), Int32(EV.MSC)])
        #expect(fake.values(UinputRequest.setKeyBit) == [0x110, 0x145, 0x14a, 0x14d, 0x14e, 0x14f])
        #expect(fake.values(UinputRequest.setAbsBit) == [0x00, 0x01, 0x2f, 0x35, 0x36, 0x39])
        #expect(fake.values(UinputRequest.setMscBit) == [0x05])
        #expect(fake.values(UinputRequest.setPropBit) == [0, 2])
        // Every axis: code, then value, min, max, fuzz, flat, resolution.
        let axes = fake.payloads(UinputRequest.absSetup).map { b in
            [Int32(le16(b, 0)), le32(b, 8), le32(b, 12), le32(b, 16), le32(b, 20), le32(b, 24)]
        }
        #expect(axes == [[0x00, -4828, 5345, 40, 0, 46], [0x01, -203, 6803, 20, 0, 45], [0x2f, 0, 1, 0, 0, 0],
                         [0x35, -4828, 5345, 40, 0, 46], [0x36, -203, 6803, 20, 0, 45], [0x39, 0, 65535, 0, 0, 0]])
        #expect(fake.payloads(UinputRequest.setPhys) == [Array("motionscript-clone/usb-0000:00:14.0-5/input2".utf8) + [0]])
        let setup = try #require(fake.payloads(UinputRequest.devSetup).first)
        #expect(setup.count == 92)
        #expect([le16(setup, 0), le16(setup, 2), le16(setup, 4), le16(setup, 6)] == [0x03, 0x05ac, 0x0262, 0x0110])
        #expect(Array(setup[8..<16]) == Array("bcm5974\0".utf8))
        // Created last, after everything it is made with.
        let create = try #require(fake.calls.firstIndex(of: .value(UinputRequest.devCreate, 0)))
        let lastSetup = try #require(fake.calls.lastIndex { if case .bytes(UinputRequest.devSetup, _) = $0 { true } else { false } })
        #expect(lastSetup == create - 1)
        #expect(clone.phys == "motionscript-clone/usb-0000:00:14.0-5/input2")
        #expect(clone.sysname == "input42")
        #expect(fake.writes.isEmpty)
    }

    @Test func aFrameIsOneWriteOfItsEventsWithoutTimes() throws {
        let fake = FakeUinput()
        let clone = try UinputClone(identity: clickpad(), realPhys: "p", channel: fake)
        clone.now = { 100 }
        let events = frame([(EV.ABS, ABS.MT_SLOT, 1), (EV.ABS, ABS.MT_POSITION_X, -300), (EV.MSC, MSC.TIMESTAMP, 9000), (EV.SYN, SYN.REPORT, 0)])
        events.withUnsafeBufferPointer { clone.write($0, due: 99.5) }
        #expect(fake.writes.count == 1)
        let bytes = fake.writes[0]
        #expect(bytes.count == 4 * 24)
        #expect(bytes[0..<16].allSatisfy { $0 == 0 })
        #expect([le16(bytes, 16), le16(bytes, 18)] == [EV.ABS, ABS.MT_SLOT])
        #expect(le32(bytes, 24 + 20) == -300)
        #expect([le16(bytes, 48 + 16), le16(bytes, 48 + 18)] == [EV.MSC, MSC.TIMESTAMP])
        #expect([le16(bytes, 72 + 16), le16(bytes, 72 + 18), UInt16(le32(bytes, 72 + 20))] == [EV.SYN, SYN.REPORT, 0])
        #expect(clone.framesWritten == 1)
    }

    @Test func framesDueLaterWaitForTheTimerInOrder() throws {
        let fake = FakeUinput()
        let clone = try UinputClone(identity: clickpad(), realPhys: "p", channel: fake)
        var now = 10.0
        var scheduled: [Double?] = []
        clone.now = { now }
        clone.schedule = { scheduled.append($0) }
        func write(_ x: Int32, due: Double) {
            frame([(EV.ABS, ABS.MT_POSITION_X, x), (EV.SYN, SYN.REPORT, 0)]).withUnsafeBufferPointer { clone.write($0, due: due) }
        }
        write(1, due: 10.03)
        write(2, due: 10.04)
        #expect(fake.writes.isEmpty)
        #expect(scheduled == [10.03])
        #expect(clone.waitingFrames == 2)
        now = 10.035
        clone.writeDue(now: now)
        #expect(fake.writes.map { le32($0, 20) } == [1])
        #expect(scheduled == [10.03, 10.04])
        // Due now, but behind one still waiting: it keeps its place.
        write(3, due: 10.035)
        #expect(fake.writes.map { le32($0, 20) } == [1])
        now = 10.04
        clone.writeDue(now: now)
        #expect(fake.writes.map { le32($0, 20) } == [1, 2, 3])
        #expect(scheduled.last == .some(nil))
        #expect(clone.waitingFrames == 0)
        // Nothing waiting: a frame due now goes at once.
        write(4, due: 10.04)
        #expect(fake.writes.map { le32($0, 20) } == [1, 2, 3, 4])
    }

    /// The input drain's thread, the host stalled: what waits goes first, then the frame, all
    /// at once, and the timer (the host's event loop) is not asked for anything.
    @Test func writeNowWritesWhatWaitsThenTheFrameWithoutTheTimer() throws {
        let fake = FakeUinput()
        let clone = try UinputClone(identity: clickpad(), realPhys: "p", channel: fake)
        var scheduled: [Double?] = []
        clone.now = { 10 }
        clone.schedule = { scheduled.append($0) }
        func frameOf(_ x: Int32) -> [InputEventRecord] { frame([(EV.ABS, ABS.MT_POSITION_X, x), (EV.SYN, SYN.REPORT, 0)]) }
        frameOf(1).withUnsafeBufferPointer { clone.write($0, due: 10.03) }
        frameOf(2).withUnsafeBufferPointer { clone.write($0, due: 10.04) }
        #expect(scheduled == [10.03])
        frameOf(3).withUnsafeBufferPointer { clone.writeNow($0) }
        #expect(fake.writes.map { le32($0, 20) } == [1, 2, 3])
        #expect(scheduled == [10.03])
        #expect(clone.waitingFrames == 0)
        // The timer fires later on the host's thread: nothing waits, it is told so.
        clone.writeDue(now: 10.03)
        #expect(fake.writes.count == 3)
        #expect(scheduled == [10.03, nil])
    }

    @Test func closeWritesWhatWaitsThenDestroysTheClone() throws {
        let fake = FakeUinput()
        let clone = try UinputClone(identity: clickpad(), realPhys: "p", channel: fake)
        clone.now = { 5 }
        frame([(EV.ABS, ABS.MT_TRACKING_ID, -1), (EV.SYN, SYN.REPORT, 0)]).withUnsafeBufferPointer { clone.write($0, due: 5.2) }
        clone.close()
        clone.close()
        #expect(Array(fake.calls.suffix(3).map { call -> String in
            switch call {
            case .write(let b): return "write \(b.count)"
            case .value(let r, _): return r == UinputRequest.devDestroy ? "destroy" : "other"
            case .close: return "close"
            case .bytes: return "other"
            }
        }) == ["write 48", "destroy", "close"])
        frame([(EV.SYN, SYN.REPORT, 0)]).withUnsafeBufferPointer { clone.write($0, due: 5) }
        #expect(fake.writes.count == 1)
    }

    @Test func aRefusedRequestIsAnErrorNamingItAndNothingStaysMade() throws {
        let fake = FakeUinput()
        fake.failing = UinputRequest.absSetup
        #expect(throws: CloneError("cannot make the clone of bcm5974: UI_ABS_SETUP 0 failed (Invalid argument)")) {
            try UinputClone(identity: clickpad(), realPhys: "p", channel: fake)
        }
        #expect(fake.calls.last == .close)
        #expect(!fake.calls.contains(.value(UinputRequest.devCreate, 0)))
    }

    @Test func aLongNameIsCutAtACharacterEnd() throws {
        let fake = FakeUinput()
        // 78 ASCII bytes, then "é" (2 bytes): 80 would not fit in 79.
        let name = String(repeating: "a", count: 78) + "é"
        _ = try UinputClone(identity: clickpad(name: name), realPhys: "p", channel: fake)
        let setup = try #require(fake.payloads(UinputRequest.devSetup).first)
        #expect(Array(setup[8..<88]) == Array(repeating: UInt8(ascii: "a"), count: 78) + [0, 0])
    }

    @Test func requestNumbersAreTheKernels() {
        #expect(UinputRequest.devSetup == 0x405c5503)
        #expect(UinputRequest.absSetup == 0x401c5504)
        #expect(UinputRequest.setPhys == 0x4008556c)
        #expect(UinputRequest.setPropBit == 0x4004556e)
        #expect(UinputRequest.getSysname(64) == 0x8040552c)
    }

    /// udev's libinput rules keep a touchpad's fuzz in LIBINPUT_FUZZ_* and zero the kernel's:
    /// the clone gets it back (X 8, MT X 8; Y keeps the 20 the kernel still says).
    @Test func theFuzzUdevKeptGoesBackIntoTheClonesAxes() throws {
        var pad = clickpad().device
        pad.absinfo[ABS.X]!.fuzz = 0
        pad.absinfo[ABS.MT_POSITION_X]!.fuzz = 0
        let entry = "I:12345\nE:ID_INPUT=1\nE:ID_INPUT_TOUCHPAD=1\nE:LIBINPUT_FUZZ_00=8\nE:LIBINPUT_FUZZ_35=8\nE:LIBINPUT_FUZZ_01=6\nE:LIBINPUT_FUZZ_zz=3\nG:seat\n"
        #expect(UdevFuzz.parse(entry) == [0x00: 8, 0x35: 8, 0x01: 6])
        let identity = UdevFuzz.applied(UdevFuzz.parse(entry), to: CloneIdentity(pad))
        #expect(identity.axes[ABS.X]?.fuzz == 8)
        #expect(identity.axes[ABS.MT_POSITION_X]?.fuzz == 8)
        #expect(identity.axes[ABS.Y]?.fuzz == 20)
        #expect(identity.axes[ABS.MT_POSITION_Y]?.fuzz == 20)
        #expect(UdevFuzz.entry(node: "/dev/null", directory: "/nonexistent") == "")
    }
}
