import Testing
import MotionStreams
@testable import MotionGestures

/// Recognizers take the frames that only move their pointers quietly when they cannot act on
/// them (`GestureRecognizer.movesAreQuiet`). These tests hold that to what handling every frame
/// in full gives, value for value.

/// The recognizers of a desktop configuration (the daemon bench's ten plugins and a few
/// more), fed by one dispatcher, each writing into one log.
private final class World {
    let dispatcher = PointerDispatcher()
    let recognizers: [GestureRecognizer]
    private(set) var log: [(Int, GestureValue)] = []

    init(quiet: Bool) throws {
        let leftHalf = Element(width: 500, height: 1000)
        let tap2 = try TapGestureRecognizer()
        tap2.fingers = 2
        let doubleTap3 = try TapGestureRecognizer(taps: 2)
        doubleTap3.fingers = 3
        let singleTap = try TapGestureRecognizer()
        let doubleTap = try TapGestureRecognizer(taps: 2)
        singleTap.require(toFail: doubleTap)
        let hold3 = try HoldGestureRecognizer(fingers: 3, duration: 0.6)
        let swipe3 = try SwipeGestureRecognizer(fingers: 3, direction: .left)
        swipe3.require(toFail: hold3)
        recognizers = [
            try SwipeGestureRecognizer(fingers: 1, direction: .right),
            swipe3,
            try SwipeGestureRecognizer(fingers: 3, direction: .right),
            try SwipeGestureRecognizer(fingers: 4, direction: .up),
            try SwipeGestureRecognizer(),
            tap2, doubleTap3, singleTap, doubleTap,
            hold3,
            try HoldGestureRecognizer(fingers: 1, duration: 0.2),
            try ScaleGestureRecognizer(),
            try RotationGestureRecognizer(),
            try TranslationGestureRecognizer(minPointers: 2),
            try TranslationGestureRecognizer(),
            // On the left half only: fingers elsewhere move without touching them.
            try SwipeGestureRecognizer(element: leftHalf, fingers: 1),
            try ScaleGestureRecognizer(element: leftHalf),
            try TranslationGestureRecognizer(element: leftHalf, minPointers: 2),
        ]
        for (i, recognizer) in recognizers.enumerated() {
            recognizer.takesQuietFrames = quiet
            recognizer.addListener { [unowned self] in log.append((i, $0)) }
            dispatcher.add(recognizer)
        }
    }
}

