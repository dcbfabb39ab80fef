import Testing
import MotionGestures
@testable import MotionInput

private let MX = ABS.MT_POSITION_X, MY = ABS.MT_POSITION_Y, SLOT = ABS.MT_SLOT, TID = ABS.MT_TRACKING_ID

/// Every value a format can hold is data: extreme but valid values decode (or are errors with their
/// place), never a trap or an allocation sized by a header's claim.
@Suite struct ExtremeValueTests {
    @Test func protocolAContactsAcrossTheWholeIntRange() throws {
        let events = [axis(0, MX, .min), axis(0, MY, .min), mtReport(0), syn(0),
                      axis(10, MX, .max), axis(10, MY, .max), mtReport(10), syn(10)]
        // No ranges: contacts match however far apart (the squared distance, 3.7e19, is past Int64).
        let (frames, _) = try decode(events)
        #expect(frames.map(\.events) == [[p(0, 0, .down, -2147483648, -2147483648)],
                                         [p(0.01, 0, .move, 2147483647, 2147483647)],
                                         [p(0.01, 0, .cancel, 2147483647, 2147483647)]])
    }

    @Test func fullRangeAxesOnBothAxes() throws {
        var device = DeviceDescription()
        for code in [ABS.X, ABS.Y, MX, MY] {
            device.absinfo[code] = AbsInfo(minimum: .min, maximum: .max)
            device.add(type: EV.ABS, code: code)
        }
        let events = [axis(0, MX, .min), axis(0, MY, .min), mtReport(0), syn(0),
                      axis(10, MX, .max), axis(10, MY, .max), mtReport(10), syn(10)]
        // A jump across the whole diagonal is more than a fifth of it: a lift and a new touch.
        let (frames, _) = try decode(events, device: device, options: EventFileOptions(surface: (100, 100)))
        #expect(frames.map(\.events) == [[p(0, 0, .down, 0, 0)],
                                         [p(0.01, 0, .up, 0, 0), p(0.01, 1, .down, 100, 100)],
                                         [p(0.01, 1, .cancel, 100, 100)]])
    }

    @Test func hugeSlotMaximumKeepsStateForUsedSlotsOnly() throws {
        let dir = TempDir()
        let path = dir.write("slots.evemu", """
            # EVEMU 1.3
            N: huge
            A: 2f 0 2147483647 0 0 0
            A: 35 0 1000 0 0 0
            A: 36 0 1000 0 0 0
            A: 39 0 65535 0 0 0
            E: 0.000001 0003 002f 2147483647
            E: 0.000001 0003 0039 0007
            E: 0.000001 0003 0035 0010
            E: 0.000001 0003 0036 0020
            E: 0.000001 0000 0000 0000
            E: 0.010001 0003 002f 0000
            E: 0.010001 0003 0039 0008
            E: 0.010001 0003 0035 0030
            E: 0.010001 0003 0036 0040
            E: 0.010001 0000 0000 0000

            """)
        let source = try #require(try openEventFile(path: path) as? EvemuReader)
        #expect(try source.readAll().map(\.events) == [[p(0, 7, .down, 10, 20)], [p(0.01, 8, .down, 30, 40)],
                                                      [p(0.01, 8, .cancel, 30, 40), p(0.01, 7, .cancel, 10, 20)]])
        #expect(source.decoder.slotsInUse == 2)
    }

    @Test func distinctSlotsAreCapped() throws {
        var events: [InputEventRecord] = []
        for slot in 0...Int32(ProtocolBSlots.maxSlotsInUse) {
            events += [axis(0, SLOT, slot * 1000), axis(0, TID, slot), axis(0, MX, 1), axis(0, MY, 1)]
        }
        events.append(syn(0))
        #expect(throws: EvdevDecoder.Failure(message: "more than 1024 distinct slots used (slot 1024000)", place: 4097)) {
            _ = try decode(events, device: touchscreen(slots: .max))
        }
    }

    @Test func bitmapLongerThanSixteenBitCodesIsAnError() throws {
        let dir = TempDir()
        let bytes = Array(repeating: "ff", count: 8193).joined(separator: " ")
        let path = dir.write("long.evemu", "# EVEMU 1.3\nN: x\nB: 01 \(bytes)\nE: 0.000001 0000 0000 0000\n")
        #expect(throws: InputError(file: path, line: 3, "evemu 'B:' lines for type 1 hold more than 8192 bytes (codes are 16-bit)")) {
            _ = try openEventFile(path: path)
        }
    }

    @Test(arguments: [
        ("P: 00 100", "malformed evemu line: expected 'P:' followed by hex bytes (00 to ff)"),
        ("B: 03 03 1ff", "malformed evemu line: expected 'B: type bytes...' (hex bytes 00 to ff)"),
        ("B: 03 03 -1", "malformed evemu line: expected 'B: type bytes...' (hex bytes 00 to ff)"),
    ])
    func headerBytesAboveFFAreErrors(line: String, message: String) throws {
        let dir = TempDir()
        let path = dir.write("bytes.evemu", "# EVEMU 1.3\nN: x\n\(line)\nE: 0.000001 0000 0000 0000\n")
        #expect(throws: InputError(file: path, line: 3, message)) { _ = try openEventFile(path: path) }
    }

    @Test func framesAreBounded() throws {
        let events = Array(repeating: rel(0, REL.X, .max), count: EvdevDecoder.maxFrameEvents + 1) + [syn(0)]
        #expect(throws: EvdevDecoder.Failure(message: "more than 65536 events without a SYN_REPORT", place: 65537)) {
            _ = try decode(events)
        }
    }

    @Test func protocolAContactsPerFrameAreBounded() throws {
        var events: [InputEventRecord] = []
        for i in 0...Int32(ProtocolAContacts.maxContacts) { events += [axis(0, MX, i), axis(0, MY, i), mtReport(0)] }
        events.append(syn(0))
        #expect(throws: EvdevDecoder.Failure(message: "more than 256 contacts in one frame", place: 771)) {
            _ = try decode(events)
        }
    }

    @Test func linesAreBounded() throws {
        let dir = TempDir()
        let path = dir.write("long.jsonl", "{\"t\":0,\"id\":1,\"phase\":\"down\",\"x\":1,\"y\":2}\n{\"pad\":\"" + String(repeating: "x", count: LineReader.maxLineLength) + "\"}\n")
        #expect(throws: InputError(file: path, line: 2, "line longer than 4194304 bytes")) { _ = try openEventFile(path: path).readAll() }
    }

    @Test func int64MinimumReads() throws {
        let text = "- [-9223372036854775808, 0, 1, 2, 3]"
        let value = Array(text.utf8).withUnsafeBufferPointer { b -> Int64? in
            var s = ByteScanner(b, at: 3)
            return s.integer()
        }
        #expect(value == .min)
    }

    @Test func secondsNearTheEndOfInt64DoNotWrap() throws {
        let events = [InputEventRecord(sec: .max - 1, usec: 0, type: EV.ABS, code: ABS.X, value: 5),
                      InputEventRecord(sec: .max - 1, usec: 0, type: EV.KEY, code: BTN.TOUCH, value: 1),
                      InputEventRecord(sec: .max - 1, usec: 0, type: EV.SYN, code: SYN.REPORT, value: 0),
                      InputEventRecord(sec: .max, usec: 500_000, type: EV.ABS, code: ABS.X, value: 6),
                      InputEventRecord(sec: .max, usec: 500_000, type: EV.SYN, code: SYN.REPORT, value: 0)]
        let (frames, _) = try decode(events)
        #expect(frames.map(\.t) == [0, 1.5, 1.5])
    }

    @Test func absurdTimeSpanIsAnError() throws {
        let events = [InputEventRecord(sec: 0, usec: 0, type: EV.KEY, code: BTN.TOUCH, value: 1),
                      InputEventRecord(sec: 0, usec: 0, type: EV.SYN, code: SYN.REPORT, value: 0),
                      InputEventRecord(sec: .max, usec: 0, type: EV.KEY, code: BTN.TOUCH, value: 0)]
        #expect(throws: EvdevDecoder.Failure(message: "time span too large: t=9.223372036854776e+18 s from the first event (at most 1000000000000.0 s)", place: 3)) {
            _ = try decode(events)
        }
    }
}

