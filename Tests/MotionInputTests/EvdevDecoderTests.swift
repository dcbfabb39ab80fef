import Testing
import MotionGestures
@testable import MotionInput

private let SLOT = ABS.MT_SLOT, TID = ABS.MT_TRACKING_ID, MX = ABS.MT_POSITION_X, MY = ABS.MT_POSITION_Y

@Suite struct ProtocolBTests {
    @Test func downMoveUpWithUnchangedValuesNotResent() throws {
        let events = [
            axis(0, TID, 7), axis(0, MX, 100), axis(0, MY, 200),
            key(0, BTN.TOUCH, 1), axis(0, ABS.X, 100), axis(0, ABS.Y, 200), syn(0),
            axis(10, MX, 110), axis(10, ABS.X, 110), syn(10),           // y not re-sent
            axis(20, ABS.MT_PRESSURE, 30), syn(20),                    // no position change: no frame
            axis(30, TID, -1), key(30, BTN.TOUCH, 0), syn(30),
        ]
        let (frames, _) = try decode(events, device: touchscreen())
        #expect(frames == [
            Frame(t: 0, events: [p(0, 7, .down, 100, 200)]),
            Frame(t: 0.01, events: [p(0.01, 7, .move, 110, 200)]),
            Frame(t: 0.03, events: [p(0.03, 7, .up, 110, 200)]),
        ])
    }

    @Test func twoSlotsAndSingleTouchEmulationNotCounted() throws {
        let events = [
            axis(0, SLOT, 0), axis(0, TID, 1), axis(0, MX, 10), axis(0, MY, 20),
            axis(0, SLOT, 1), axis(0, TID, 2), axis(0, MX, 30), axis(0, MY, 40),
            key(0, BTN.TOUCH, 1), axis(0, ABS.X, 10), axis(0, ABS.Y, 20), syn(0),
            axis(8, MX, 35), syn(8),                                    // slot 1 still selected
            axis(16, SLOT, 0), axis(16, TID, -1), syn(16),
            axis(24, SLOT, 1), axis(24, TID, -1), key(24, BTN.TOUCH, 0), syn(24),
        ]
        let (frames, _) = try decode(events, device: touchscreen())
        #expect(frames.map(\.events) == [
            [p(0, 1, .down, 10, 20), p(0, 2, .down, 30, 40)],
            [p(0.008, 2, .move, 35, 40)],
            [p(0.016, 1, .up, 10, 20)],
            [p(0.024, 2, .up, 35, 40)],
        ])
    }

    @Test func changesGoOutInSlotOrderWhateverOrderTheFrameSetsThem() throws {
        // Ten fingers down; later frames change a few slots, in any order, and a slot first used
        // mid-frame (slot 3) sorts between the others.
        var events: [InputEventRecord] = []
        for slot: Int32 in [0, 1, 2, 4, 5, 6, 7, 8, 9, 10] {
            events += [axis(0, SLOT, slot), axis(0, TID, 100 + slot), axis(0, MX, slot), axis(0, MY, 0)]
        }
        events += [syn(0)]
        events += [axis(8, SLOT, 9), axis(8, MX, 90), axis(8, SLOT, 1), axis(8, MY, 11), axis(8, SLOT, 5), axis(8, MX, 50), syn(8)]
        events += [axis(16, SLOT, 8), axis(16, TID, -1), axis(16, SLOT, 3), axis(16, TID, 103), axis(16, MX, 3), axis(16, MY, 3),
                   axis(16, SLOT, 0), axis(16, MX, 7), syn(16)]
        events += [axis(24, SLOT, 5), axis(24, MX, 50), syn(24)]  // unchanged value: no frame
        let (frames, decoder) = try decode(events, device: touchscreen(slots: 59))
        #expect(frames.count == 4)
        #expect(frames[1].events == [p(0.008, 101, .move, 1, 11), p(0.008, 105, .move, 50, 0), p(0.008, 109, .move, 90, 0)])
        #expect(frames[2].events == [p(0.016, 100, .move, 7, 0), p(0.016, 103, .down, 3, 3), p(0.016, 108, .up, 8, 0)])
        #expect(frames[3].events.map(\.id) == [100, 101, 102, 103, 104, 105, 106, 107, 109, 110])
        #expect(frames[3].events.allSatisfy { $0.phase == .cancel })
        #expect(decoder.slotsInUse == 11)
    }

    @Test func newContactInSlotReusesUnsentPosition() throws {
        // After a lift, a new contact in the same slot with the same X does not re-send X.
        let events = [
            axis(0, TID, 1), axis(0, MX, 10), axis(0, MY, 20), syn(0),
            axis(5, TID, -1), syn(5),
            axis(9, TID, 2), axis(9, MY, 25), syn(9),
        ]
        let (frames, _) = try decode(events, device: touchscreen())
        #expect(frames.map(\.events) == [
            [p(0, 1, .down, 10, 20)], [p(0.005, 1, .up, 10, 20)], [p(0.009, 2, .down, 10, 25)],
            [p(0.009, 2, .cancel, 10, 25)],
        ])
    }

    @Test func liftAndNewTouchInOneFrame() throws {
        let events = [
            axis(0, TID, 1), axis(0, MX, 10), axis(0, MY, 20), syn(0),
            axis(5, TID, -1), axis(5, TID, 2), axis(5, MX, 50), syn(5),
        ]
        let (frames, _) = try decode(events, device: touchscreen())
        #expect(frames[1].events == [p(0.005, 1, .up, 10, 20), p(0.005, 2, .down, 50, 20)])
    }

    @Test func pointersDownAtEndAreCancelledAtTheLastEventTime() throws {
        let events = [axis(0, TID, 3), axis(0, MX, 1), axis(0, MY, 2), syn(0), axis(40, ABS.MT_PRESSURE, 9)]
        let (frames, _) = try decode(events, device: touchscreen())
        #expect(frames.last == Frame(t: 0.04, events: [p(0.04, 3, .cancel, 1, 2)]))
    }

    @Test func synDroppedDiscardsUpToNextReportAndResynchronizes() throws {
        let events = [
            axis(0, TID, 1), axis(0, MX, 10), axis(0, MY, 20), syn(0),
            axis(5, MX, 11),                                             // discarded: before SYN_DROPPED
            ev(6, EV.SYN, SYN.DROPPED, 0),
            axis(7, TID, -1), axis(7, TID, 2), axis(7, MX, 90), syn(7),  // discarded up to this report
            axis(9, MY, 95), syn(9),                                     // stale id 1 still down: a move
            axis(12, TID, 4), axis(12, MX, 70), syn(12),                 // id changed across the gap: lift + new touch
        ]
        let (frames, decoder) = try decode(events, device: touchscreen())
        #expect(decoder.droppedCount == 1)
        #expect(frames.map(\.events) == [
            [p(0, 1, .down, 10, 20)],
            [p(0.009, 1, .move, 10, 95)],
            [p(0.012, 1, .up, 10, 95), p(0.012, 4, .down, 70, 95)],
            [p(0.012, 4, .cancel, 70, 95)],
        ])
    }

    @Test func surfaceMapsTheAxisRange() throws {
        let events = [axis(0, TID, 1), axis(0, MX, 500), axis(0, MY, 250), syn(0), axis(1, MX, 1000), syn(1)]
        let options = EventFileOptions(surface: (200, 100))
        let (frames, _) = try decode(events, device: touchscreen(), options: options)
        #expect(frames.map(\.events).prefix(2) == [[p(0, 1, .down, 100, 25)], [p(0.001, 1, .move, 200, 25)]])
    }

    @Test func surfaceWithoutRangesIsAnError() throws {
        let events = [axis(0, TID, 1), axis(0, MX, 500), axis(0, MY, 250), syn(0)]
        let text = errorText { _ = try decode(events, options: EventFileOptions(surface: (200, 100))) }
        #expect(text?.contains("no range for") == true, "\(text ?? "")")
    }

    @Test func slotBeyondMaximumIsAnError() throws {
        let events = [axis(0, SLOT, 0), axis(0, TID, 1), axis(0, MX, 1), axis(0, MY, 1), axis(0, SLOT, 2), syn(0)]
        #expect(throws: EvdevDecoder.Failure(message: "slot 2 is beyond the device's maximum slot 1", place: 5)) {
            _ = try decode(events, device: touchscreen(slots: 2))
        }
    }

    @Test func positionForSlotWithoutTrackingIdIsAnError() throws {
        let events = [axis(0, SLOT, 1), axis(0, MX, 5), axis(0, MY, 6), syn(0)]
        #expect(throws: EvdevDecoder.Failure(message: "position for slot 1, which has no tracking id (ABS_MT_TRACKING_ID)", place: 2)) {
            _ = try decode(events, device: touchscreen())
        }
        // Live devices may start with fingers already down: ignored there.
        #expect(try decode(events, device: touchscreen(), strict: false).frames.isEmpty)
    }

    @Test func unknownEventTypesAreIgnoredAndCounted() throws {
        let events = [ev(0, 0x1e, 1, 1), axis(0, TID, 1), axis(0, MX, 1), axis(0, MY, 2), ev(0, 0x13, 0, 0), syn(0), ev(1, 0x1f, 3, 3)]
        let (frames, decoder) = try decode(events, device: touchscreen())
        #expect(decoder.unknownEventCount == 3)
        #expect(frames.first?.events == [p(0, 1, .down, 1, 2)])
    }

    @Test func protocolLearnedFromEventsWithoutDescription() throws {
        let events = [axis(0, TID, 5), axis(0, MX, 1), axis(0, MY, 2), key(0, BTN.TOUCH, 1), axis(0, ABS.X, 1), axis(0, ABS.Y, 2), syn(0),
                      axis(3, TID, -1), key(3, BTN.TOUCH, 0), syn(3)]
        let (frames, _) = try decode(events)
        #expect(frames.map(\.events) == [[p(0, 5, .down, 1, 2)], [p(0.003, 5, .up, 1, 2)]])
    }
}