/// Random input, the same for both worlds: fingers going down, moving (one or all, a little
/// or a lot), lifting and cancelled, frames with no event, pauses long enough for taps and
/// holds to decide on time, live waits without a frame, recognizers disabled and enabled, and
/// values read between frames (which runs what quiet frames put off).
private func compareQuietAndFull(seed: UInt64, frames: Int) throws -> (quietFrames: Int, reads: Int) {
    var random = SplitMix64(seed: seed)
    let quiet = try World(quiet: true), full = try World(quiet: false)
    var down: [Int: Point] = [:]
    var nextID = 1
    var t = 0.0
    var quietFrames = 0, reads = 0
    for step in 0..<frames {
        let r = Double.random(in: 0..<1, using: &random)
        t += [0.004, 0.008, 0.011, 0.02, 0.05, 0.35, 0.7][Int.random(in: 0..<7, using: &random) % (r < 0.9 ? 4 : 7)]
        var events: [PointerEvent] = []
        let ids = down.keys.sorted()
        if r < 0.08 && down.count < 5 || down.isEmpty && r < 0.5 {
            let p = Point(x: Double.random(in: 0..<1000, using: &random), y: Double.random(in: 0..<1000, using: &random))
            down[nextID] = p
            events.append(PointerEvent(t: t, id: nextID, phase: .down, x: p.x, y: p.y))
            nextID += 1
        } else if r < 0.14, let id = ids.randomElement(using: &random) {
            let p = down.removeValue(forKey: id)!
            events.append(PointerEvent(t: t, id: id, phase: .up, x: p.x, y: p.y))
        } else if r < 0.15 {
            for id in ids { events.append(PointerEvent(t: t, id: id, phase: .cancel, x: down[id]!.x, y: down[id]!.y)) }
            down = [:]
        } else if r < 0.17 {
            // A frame without events.
        } else {
            let moving = Bool.random(using: &random) ? ids : ids.randomElement(using: &random).map { [$0] } ?? []
            let reach = Bool.random(using: &random) ? 1.5 : 40.0
            for id in moving {
                var p = down[id]!
                p = Point(x: p.x + Double.random(in: -reach...reach, using: &random),
                          y: p.y + Double.random(in: -reach...reach, using: &random))
                down[id] = p
                events.append(PointerEvent(t: t, id: id, phase: .move, x: p.x, y: p.y))
            }
        }
        if quiet.recognizers.contains(where: \.isQuiet) && events.allSatisfy({ $0.phase == .move }) { quietFrames += 1 }
        quiet.dispatcher.dispatch(Frame(t: t, events: events))
        full.dispatcher.dispatch(Frame(t: t, events: events))

        let between = Double.random(in: 0..<1, using: &random)
        if between < 0.03 {
            // A live wait that ended without input.
            t += 0.01
            quiet.dispatcher.advance(to: t)
            full.dispatcher.advance(to: t)
        } else if between < 0.05 {
            let i = Int.random(in: 0..<quiet.recognizers.count, using: &random)
            let enabled = !quiet.recognizers[i].isEnabled
            for world in [quiet, full] {
                world.recognizers[i].isEnabled = enabled
                if !enabled { world.recognizers[i].reset() }
            }
            #expect(quiet.recognizers[i].value == full.recognizers[i].value, "seed \(seed), step \(step), recognizer \(i)")
        } else if between < 0.06 {
            // `reset()` alone (a host handing a recognizer a fresh start).
            let i = Int.random(in: 0..<quiet.recognizers.count, using: &random)
            quiet.recognizers[i].reset()
            full.recognizers[i].reset()
            #expect(quiet.recognizers[i].value == full.recognizers[i].value, "seed \(seed), step \(step), recognizer \(i)")
        } else if between < 0.11 {
            let i = Int.random(in: 0..<quiet.recognizers.count, using: &random)
            #expect(quiet.recognizers[i].value == full.recognizers[i].value, "seed \(seed), step \(step), recognizer \(i)")
            reads += 1
        } else if between < 0.13 {
            for i in quiet.recognizers.indices {
                #expect(quiet.recognizers[i].value == full.recognizers[i].value, "seed \(seed), step \(step), recognizer \(i)")
                #expect(quiet.recognizers[i].pointers == full.recognizers[i].pointers, "seed \(seed), step \(step), recognizer \(i)")
            }
            reads += 1
        }
        #expect(quiet.log.count == full.log.count, "seed \(seed), step \(step)")
        if quiet.log.count != full.log.count { return (quietFrames, reads) }
    }
    quiet.dispatcher.finish()
    full.dispatcher.finish()
    #expect(quiet.log.count == full.log.count, "seed \(seed)")
    for (a, b) in zip(quiet.log, full.log) {
        #expect(a.0 == b.0 && a.1 == b.1, "seed \(seed)")
    }
    for (a, b) in zip(quiet.recognizers, full.recognizers) {
        #expect(a.value == b.value, "seed \(seed)")
        #expect(a.pointers == b.pointers, "seed \(seed)")
    }
    return (quietFrames, reads)
}

@Suite struct QuietFramesTests {
    @Test func randomInputGivesWhatEveryFrameHandledInFullGives() throws {
        var quietFrames = 0, reads = 0
        for seed in UInt64(1)...32 {
            let run = try compareQuietAndFull(seed: seed, frames: 600)
            quietFrames += run.quietFrames
            reads += run.reads
        }
        // The comparison means something only if many frames were taken quietly.
        #expect(quietFrames > 5_000)
        #expect(reads > 500)
    }

