import MotionGestures
import MotionInput
import MotionTestSupport
@testable import MotionProxy
import Testing

/// Random touches, claims, drops and ends: whatever happens, the clone is left consistent.
@Suite final class ArbiterInvariantTests {
    /// A random session on a 5-slot pad: fingers land and lift, move, press the button; now and
    /// then SYN_DROPPED; each frame decided with a random claim.
    /// Times at which the pad was idle, nothing held, and the clone still held a finger or a key.
    var stuck: [Double] = []

    func session(seed: UInt64, claims: [ConsumeClaim], drops: Bool) -> (clone: RecordedClone, input: [[Ev]], times: [Double], arbiter: TouchArbiter) {
        var rng = SplitMix64(seed: seed)
        let clone = RecordedClone()
        let arbiter = TouchArbiter(identity: padIdentity(), sink: clone)
        var ids: [Int32] = Array(repeating: -1, count: 5)
        var next: Int32 = 1
        var button = false
        var input: [[Ev]] = [], times: [Double] = []
        for k in 0..<400 {
            let t = Double(k) * 0.01
            var events: [Ev] = []
            let before = ids.contains { $0 >= 0 }
            for s in 0..<5 {
                let r = Int.random(in: 0..<20, using: &rng)
                if ids[s] < 0, r == 0 {
                    ids[s] = next; next += 1
                    events += [slot(Int32(s)), tid(ids[s]), mx(Int32.random(in: 0...1000, using: &rng)), my(Int32.random(in: 0...600, using: &rng))]
                } else if ids[s] >= 0, r == 1 {
                    ids[s] = -1
                    events += [slot(Int32(s)), tid(-1)]
                } else if ids[s] >= 0, r < 10 {
                    events += [slot(Int32(s)), mx(Int32.random(in: 0...1000, using: &rng))]
                }
            }
            let after = ids.contains { $0 >= 0 }
            if before != after { events.append(key(BTN.TOUCH, after ? 1 : 0)) }
            if after, Int.random(in: 0..<15, using: &rng) == 0 {
                button.toggle()
                events.append(key(BTN.LEFT, button ? 1 : 0))
            } else if !after && button {
                button = false
                events.append(key(BTN.LEFT, 0))
            }
            let claim = claims[Int.random(in: 0..<claims.count, using: &rng)]
            if drops, Int.random(in: 0..<60, using: &rng) == 0 {
                _ = arbiter.take(InputEventRecord(sec: 0, usec: 0, type: EV.SYN, code: SYN.DROPPED, value: 0))
            }
            for e in events + [syn] {
                _ = arbiter.take(InputEventRecord(sec: 0, usec: 0, type: e.type, code: e.code, value: e.value))
            }
            arbiter.decide(claim, at: t)
            if !after, !button, !arbiter.isHolding {
                let now = replay(clone.frames.map(\.events))
                if !now.fingers.isEmpty || !now.keys.isEmpty { stuck.append(t) }
            }
            input.append(events + [syn])
            times.append(t)
        }
        arbiter.end(at: 4.0)
        return (clone, input, times, arbiter)
    }

    /// What the clone holds after its frames: fingers (slot → id) and keys down.
    func replay(_ frames: [[Ev]]) -> (fingers: [Int: Int32], keys: Set<UInt16>, badIds: Int) {
        var slotNow = 0
        var fingers: [Int: Int32] = [:]
        var keys = Set<UInt16>()
        var seen = Set<Int32>()
        var bad = 0
        for frame in frames {
            for e in frame {
                if e.type == EV.ABS && e.code == ABS.MT_SLOT { slotNow = Int(e.value) }
                if e.type == EV.ABS && e.code == ABS.MT_TRACKING_ID {
                    if e.value >= 0 {
                        // A finger the clone gets starts once: never a tracking id made up or reused.
                        if seen.contains(e.value) { bad += 1 }
                        seen.insert(e.value)
                        fingers[slotNow] = e.value
                    } else {
                        fingers[slotNow] = nil
                    }
                }
                if e.type == EV.KEY { if e.value != 0 { keys.insert(e.code) } else { keys.remove(e.code) } }
            }
        }
        return (fingers, keys, bad)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func theCloneEndsWithNothingDownAndItsTimesNeverGoBack(seed: UInt64) {
        let run = session(seed: seed, claims: [.none, .none, .couldBecome, .matching, .matching, .began], drops: true)
        let end = replay(run.clone.frames.map(\.events))
        #expect(stuck.isEmpty, "seed \(seed): the clone held a finger or a key with the pad idle at \(stuck.prefix(5))")
        #expect(end.fingers.isEmpty, "seed \(seed): \(end.fingers)")
        #expect(end.keys.isEmpty, "seed \(seed): \(end.keys)")
        #expect(end.badIds == 0)
        #expect(zip(run.clone.dues, run.clone.dues.dropFirst()).allSatisfy { $0 <= $1 })
        // Every frame ends with its report, and holds one at most.
        #expect(run.clone.frames.allSatisfy { $0.events.last == syn && $0.events.filter { $0 == syn }.count == 1 })
    }

    @Test(arguments: [11, 12, 13] as [UInt64])
    func withoutConsumersTheCloneGetsTheInputItselfAtItsOwnTimes(seed: UInt64) {
        let run = session(seed: seed, claims: [.none], drops: false)
        // The end lifts what is still down: the frames before it are the input's.
        let passed = run.clone.frames.prefix(run.input.count)
        #expect(passed.map(\.events) == run.input)
        #expect(passed.map(\.due) == run.times)
    }
}