@Suite struct ProtocolATests {
    private func device() -> DeviceDescription {
        var d = DeviceDescription()
        for code in [ABS.X, ABS.Y, MX, MY] {
            d.add(type: EV.ABS, code: code)
            d.absinfo[code] = AbsInfo(minimum: 0, maximum: 1000)
        }
        return d
    }

    @Test func contactsAreTrackedByNearestNeighbour() throws {
        let events = [
            axis(0, MX, 100), axis(0, MY, 100), mtReport(0), axis(0, MX, 500), axis(0, MY, 500), mtReport(0),
            key(0, BTN.TOUCH, 1), axis(0, ABS.X, 100), axis(0, ABS.Y, 100), syn(0),
            // Reported in the other order: ids follow the positions, not the order.
            axis(10, MX, 510), axis(10, MY, 505), mtReport(10), axis(10, MX, 104), axis(10, MY, 100), mtReport(10), syn(10),
            // The first contact lifts; a third lands far away (beyond a fifth of the diagonal: not a move).
            axis(20, MX, 512), axis(20, MY, 505), mtReport(20), axis(20, MX, 900), axis(20, MY, 50), mtReport(20), syn(20),
            // All lift: a frame without contacts.
            key(30, BTN.TOUCH, 0), syn(30),
        ]
        let (frames, _) = try decode(events, device: device())
        #expect(frames.map(\.events) == [
            [p(0, 0, .down, 100, 100), p(0, 1, .down, 500, 500)],
            [p(0.01, 0, .move, 104, 100), p(0.01, 1, .move, 510, 505)],
            [p(0.02, 0, .up, 104, 100), p(0.02, 1, .move, 512, 505), p(0.02, 2, .down, 900, 50)],
            [p(0.03, 1, .up, 512, 505), p(0.03, 2, .up, 900, 50)],
        ])
    }

    @Test func protocolALearnedFromSynMTReportWithoutDescription() throws {
        let events = [axis(0, MX, 7), axis(0, MY, 8), mtReport(0), syn(0), axis(5, MX, 9), axis(5, MY, 8), mtReport(5), syn(5)]
        let (frames, _) = try decode(events)
        #expect(frames.map(\.events) == [[p(0, 0, .down, 7, 8)], [p(0.005, 0, .move, 9, 8)], [p(0.005, 0, .cancel, 9, 8)]])
    }
}