/// One rule for time in every format: going backwards is an error at its place (live devices, whose
/// clock may step, hold time instead).
@Suite struct TimeOrderTests {
    private let backwards = [key(20, BTN.TOUCH, 1), axis(20, ABS.X, 1), syn(20), axis(10, ABS.X, 2), syn(10), axis(30, ABS.X, 3), syn(30)]

    @Test func evdevTimeGoingBackwardsIsAnError() throws {
        #expect(throws: EvdevDecoder.Failure(message: "time goes backwards: t=-0.01 after t=0.0", place: 4)) {
            _ = try decode(backwards)
        }
    }

    @Test func evemuTimeGoingBackwardsNamesTheLine() throws {
        let dir = TempDir()
        let path = dir.write("back.evemu", "# EVEMU 1.3\nE: 0.500000 0001 014a 0001\nE: 0.500000 0000 0000 0000\nE: 0.400000 0003 0000 0001\n")
        #expect(throws: InputError(file: path, line: 4, "time goes backwards: t=-0.1 after t=0.0")) { _ = try openEventFile(path: path).readAll() }
    }

    @Test func liveTimeGoingBackwardsHoldsTime() throws {
        let (frames, _) = try decode(backwards, strict: false)
        #expect(frames.map(\.t) == [0, 0, 0.01, 0.01])
        #expect(frames.map { $0.events.map(\.x) } == [[1], [2], [3], [3]])
    }

    @Test func jsonLinesSpanOverflowingToInfinityIsAnInputError() throws {
        let dir = TempDir()
        let path = dir.write("inf.jsonl", """
            {"t":-1e308,"id":1,"phase":"down","x":0,"y":0}
            {"t":1e308,"id":1,"phase":"up","x":0,"y":0}
            """)
        #expect(throws: InputError(file: path, line: 2, "time span too large: t=inf s from the first event (at most 1000000000000.0 s)")) {
            _ = try openEventFile(path: path).readAll()
        }
    }

    @Test func jsonLinesAbsurdSpanIsAnInputError() throws {
        let dir = TempDir()
        let path = dir.write("far.jsonl", """
            {"t":0,"id":1,"phase":"down","x":0,"y":0}
            {"t":1e17,"id":1,"phase":"up","x":0,"y":0}
            """)
        #expect(throws: InputError(file: path, line: 2, "time span too large: t=1e+17 s from the first event (at most 1000000000000.0 s)")) {
            _ = try openEventFile(path: path).readAll()
        }
    }
}

