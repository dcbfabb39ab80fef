import MotionGestures
import MotionStreams

/// Everything a picture of a run shows: the input's pointers, the lines and actions the script
/// emitted, and the states each recognizer went through, all on input time, inside the plotted
/// window (`--from`/`--to`). Thinned while the run goes (see Thinning.swift): whatever the
/// input's length, a trace holds a bounded number of samples, so the SVG and the memory it
/// takes stay bounded too.
public struct RunTrace {
    /// What an emitted line carried, as the picture draws it.
    public enum Sample: Equatable {
        case number(Double)
        case point(Point)
        /// Anything else, as a marker labelled with this text (JSON, cut at `RunTrace.textLimit`).
        case text(String)
        case state(MotionState)
    }

    /// One emitted line.
    public struct Line: Equatable {
        public var t: Double
        public var sample: Sample
    }

    /// Everything emitted under one name.
    public struct Series {
        public var name: String
        /// Value lines, thinned.
        public var values: [Line]
        /// Value lines emitted in the window, before thinning.
        public var count: Int
        /// While the stream said `active`.
        public var activeBands: [ClosedRange<Double>]
    }

    /// One action (keys, mouse, exec …): a short label and its whole line.
    public struct Action: Equatable {
        public var t: Double
        public var label: String
        public var json: String
    }

    /// One state a recognizer reported.
    public struct RecognizerState: Equatable {
        public var t: Double
        public var state: GestureState
    }

    /// A recognizer the script made, in creation order.
    public struct Recognizer {
        /// The variable it was assigned to, when the script says (`swipe3`), else `swipe 2`.
        public var label: String
        public var kind: GestureKind
        /// Final states (ended, recognized, failed, cancelled), thinned.
        public var finals: [RecognizerState]
        /// While it was began or changed.
        public var activeBands: [ClosedRange<Double>]
    }

    /// One continuous contact on the surface: a pointer from down to up.
    public struct Stroke {
        public var id: Int
        /// Positions, thinned; the first and the last are the contact's.
        public var points: [Point]
        public var startsDown: Bool
        public var endsUp: Bool
    }

    public var scriptPath: String
    public var eventsPath: String
    /// The input time plotted: everything, unless `--from`/`--to` narrowed it.
    public var window: ClosedRange<Double>
    /// Pointer changes in the window.
    public var pointerChanges = 0
    /// The first pointer ids seen (up to `RunTrace.legendPointers`), and how many there were in all.
    public var firstPointerIDs: [Int] = []
    public var pointerIDCount = 0
    public var strokes: [Stroke] = []
    public var strokeCount = 0
    /// When pointers were down, in `RunTrace.pointerRows` rows (a pointer's row: its id modulo).
    public var pointerBars: [[ClosedRange<Double>]] = []
    public var series: [Series] = []
    /// Lines under names past `RunTrace.maxSeries`, counted and not drawn.
    public var linesNotDrawn = 0
    public var recognizers: [Recognizer] = []
    /// Recognizers past `RunTrace.maxRecognizers`, counted and not drawn.
    public var recognizersNotDrawn = 0
    public var actions: [Action] = []
    public var actionCount = 0
    /// Output lines (values, states and actions) emitted in the window.
    public var lineCount = 0
    /// Input time of the first and the last thing recorded.
    public var startTime = 0.0
    public var endTime = 0.0

    // Bounds of a trace: about what 1000 pixels can show.
    static let samplesPerSeries = 2048
    static let markers = 1024
    static let bands = 1024
    static let strokesKept = 256
    static let pointsPerStroke = 512
    static let maxSeries = 24
    static let maxRecognizers = 64
    static let pointerRows = 10
    static let legendPointers = 6
    static let textLimit = 400
}

extension RunTrace {
    /// Text cut to `textLimit` characters (a label's hover text need not hold a megabyte).
    static func cut(_ text: String) -> String {
        text.count <= textLimit ? text : String(text.prefix(textLimit - 1)) + "…"
    }
}