@Suite struct SingleTouchAndRelativeTests {
    @Test func singleTouch() throws {
        var d = DeviceDescription()
        d.add(type: EV.KEY, code: BTN.TOUCH)
        d.absinfo[ABS.X] = AbsInfo(minimum: 0, maximum: 4095)
        d.absinfo[ABS.Y] = AbsInfo(minimum: 0, maximum: 4095)
        let events = [key(0, BTN.TOUCH, 1), axis(0, ABS.X, 100), axis(0, ABS.Y, 200), syn(0),
                      axis(10, ABS.Y, 210), syn(10), key(20, BTN.TOUCH, 0), syn(20),
                      axis(30, ABS.X, 5), syn(30),                                    // hover: nothing
                      key(40, BTN.TOUCH, 1), syn(40)]
        let (frames, _) = try decode(events, device: d)
        #expect(frames.map(\.events) == [
            [p(0, 0, .down, 100, 200)], [p(0.01, 0, .move, 100, 210)], [p(0.02, 0, .up, 100, 210)],
            [p(0.04, 1, .down, 5, 210)], [p(0.04, 1, .cancel, 5, 210)],
        ])
    }

    @Test func relativePointerStartsAtSurfaceCentreAndTracksWhileUp() throws {
        var d = DeviceDescription()
        d.add(type: EV.REL, code: REL.X)
        d.add(type: EV.REL, code: REL.Y)
        d.add(type: EV.KEY, code: BTN.LEFT)
        let events = [rel(0, REL.X, 10), rel(0, REL.Y, -5), syn(0),                  // hover: no pointer event
                      key(10, BTN.LEFT, 1), syn(10),
                      rel(20, REL.X, 3), syn(20), rel(25, REL.X, 1000), syn(25),     // clamped to the surface
                      key(30, BTN.LEFT, 0), syn(30)]
        let (frames, _) = try decode(events, device: d, options: EventFileOptions(surface: (800, 600)))
        #expect(frames.map(\.events) == [
            // t counts from the first frame that changes a pointer (the press), not from the hover.
            [p(0, 0, .down, 410, 295)], [p(0.01, 0, .move, 413, 295)], [p(0.015, 0, .move, 800, 295)], [p(0.02, 0, .up, 800, 295)],
        ])
    }

    @Test func relativeWithoutSurfaceStartsAtOriginInCounts() throws {
        let events = [key(0, BTN.LEFT, 1), syn(0), rel(8, REL.X, -4), rel(8, REL.Y, 6), syn(8)]
        let (frames, _) = try decode(events)
        #expect(frames.map(\.events) == [[p(0, 0, .down, 0, 0)], [p(0.008, 0, .move, -4, 6)], [p(0.008, 0, .cancel, -4, 6)]])
    }

    @Test func touchpadButtonIsNotAMouse() throws {
        var d = touchscreen()
        d.add(type: EV.KEY, code: BTN.LEFT)
        let (frames, _) = try decode([key(0, BTN.LEFT, 1), syn(0), key(5, BTN.LEFT, 0), syn(5)], device: d)
        #expect(frames.isEmpty)
    }
}