@Suite struct TrackingIdTests {
    private let twice = [axis(0, SLOT, 0), axis(0, TID, 5), axis(0, MX, 1), axis(0, MY, 1),
                         axis(0, SLOT, 1), axis(0, TID, 5), axis(0, MX, 9), axis(0, MY, 9), syn(0),
                         axis(10, SLOT, 0), axis(10, TID, -1), syn(10)]

    @Test func sameTrackingIdInTwoSlotsIsAnErrorInFiles() throws {
        #expect(throws: EvdevDecoder.Failure(message: "tracking id 5 in slot 1 is already used by slot 0", place: 6)) {
            _ = try decode(twice, device: touchscreen())
        }
    }

    @Test func sameTrackingIdInTwoSlotsIsOnePointerLive() throws {
        let (frames, _) = try decode(twice, device: touchscreen(), strict: false)
        // One down and one up for pointer 5; the second slot's claim is ignored.
        #expect(frames.map(\.events) == [[p(0, 5, .down, 1, 1)], [p(0.01, 5, .up, 1, 1)]])
    }

    @Test func trackingIdMovingToAnEarlierSlotLiftsBeforeItGoesDown() throws {
        let events = [axis(0, SLOT, 1), axis(0, TID, 5), axis(0, MX, 1), axis(0, MY, 1), syn(0),
                      axis(10, TID, -1), axis(10, SLOT, 0), axis(10, TID, 5), axis(10, MX, 2), axis(10, MY, 2), syn(10)]
        for strict in [true, false] {
            let (frames, _) = try decode(events, device: touchscreen(), strict: strict)
            #expect(frames.map(\.events) == [[p(0, 5, .down, 1, 1)], [p(0.01, 5, .up, 1, 1), p(0.01, 5, .down, 2, 2)],
                                             [p(0.01, 5, .cancel, 2, 2)]])
        }
    }

    @Test func trackingIdMovingToAnotherSlotInOneFrameIsNotADuplicate() throws {
        let events = [axis(0, SLOT, 0), axis(0, TID, 5), axis(0, MX, 1), axis(0, MY, 1), syn(0),
                      axis(10, TID, -1), axis(10, SLOT, 1), axis(10, TID, 5), axis(10, MX, 2), axis(10, MY, 2), syn(10)]
        let (frames, _) = try decode(events, device: touchscreen())
        #expect(frames.map(\.events) == [[p(0, 5, .down, 1, 1)], [p(0.01, 5, .up, 1, 1), p(0.01, 5, .down, 2, 2)],
                                         [p(0.01, 5, .cancel, 2, 2)]])
    }
}

