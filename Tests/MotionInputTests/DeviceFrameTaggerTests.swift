import MotionGestures
import Testing
@testable import MotionInput

/// A live frame's events array is shared with the decoder that made it (its `out`, kept for
/// the next frame): tagging a frame that needs no change must not write to the array, since a
/// write copies it (an allocation per frame on the live path).
@Suite struct DeviceFrameTaggerTests {
    private static func storage(_ events: [PointerEvent]) -> UnsafeRawPointer? {
        events.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func aFrameThatNeedsNoChangeKeepsItsSharedEvents() {
        let device = PointerDevice(name: "screen", kind: "touchscreen")
        let decoderCopy = [PointerEvent(t: 0.25, id: 3, phase: .down, x: 1, y: 2, device: device),
                           PointerEvent(t: 0.25, id: 4, phase: .move, x: 5, y: 6, device: device)]
        var frame = Frame(t: 0.25, events: decoderCopy)
        var tagger = DeviceFrameTagger()
        var ids = DevicePointerIds()
        tagger.tag(&frame, t: 0.25, device: device, ids: &ids) { _ in false }
        #expect(Self.storage(frame.events) == Self.storage(decoderCopy))
        // A move of the same pointer, its id already given out: still nothing to write.
        let next = [PointerEvent(t: 0.5, id: 3, phase: .move, x: 7, y: 8, device: device)]
        var second = Frame(t: 0.5, events: next)
        tagger.tag(&second, t: 0.5, device: device, ids: &ids) { _ in false }
        #expect(Self.storage(second.events) == Self.storage(next))
        withExtendedLifetime((decoderCopy, next)) {}
    }

    @Test func aFrameThatNeedsAChangeIsWrittenAndTheDecodersCopyIsNot() {
        let device = PointerDevice(name: "screen", kind: "touchscreen")
        let decoderCopy = [PointerEvent(t: 0.25, id: 3, phase: .down, x: 1, y: 2, device: nil)]
        var frame = Frame(t: 0.25, events: decoderCopy)
        var tagger = DeviceFrameTagger()
        var ids = DevicePointerIds()
        // Id 3 is down on another device: this one gets a fresh id, and the time moves.
        tagger.tag(&frame, t: 1.5, device: device, ids: &ids) { $0 == 3 }
        #expect(frame.t == 1.5)
        #expect(frame.events.map(\.id) == [1_000_000])
        #expect(frame.events.map(\.t) == [1.5])
        #expect(frame.events[0].device === device)
        #expect(decoderCopy[0].id == 3 && decoderCopy[0].t == 0.25 && decoderCopy[0].device == nil)
    }
}
