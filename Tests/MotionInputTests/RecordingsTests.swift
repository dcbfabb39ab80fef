import Testing
import MotionGestures
@testable import MotionInput

/// The four real recordings (evemu project test data): they decode without error, and the counts
/// pinned here were checked against the files (tracking-id events, SYN_REPORTs, first contacts).
/// Skipped, and said so, where the recordings are not beside the repository.
@Suite(.enabled(if: recordingsDir != nil, "needs the evemu recordings in ../shared/recordings"))
struct RecordingsTests {
    private func read(_ name: String) throws -> (frames: [Frame], source: EvdevFileSource) {
        let dir = try #require(recordingsDir)
        let source = try openEventFile(path: "\(dir)/\(name).evemu")
        let evemu = try #require(source as? EvemuReader)
        return (try evemu.readAll(), evemu)
    }

    @Test func threeM() throws {
        let (frames, source) = try read("3m")
        #expect(source.device.name == "3M-3M-MicroTouch-USB-controller Virtual Device")
        #expect(source.device.absinfo[ABS.MT_SLOT]?.maximum == 59)
        #expect(source.device.absinfo[ABS.MT_POSITION_X]?.resolution == 0)  // evemu 1.1: no resolution
        // 3422 SYN_REPORTs, of which 3375 change a pointer (the others only change touch size);
        // 34 tracking ids start, 32 end: two fingers are still down when the recording stops.
        #expect(frames.count == 3375)
        #expect(phaseCounts(frames) == [.down: 34, .up: 32, .move: 10770, .cancel: 2])
        // t counts from the first frame (its SYN_REPORT 22 µs after the first event).
        #expect(frames[0] == Frame(t: 0, events: [p(0, 0, .down, 27024, 6145)]))
        #expect(frames[1] == Frame(t: 0.060961, events: [p(0.060961, 0, .up, 27024, 6145)]))
        #expect(frames[2].events == [p(1.29221, 1, .down, 24168, 6113)])
        #expect(source.unknownEventCount == 0)
    }

    @Test func wetab() throws {
        let (frames, _) = try read("wetab")
        // 42 SYN_REPORTs, each changing a pointer; 11 taps/drags, all lifted.
        #expect(frames.count == 42)
        #expect(phaseCounts(frames) == [.down: 11, .up: 11, .move: 20])
        #expect(frames[0].events == [p(0, 431, .down, 13552, 27360)])
        #expect(frames[1].events == [p(0.204952, 431, .up, 13552, 27360)])
        #expect(frames[2].events == [p(0.81596, 432, .down, 18864, 29408)])
        #expect(frames[3].events == [p(0.837924, 432, .move, 18864, 29392)])
    }

    @Test func ntrigProtocolA() throws {
        let (frames, _) = try read("ntrig-dell-xt2")
        #expect(frames.count == 8)
        #expect(phaseCounts(frames) == [.down: 4, .up: 4, .move: 18])
        // Three contacts in the first frame, matched to the next frame's by proximity.
        #expect(frames[0].events == [p(0, 0, .down, 7411, 4677), p(0, 1, .down, 7361, 3291), p(0, 2, .down, 5912, 1483)])
        #expect(frames[1].events == [p(0.017795, 0, .move, 7380, 4674), p(0.017795, 1, .move, 7401, 3263), p(0.017795, 2, .move, 5887, 1484)])
        // The last frame: BTN_TOUCH 0 and no contacts: the last finger lifts.
        #expect(frames.last?.events.map(\.phase) == [.up])
        #expect(frames.last?.t == 0.117702)
    }

    @Test func bcm5974ProtocolA() throws {
        let (frames, source) = try read("bcm5974")
        #expect(source.device.absinfo[ABS.MT_POSITION_X] == AbsInfo(minimum: -4824, maximum: 5342))
        #expect(frames.count == 633)
        // Five touch sessions (BTN_TOUCH 1 ... 0) of 1, 2, 3, 4 and 4 fingers: 14 pointers, all lifted
        // when BTN_TOUCH goes to 0, none left to cancel.
        #expect(phaseCounts(frames) == [.down: 14, .up: 14, .move: 1273])
        #expect(frames[0].events == [p(0, 0, .down, 1613, 3628)])
        #expect(frames[1].events == [p(0.008061, 0, .move, 1641, 3616)])
    }

    /// Each touch session of the bcm5974 recording (a protocol A touchpad) comes out as its own
    /// pointers: a session ends when BTN_TOUCH goes to 0, and the size-0 contacts the pad sends as a
    /// finger leaves are not touches.
    @Test func bcm5974TouchSessionsAreSeparatePointers() throws {
        let (frames, _) = try read("bcm5974")
        // Split into periods during which some pointer is down.
        var sessions: [(start: Double, end: Double, ids: Set<Int>, peak: Int)] = []
        var down: Set<Int> = []
        for frame in frames {
            for e in frame.events {
                switch e.phase {
                case .down:
                    if down.isEmpty { sessions.append((e.t, e.t, [], 0)) }
                    down.insert(e.id)
                    sessions[sessions.count - 1].ids.insert(e.id)
                case .up, .cancel:
                    down.remove(e.id)
                case .move:
                    break
                }
            }
            sessions[sessions.count - 1].peak = max(sessions[sessions.count - 1].peak, down.count)
            sessions[sessions.count - 1].end = frame.t
        }
        #expect(down.isEmpty)
        #expect(sessions.map(\.peak) == [1, 2, 3, 4, 4])
        #expect(sessions.map(\.ids.count) == [1, 2, 3, 4, 4])
        // Frames with BTN_TOUCH 1 and BTN_TOUCH 0 in the file, relative to its first frame.
        #expect(sessions.map(\.start) == [0, 2.293041, 5.362048, 8.169109, 9.065188])
        #expect(sessions.map(\.end) == [1.511948, 4.116996, 6.829038, 8.273059, 9.158054])
        // No pointer id in two sessions.
        for i in sessions.indices { for j in sessions.indices where j > i { #expect(sessions[i].ids.isDisjoint(with: sessions[j].ids)) } }
    }

    @Test func surfaceMappingOnRealRecording() throws {
        let dir = try #require(recordingsDir)
        let source = try openEventFile(path: "\(dir)/wetab.evemu", options: EventFileOptions(surface: (32760, 1000)))
        let first = try #require(try source.nextFrame())
        // x range 0...32760 onto 32760 units is the identity; y 27360 of 32760 onto 1000.
        #expect(first.events == [p(0, 431, .down, 13552, 27360.0 / 32760 * 1000)])
    }
}