    /// A 3-finger swipe whose fingers arrive one by one after the first moved alone: the moves
    /// before the third finger are taken quietly; the swipe starts at the third finger, with
    /// the centroid there, and is decided as when every frame was processed.
    @Test func aThreeFingerSwipeWhoseFingersArriveAfterAOneFingerMove() throws {
        var results: [GestureValue] = []
        for takesQuietFrames in [true, false] {
            let swipe = try SwipeGestureRecognizer(fingers: 3)
            swipe.takesQuietFrames = takesQuietFrames
            let log = GestureLog(swipe)
            swipe.handle(frame(0, (1, .down, 100, 100)))
            for k in 1...10 { swipe.handle(frame(Double(k) * 0.01, (1, .move, 100 + Double(k) * 5, 100))) }
            #expect(swipe.isQuiet == takesQuietFrames)
            swipe.handle(frame(0.11, (1, .move, 160, 100), (2, .down, 200, 100)))
            swipe.handle(frame(0.12, (1, .move, 165, 100), (2, .move, 205, 100)))
            swipe.handle(frame(0.13, (3, .down, 240, 100)))
            for k in 1...5 {
                let t = 0.13 + Double(k) * 0.02, dx = Double(k) * 30
                swipe.handle(frame(t, (1, .move, 165 + dx, 100), (2, .move, 205 + dx, 100), (3, .move, 240 + dx, 100)))
            }
            swipe.handle(frame(0.25, (1, .up, 315, 100), (2, .up, 355, 100), (3, .up, 390, 100)))
            #expect(log.states == [.recognized])
            results.append(try #require(log.last))
        }
        #expect(results[0] == results[1])
        #expect(close(results[0].translation, Point(x: 150, y: 0)))
        #expect(close(results[0].distance, 150))
        #expect(close(results[0].scalarVelocity, 150 / 0.12))  // from the third finger (0.13) to the lift
        #expect(results[0].direction == .right)
    }

    /// A failed swipe reports the centroid of its last processed frame: a lift after quiet
    /// moves reports where the moves left it, not where the finger went down.
    @Test func aSwipeThatFailsAfterQuietMovesCarriesTheLastCentroid() throws {
        let swipe = try SwipeGestureRecognizer(fingers: 3)
        let log = GestureLog(swipe)
        swipe.handle(frame(0, (1, .down, 100, 100)))
        swipe.handle(frame(0.01, (1, .move, 130, 110)))
        swipe.handle(frame(0.02, (1, .move, 150, 120)))
        #expect(swipe.isQuiet)
        swipe.handle(frame(0.03, (1, .up, 170, 125)))
        #expect(log.states == [.failed])
        #expect(log.last?.centroid == Point(x: 150, y: 120))
        #expect(log.last?.t == 0.03)
    }

    /// What quiet frames put off runs when the value is read: a gesture stream subscribed
    /// between frames starts from the pinch's translation after the one finger's moves.
    @Test func aValueReadBetweenQuietFramesIsUpToDate() throws {
        let pinch = try ScaleGestureRecognizer()
        pinch.handle(frame(0, (1, .down, 100, 100)))
        pinch.handle(frame(0.01, (1, .move, 110, 100)))
        pinch.handle(frame(0.02, (1, .move, 125, 90)))
        #expect(pinch.isQuiet)
        var first: GestureValue?
        let subscription = gestureSource(pinch).subscribe(next: { if first == nil { first = $0 } })
        #expect(first?.translation == Point(x: 25, y: -10))
        #expect(first?.centroid == Point(x: 125, y: 90))
        #expect(first?.t == 0.02)
        subscription.unsubscribe()
    }

    /// A pinch whose pair broke before it began keeps its velocity samples; quiet moves of the
    /// finger left put off reading the velocity, which is then read at the last move's time:
    /// 0, the newest sample being older than 40 ms by then.
    @Test func aPutOffVelocityIsReadAtTheLastQuietFramesTime() throws {
        var values: [GestureValue] = []
        for takesQuietFrames in [true, false] {
            let pinch = try ScaleGestureRecognizer(threshold: 0.5)
            pinch.takesQuietFrames = takesQuietFrames
            pinch.handle(frame(0, (1, .down, 100, 100), (2, .down, 200, 100)))
            pinch.handle(frame(0.01, (2, .move, 210, 100)))
            pinch.handle(frame(0.02, (2, .move, 220, 100)))
            pinch.handle(frame(0.03, (2, .up, 230, 100)))
            #expect(pinch.state == .possible)
            #expect(pinch.value.scalarVelocity > 0)  // the pair's last frames: 1 per second
            pinch.handle(frame(0.04, (1, .move, 101, 100)))
            pinch.handle(frame(0.08, (1, .move, 102, 100)))
            #expect(pinch.isQuiet == takesQuietFrames)
            values.append(pinch.value)
        }
        #expect(values[0] == values[1])
        #expect(values[0].scalarVelocity == 0)
        #expect(values[0].t == 0.08)
    }

    /// A tap waiting for its rival to fail is not quiet, though it ignores the pointers of
    /// the next tap: a rival that stopped (disabled) lets it be recognized at the next frame,
    /// a move of those pointers, as when every frame was handled in full.
    @Test func aTapWaitingForItsRivalIsNotQuiet() throws {
        let single = try TapGestureRecognizer()
        let double = try TapGestureRecognizer(taps: 2)
        single.require(toFail: double)
        let input = PointerDispatcher()
        input.add(single)
        input.add(double)
        let log = GestureLog(single)
        input.dispatch(frame(0, (1, .down, 100, 100)))
        input.dispatch(frame(0.05, (1, .up, 100, 100)))
        input.dispatch(frame(0.1, (2, .down, 100, 100)))
        input.dispatch(frame(0.11, (2, .move, 101, 100)))
        #expect(!single.isQuiet)
        #expect(log.states == [])
        double.isEnabled = false
        double.reset()
        input.dispatch(frame(0.12, (2, .move, 102, 100)))
        #expect(log.states == [.recognized])
        #expect(log.last?.t == 0.05)
    }

    /// A two-finger pan under one finger adds a zero velocity sample per frame; the quiet
    /// frames' samples are added before the second finger's frame, so the velocity at the
    /// start is what it was with every frame processed: the zero samples of the last 100 ms
    /// weigh on it. More quiet frames than are kept at once (32) are processed in turns.
    @Test(arguments: [5, 40, 100])
    func aPanStartingAfterQuietFramesHasTheSameVelocity(quietFrames: Int) throws {
        var values: [GestureValue] = []
        for takesQuietFrames in [true, false] {
            let pan = try TranslationGestureRecognizer(minPointers: 2)
            pan.takesQuietFrames = takesQuietFrames
            let log = GestureLog(pan)
            var t = 0.0
            pan.handle(frame(t, (1, .down, 100, 100)))
            for k in 1...quietFrames {
                t += 0.008
                pan.handle(frame(t, (1, .move, 100 + Double(k), 100)))
            }
            t += 0.008
            pan.handle(frame(t, (1, .move, 200, 100), (2, .down, 300, 100)))
            for _ in 1...3 {
                t += 0.008
                pan.handle(frame(t, (1, .move, 230, 100), (2, .move, 330, 100)))
                pan.handle(frame(t + 0.004, (1, .move, 260, 100), (2, .move, 360, 100)))
                t += 0.004
            }
            #expect(log.states.first == .began)
            values += log.values
        }
        let half = values.count / 2
        #expect(half > 0 && Array(values[..<half]) == Array(values[half...]))
        // Two samples of the drag against the zero samples before it: slower than its 7,500 per second.
        #expect(values[0].velocity.x > 0 && values[0].velocity.x < 7_500)
    }

    /// A tap that failed (moved too far) takes the rest of its finger's moves quietly, and a
    /// new finger down still starts the next tap at once.
    @Test func aFailedTapIsQuietUntilItsFingerLifts() throws {
        let tap = try TapGestureRecognizer()
        let log = GestureLog(tap)
        tap.handle(frame(0, (1, .down, 100, 100)))
        tap.handle(frame(0.01, (1, .move, 110, 100)))
        #expect(log.states == [.failed])
        tap.handle(frame(0.02, (1, .move, 120, 100)))
        #expect(tap.isQuiet)
        #expect(tap.nextDecisionTime == nil)
        tap.handle(frame(0.03, (1, .up, 120, 100)))
        tap.handle(frame(0.5, (2, .down, 300, 300)))
        tap.handle(frame(0.55, (2, .up, 300, 300)))
        #expect(log.states == [.failed, .recognized])
        #expect(log.last?.t == 0.55)
    }
}
