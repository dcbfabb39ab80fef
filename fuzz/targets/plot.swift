// libFuzzer entry for the plot: the input is a list of 9-byte records (a kind byte and a double
// taken bit for bit, so NaN, ±infinity, ±1e308 and subnormals all come), building a trace as
// the recorder would (through the same thinning), which is then drawn. Drawing must never
// trap, every coordinate must be finite (nothing prints "nan" or "inf"), groups must close,
// and the document must stay bounded whatever the input.
import MotionGestures
import MotionStreams

private struct Records {
    var bytes: [UInt8]
    var at = 0

    mutating func next() -> (UInt8, Double)? {
        guard at + 9 <= bytes.count else { return nil }
        var bits: UInt64 = 0
        for i in 1...8 { bits = bits << 8 | UInt64(bytes[at + i]) }
        defer { at += 9 }
        return (bytes[at], Double(bitPattern: bits))
    }
}

/// A label from the double's bits, in letters that cannot spell "nan" or "inf", with XML's
/// special characters among them.
private func label(_ value: Double) -> String {
    let alphabet = Array("abcdeghjklm <&\"'>→\u{1}")
    var bits = value.bitPattern
    var text = ""
    for _ in 0..<Int(bits % 12) {
        text.append(alphabet[Int(bits % UInt64(alphabet.count))])
        bits /= UInt64(alphabet.count)
    }
    return text
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var records = Records(bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    var trace = RunTrace(scriptPath: "fuzz.lua", eventsPath: "fuzz.events.jsonl", window: -Double.infinity...Double.infinity)
    if let (flags, from) = records.next(), flags & 1 == 1, let (_, to) = records.next(), from.isFinite, to.isFinite, from < to {
        trace.window = from...to
    }
    trace.pointerBars = Array(repeating: [], count: RunTrace.pointerRows)
    var strokes = ThinnedSamples<RunTrace.Stroke>(capacity: RunTrace.strokesKept)
    var points = ThinnedSamples<Point>(capacity: RunTrace.pointsPerStroke)
    var strokeID = 0
    var values = ThinnedSamples<RunTrace.Line>(capacity: RunTrace.samplesPerSeries)
    var bands = ThinnedBands(capacity: RunTrace.bands)
    var finals = ThinnedSamples<RunTrace.RecognizerState>(capacity: RunTrace.markers)
    var actions = ThinnedSamples<RunTrace.Action>(capacity: RunTrace.markers)
    var t = 0.0
    var pendingX: Double?
    while let (kind, value) = records.next() {
        switch kind % 10 {
        case 0:  // a coordinate; two make a pointer position
            if let x = pendingX { points.append(Point(x: x, y: value)); pendingX = nil } else { pendingX = value }
        case 1:  // a new contact
            strokes.append(RunTrace.Stroke(id: strokeID, points: points.kept, startsDown: kind & 16 != 0, endsUp: kind & 32 != 0))
            points = ThinnedSamples(capacity: RunTrace.pointsPerStroke)
            strokeID = Int(truncatingIfNeeded: value.bitPattern >> 40)
            if !value.isNaN { trace.pointerBars[RunPlot.row(of: strokeID)].append(min(t, value)...max(t, value)) }
        case 2: t = value.isNaN ? t : value  // input time, any order
        case 3: values.append(RunTrace.Line(t: t, sample: .number(value)))
        case 4: values.append(RunTrace.Line(t: t, sample: .point(Point(x: value, y: -value))))
        case 5: values.append(RunTrace.Line(t: t, sample: .text(label(value))))
        case 6: if kind & 16 != 0 { bands.open(at: value) } else { bands.close(at: value) }
        case 7: finals.append(RunTrace.RecognizerState(t: t, state: GestureState.allCases[Int(value.bitPattern % 7)]))
        case 8: actions.append(RunTrace.Action(t: t, label: label(value), json: label(value * 3)))
        default: trace.endTime = value.isFinite ? value : trace.endTime
        }
    }
    strokes.append(RunTrace.Stroke(id: strokeID, points: points.kept, startsDown: true, endsUp: false))
    trace.strokes = strokes.kept
    trace.strokeCount = strokes.count
    trace.firstPointerIDs = Array(Set(trace.strokes.map(\.id)).prefix(RunTrace.legendPointers))
    trace.pointerIDCount = strokes.count
    trace.series = [
        RunTrace.Series(name: label(t), values: values.kept, count: values.count, activeBands: bands.bands),
        RunTrace.Series(name: "empty", values: [], count: 0, activeBands: []),
    ]
    trace.recognizers = [RunTrace.Recognizer(label: label(t * 2), kind: .swipe, finals: finals.kept, activeBands: bands.bands)]
    trace.actions = actions.kept
    trace.actionCount = actions.count
    trace.startTime = trace.window.lowerBound.isFinite ? trace.window.lowerBound : 0
    if !trace.endTime.isFinite { trace.endTime = 0 }

    let svg = RunPlot.svg(trace)
    let bytes = Array(svg.utf8)
    if bytes.count > 4_000_000 { fatalError("an SVG of \(bytes.count) bytes from \(size) bytes of input") }
    for word in ["nan", "inf", "NaN"] where svg.contains(word) { fatalError("the SVG holds \"\(word)\"") }
    if !svg.hasSuffix("</svg>\n") { fatalError("the SVG does not end with </svg>") }
    if svg.components(separatedBy: "<g").count != svg.components(separatedBy: "</g>").count {
        fatalError("a group is not closed")
    }
    return 0
}