@Suite struct LiveResyncTests {
    /// After SYN_DROPPED the live device replays the kernel state: the lift that happened in the gap
    /// and the tracking id that changed are seen, nothing is invented.
    @Test func syntheticFrameRestoresKernelState() throws {
        let before = [axis(0, SLOT, 0), axis(0, TID, 1), axis(0, MX, 10), axis(0, MY, 20),
                      axis(0, SLOT, 1), axis(0, TID, 2), axis(0, MX, 30), axis(0, MY, 40), syn(0),
                      ev(5, EV.SYN, SYN.DROPPED, 0), axis(6, MX, 99), syn(6)]
        let sync = LiveResync.events(slots: [.init(trackingId: -1, x: 10, y: 20), .init(trackingId: 3, x: 50, y: 60)],
                                     currentSlot: 1, singleTouch: (50, 60), keys: [(BTN.TOUCH, true)], sec: 1000, usec: 6000)
        #expect(sync.count == 11)
        let (frames, _) = try decode(before + sync, device: touchscreen(), strict: false)
        #expect(frames.map(\.events) == [
            [p(0, 1, .down, 10, 20), p(0, 2, .down, 30, 40)],
            [p(0.006, 1, .up, 10, 20), p(0.006, 2, .up, 30, 40), p(0.006, 3, .down, 50, 60)],
            [p(0.006, 3, .cancel, 50, 60)],
        ])
        #expect(LiveResync.getMTSlots(8) == 0x8008450a)
    }
}