/// A source without a description learns its protocol from its events; a pointer the earlier
/// reading had down is cancelled when the protocol changes, so one id is never down twice.
@Suite struct ProtocolSwitchTests {
    @Test func relativeThenMultiTouch() throws {
        let events = [key(0, BTN.LEFT, 1), rel(0, REL.X, 5), syn(0),
                      axis(10, TID, 0), axis(10, MX, 1), axis(10, MY, 2), syn(10)]
        let (frames, _) = try decode(events)
        #expect(frames.map(\.events) == [[p(0, 0, .down, 5, 0)],
                                         [p(0.01, 0, .cancel, 5, 0), p(0.01, 0, .down, 1, 2)],
                                         [p(0.01, 0, .cancel, 1, 2)]])
    }

    @Test func singleTouchThenMultiTouch() throws {
        let events = [key(0, BTN.TOUCH, 1), axis(0, ABS.X, 3), axis(0, ABS.Y, 4), syn(0),
                      axis(10, TID, 0), axis(10, MX, 1), axis(10, MY, 2), syn(10)]
        let (frames, _) = try decode(events)
        #expect(frames.map(\.events) == [[p(0, 0, .down, 3, 4)],
                                         [p(0.01, 0, .cancel, 3, 4), p(0.01, 0, .down, 1, 2)],
                                         [p(0.01, 0, .cancel, 1, 2)]])
    }
}

/// A device that is a mouse and a touch surface at once (Magic Mouse): the touch's tracking id is
/// its pointer id, the mouse pointer takes ids that are not down, and neither goes down twice.
@Suite struct MixedProtocolIdTests {
    private var mouseWithTouch: DeviceDescription {
        var d = touchscreen()
        d.add(type: EV.REL, code: REL.X)
        d.add(type: EV.REL, code: REL.Y)
        d.add(type: EV.KEY, code: BTN.LEFT)
        return d
    }

    @Test func mouseIdSkipsTouchIdsThatAreDown() throws {
        let events = [axis(0, TID, 0), axis(0, MX, 1), axis(0, MY, 2), syn(0),
                      key(10, BTN.LEFT, 1), rel(10, REL.X, 5), syn(10)]
        let (frames, _) = try decode(events, device: mouseWithTouch)
        #expect(frames.map(\.events) == [[p(0, 0, .down, 1, 2)], [p(0.01, 1, .down, 5, 0)],
                                         [p(0.01, 0, .cancel, 1, 2), p(0.01, 1, .cancel, 5, 0)]])
    }

    @Test func touchTakingTheMouseIdCancelsTheMousePointer() throws {
        let events = [key(0, BTN.LEFT, 1), rel(0, REL.X, 5), syn(0),
                      axis(10, TID, 0), axis(10, MX, 1), axis(10, MY, 2), syn(10)]
        let (frames, _) = try decode(events, device: mouseWithTouch)
        #expect(frames.map(\.events) == [[p(0, 0, .down, 5, 0)], [p(0.01, 0, .cancel, 5, 0), p(0.01, 0, .down, 1, 2)],
                                         [p(0.01, 0, .cancel, 1, 2)]])
    }
}
