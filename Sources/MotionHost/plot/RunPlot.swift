import Foundation
import MotionGestures
import MotionLua
import MotionStreams

/// Draws a `RunTrace` as an SVG: the pointers' paths on the surface (with emitted points),
/// then, on one input-time axis, when each pointer was down, every recognizer's states, and
/// each emitted name's values and states, so one sees at a glance why a gesture began late or
/// a threshold was never crossed.
public enum RunPlot {
    static let width = 1000.0
    static let left = 150.0     // lane labels
    static let right = 30.0
    static let palette = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
                          "#ff9da7", "#9c755f", "#bab0ac"]
    static let activeColor = "#4e79a7"

    /// Colors of recognizer states, as the legend shows them.
    static func color(of state: GestureState) -> String {
        switch state {
        case .began, .changed: return activeColor
        case .ended, .recognized: return "#59a14f"
        case .failed: return "#e15759"
        case .cancelled: return "#f28e2b"
        case .possible: return "#bab0ac"
        }
    }

    public static func svg(_ trace: RunTrace) -> String {
        var doc = SVGDocument(width: width, height: 0)
        var y = 0.0
        header(trace, &doc, &y)
        surface(trace, &doc, &y)
        timeline(trace, &doc, &y)
        doc.height = y + 20
        return doc.xml
    }

    // MARK: header

    private static func header(_ trace: RunTrace, _ doc: inout SVGDocument, _ y: inout Double) {
        doc.text("motionscript plot — \((trace.scriptPath as NSString).lastPathComponent)", x: 20, y: 32, size: 20,
                 weight: "bold", className: "title")
        let ids = Set(trace.pointers.map(\.id)).count
        doc.text("events: \((trace.eventsPath as NSString).lastPathComponent) · \(trace.pointers.count) pointer changes, "
                 + "\(ids) pointer\(ids == 1 ? "" : "s") · input time 0 – \(plotNumber(trace.endTime)) s · "
                 + "\(trace.lines.count) output lines",
                 x: 20, y: 54, size: 13, fill: "#555")
        y = 70
    }

    // MARK: surface

    /// One continuous contact: a pointer from down to up (ids may be reused later).
    struct Stroke {
        var id: Int
        var points: [Point] = []
        var phases: [PointerPhase] = []
    }

    static func strokes(_ pointers: [PointerEvent]) -> [Stroke] {
        var strokes: [Stroke] = []
        var open: [Int: Int] = [:]  // id → index of its stroke
        for event in pointers {
            if event.phase == .down || open[event.id] == nil {
                open[event.id] = strokes.count
                strokes.append(Stroke(id: event.id))
            }
            let index = open[event.id]!
            strokes[index].points.append(event.point)
            strokes[index].phases.append(event.phase)
            if event.phase == .up || event.phase == .cancel { open[event.id] = nil }
        }
        return strokes
    }

    private static func surface(_ trace: RunTrace, _ doc: inout SVGDocument, _ y: inout Double) {
        let strokes = strokes(trace.pointers)
        let emittedPoints = pointSeries(trace)
        var all = strokes.flatMap(\.points) + emittedPoints.flatMap { $0.points.map(\.1) }
        all = all.filter { $0.x.isFinite && $0.y.isFinite }
        doc.text("Surface: pointer paths and emitted points (input units, y down)", x: 20, y: y + 20, size: 15,
                 weight: "bold", className: "section")
        y += 34
        guard !all.isEmpty else {
            doc.text("no pointer positions", x: left, y: y + 16, size: 13, fill: "#777")
            y += 30
            return
        }
        var minX = all.map(\.x).min()!, maxX = all.map(\.x).max()!
        var minY = all.map(\.y).min()!, maxY = all.map(\.y).max()!
        let pad = max(maxX - minX, maxY - minY, 10) * 0.08
        minX -= pad; maxX += pad; minY -= pad; maxY += pad
        let plotWidth = width - left - right
        let unit = min(plotWidth / (maxX - minX), 360 / (maxY - minY))
        let w = (maxX - minX) * unit, h = (maxY - minY) * unit
        let x0 = left + (plotWidth - w) / 2, y0 = y
        let sx = PlotScale(domain: minX, maxX, range: x0, x0 + w)
        let sy = PlotScale(domain: minY, maxY, range: y0, y0 + h)
        doc.rect(x0, y0, w, h, fill: "#fafafa", stroke: "#999", className: "surface")
        let tickCount = max(3, Int(w / 70))
        for tick in sx.ticks(tickCount) {
            doc.line(sx(tick), y0, sx(tick), y0 + h, stroke: "#e3e3e3")
            doc.text(plotNumber(tick), x: sx(tick), y: y0 + h + 15, size: 11, anchor: "middle", fill: "#555")
        }
        for tick in sy.ticks(max(2, Int(h / 60))) {
            doc.line(x0, sy(tick), x0 + w, sy(tick), stroke: "#e3e3e3")
            doc.text(plotNumber(tick), x: x0 - 6, y: sy(tick) + 4, size: 11, anchor: "end", fill: "#555")
        }
        let ids = Array(Set(strokes.map(\.id))).sorted()
        for stroke in strokes {
            let color = palette[(ids.firstIndex(of: stroke.id) ?? 0) % palette.count]
            let points = stroke.points.map { (sx($0.x), sy($0.y)) }
            doc.polyline(points, stroke: color, width: 2.5, className: "pointer-path")
            if let first = points.first, stroke.phases.first == .down {
                doc.circle(first.0, first.1, r: 5, fill: color, className: "pointer-down")
            }
            if let last = points.last, let phase = stroke.phases.last, phase == .up || phase == .cancel {
                doc.rect(last.0 - 4, last.1 - 4, 8, 8, fill: "#fff", stroke: color, className: "pointer-up")
            }
        }
        for (index, series) in emittedPoints.enumerated() {
            let color = palette[(ids.count + index) % palette.count]
            let points = series.points.map { (sx($0.1.x), sy($0.1.y)) }
            doc.polyline(points, stroke: color, width: 1.5, dash: "5 4", className: "emitted-path")
            for point in points { doc.circle(point.0, point.1, r: 2.5, fill: color) }
        }
        y = y0 + h + 28
        // Legend.
        var x = left
        // Up to 6 pointers by name (colors repeat after 10 anyway); the rest are counted.
        for (index, id) in ids.prefix(6).enumerated() {
            legendSwatch(&doc, x: x, y: y, color: palette[index % palette.count], dashed: false)
            doc.text("pointer \(id)", x: x + 26, y: y + 4, size: 12, className: "legend")
            x += 100
        }
        if ids.count > 6 {
            doc.text("+\(ids.count - 6) more", x: x, y: y + 4, size: 12, fill: "#555", className: "legend")
            x += 80
        }
        for (index, series) in emittedPoints.enumerated() {
            legendSwatch(&doc, x: x, y: y, color: palette[(ids.count + index) % palette.count], dashed: true)
            doc.text("emitted \"\(series.name)\"", x: x + 26, y: y + 4, size: 12, className: "legend")
            x += 26 + 8 * Double(series.name.count + 11)
        }
        doc.circle(x + 6, y, r: 5, fill: "#777")
        doc.text("down", x: x + 16, y: y + 4, size: 12, className: "legend")
        doc.rect(x + 58, y - 4, 8, 8, fill: "#fff", stroke: "#777")
        doc.text("up", x: x + 72, y: y + 4, size: 12, className: "legend")
        y += 24
    }

    private static func legendSwatch(_ doc: inout SVGDocument, x: Double, y: Double, color: String, dashed: Bool) {
        doc.line(x, y, x + 20, y, stroke: color, width: 3, dash: dashed ? "5 4" : nil)
    }

    /// Emitted names whose values include points, with those points in order.
    static func pointSeries(_ trace: RunTrace) -> [(name: String, points: [(Double, Point)])] {
        var order: [String] = []
        var series: [String: [(Double, Point)]] = [:]
        for line in trace.lines {
            guard let point = line.value?.point else { continue }
            if series[line.name] == nil { order.append(line.name) }
            series[line.name, default: []].append((line.t, point))
        }
        return order.map { ($0, series[$0]!) }
    }

    // MARK: timeline

    private static func timeline(_ trace: RunTrace, _ doc: inout SVGDocument, _ y: inout Double) {
        let end = trace.endTime > 0 ? trace.endTime : 1
        let st = PlotScale(domain: 0, end * 1.02, range: left, width - right)
        doc.text("Over input time", x: 20, y: y + 20, size: 15, weight: "bold", className: "section")
        y += 34
        let top = y
        var lanes: [(y: Double, h: Double)] = []

        // Pointers: a bar while each is down.
        let strokes = strokes(trace.pointers)
        let ids = Array(Set(strokes.map(\.id))).sorted()
        var laneY = y
        laneLabel(&doc, "pointers", detail: "down → up", y: laneY, h: 30)
        var open: [Int: Double] = [:]
        for event in trace.pointers {
            if event.phase == .down || open[event.id] == nil { open[event.id] = event.t }
            if event.phase == .up || event.phase == .cancel, let start = open.removeValue(forKey: event.id) {
                pointerBar(&doc, st, start, event.t, laneY, ids.firstIndex(of: event.id) ?? 0, ids.count)
            }
        }
        for (id, start) in open { pointerBar(&doc, st, start, trace.endTime, laneY, ids.firstIndex(of: id) ?? 0, ids.count) }
        lanes.append((laneY, 30))
        laneY += 38

        // Recognizers: active bands and a marker per final state.
        for recognizer in trace.recognizers {
            doc.open("g", [("class", "recognizer")])
            laneLabel(&doc, recognizer.label, detail: "states", y: laneY, h: 26)
            var activeSince: Double?
            for change in recognizer.states {
                if change.state.isActive {
                    if activeSince == nil {
                        activeSince = change.t
                        doc.line(st(change.t), laneY + 2, st(change.t), laneY + 24, stroke: activeColor, width: 2)
                    }
                    continue
                }
                if let since = activeSince {
                    doc.rect(st(since), laneY + 6, st(change.t) - st(since), 14, fill: activeColor, opacity: 0.35,
                             className: "active-band")
                    activeSince = nil
                }
                if change.state != .possible {
                    doc.circle(st(change.t), laneY + 13, r: 6, fill: color(of: change.state), stroke: "#fff",
                               className: "state-\(change.state.rawValue)")
                }
            }
            if let since = activeSince {
                doc.rect(st(since), laneY + 6, st(trace.endTime) - st(since), 14, fill: activeColor, opacity: 0.35,
                         className: "active-band")
            }
            doc.close("g")
            lanes.append((laneY, 26))
            laneY += 34
        }

        // Emitted names.
        var names: [String] = []
        for line in trace.lines where !names.contains(line.name) { names.append(line.name) }
        for (index, name) in names.enumerated() {
            let lines = trace.lines.filter { $0.name == name }
            let h = emittedLane(&doc, name: name, lines: lines, st: st, y: laneY,
                                color: palette[(ids.count + index) % palette.count])
            lanes.append((laneY, h))
            laneY += h + 8
        }

        // Lane backgrounds behind nothing (drawn as thin separators) and the time axis.
        for lane in lanes.dropFirst() { doc.line(left, lane.y - 4, width - right, lane.y - 4, stroke: "#eee") }
        let bottom = laneY
        for tick in st.ticks(10) {
            doc.line(st(tick), top - 6, st(tick), bottom, stroke: "#e6e6e6", dash: "2 3")
            doc.text(plotNumber(tick), x: st(tick), y: bottom + 16, size: 11, anchor: "middle", fill: "#555",
                     className: "time-tick")
        }
        doc.line(left, bottom, width - right, bottom, stroke: "#888")
        doc.text("input time (s)", x: (left + width - right) / 2, y: bottom + 34, size: 13, anchor: "middle",
                 className: "axis-label")
        y = bottom + 48
        // State legend.
        var x = left
        doc.rect(x, y - 8, 20, 12, fill: activeColor, opacity: 0.35)
        doc.text("active (began … changed)", x: x + 26, y: y + 3, size: 12, className: "legend")
        x += 200
        for (label, state) in [("ended / recognized", GestureState.ended), ("failed", .failed), ("cancelled", .cancelled)] {
            doc.circle(x + 6, y - 2, r: 6, fill: color(of: state))
            doc.text(label, x: x + 18, y: y + 3, size: 12, className: "legend")
            x += label.count > 10 ? 160 : 90
        }
        y += 10
    }

    private static func pointerBar(_ doc: inout SVGDocument, _ st: PlotScale, _ start: Double, _ end: Double,
                                   _ laneY: Double, _ index: Int, _ count: Int) {
        let h = 24 / Double(max(count, 1))
        doc.rect(st(start), laneY + 3 + h * Double(index), max(st(end) - st(start), 2), max(h - 2, 2),
                 fill: palette[index % palette.count], className: "pointer-bar")
    }

    private static func laneLabel(_ doc: inout SVGDocument, _ name: String, detail: String, y: Double, h: Double) {
        doc.text(truncated(name, 18), x: left - 10, y: y + h / 2 + 1, size: 13, anchor: "end", weight: "bold",
                 className: "lane-label")
        doc.text(detail, x: left - 10, y: y + h / 2 + 15, size: 10, anchor: "end", fill: "#777")
    }

    /// One emitted name: numbers as a line, points as x and y lines, other values as labelled
    /// markers, `active` states as a shaded band. Returns the lane's height.
    private static func emittedLane(_ doc: inout SVGDocument, name: String, lines: [RunTrace.Line], st: PlotScale,
                                    y: Double, color: String) -> Double {
        let numbers = lines.compactMap { line in line.value?.number.map { (line.t, $0) } }.filter { $0.1.isFinite }
        let points = lines.compactMap { line in line.value?.point.map { (line.t, $0) } }
        let others = lines.filter { line in line.value.map { $0.number == nil && $0.point == nil } ?? false }
        let states = lines.compactMap { line in line.state.map { (line.t, $0) } }
        let plotted = !numbers.isEmpty || !points.isEmpty
        let h = plotted ? 70.0 : 30.0
        doc.open("g", [("class", "emitted")])
        // Active bands from state lines.
        var since: Double?
        for (t, state) in states {
            if state == .active, since == nil { since = t }
            if state == .atRest, let start = since {
                doc.rect(st(start), y, max(st(t) - st(start), 2), h, fill: "#4e79a7", opacity: 0.10, className: "state-band")
                since = nil
            }
        }
        if let start = since { doc.rect(st(start), y, st.to - st(start), h, fill: "#4e79a7", opacity: 0.10,
                                        className: "state-band") }
        var detail = states.isEmpty ? "" : "active shaded"
        if plotted {
            let values = numbers.map(\.1) + points.flatMap { [$0.1.x, $0.1.y] }.filter(\.isFinite)
            let sv = PlotScale(domain: values.min() ?? 0, values.max() ?? 1, range: y + h - 6, y + 6)
            doc.text(plotNumber(sv.domain.upperBound), x: left + 4, y: y + 12, size: 10, fill: "#777")
            doc.text(plotNumber(sv.domain.lowerBound), x: left + 4, y: y + h - 4, size: 10, fill: "#777")
            if !numbers.isEmpty {
                doc.polyline(steps(numbers.map { (st($0.0), sv($0.1)) }), stroke: color, className: "value-line")
                for (t, v) in numbers { doc.circle(st(t), sv(v), r: 2.5, fill: color) }
                detail = "value" + (detail.isEmpty ? "" : "; " + detail)
            }
            if !points.isEmpty {
                doc.polyline(steps(points.map { (st($0.0), sv($0.1.x)) }), stroke: color, className: "value-line")
                doc.polyline(steps(points.map { (st($0.0), sv($0.1.y)) }), stroke: color, width: 2, dash: "5 3",
                             className: "value-line")
                for (t, p) in points {
                    doc.circle(st(t), sv(p.x), r: 2.5, fill: color)
                    doc.circle(st(t), sv(p.y), r: 2.5, fill: "#fff", stroke: color)
                }
                detail = "x —, y - -" + (detail.isEmpty ? "" : "; " + detail)
            }
        }
        for line in others {
            let x = st(line.t)
            doc.circle(x, y + h / 2, r: 4, fill: color, className: "value-marker")
            doc.text(truncated(markerLabel(line.value!), 14), x: x + 6, y: y + h / 2 - 6, size: 10, fill: "#333")
        }
        doc.close("g")
        laneLabel(&doc, "\"\(name)\"", detail: detail, y: y, h: min(h, 30))
        return h
    }

    /// What a marker says: a gesture value's state, a string as it is, anything else as JSON.
    static func markerLabel(_ value: MotionValue) -> String {
        switch value {
        case .gesture(let g): return g.state.rawValue
        case .string(let text): return text
        default: return JSONText.value(value)
        }
    }

    /// A value holds until the next one: each point is carried right to the next one's time.
    static func steps(_ points: [(Double, Double)]) -> [(Double, Double)] {
        var result: [(Double, Double)] = []
        for (index, point) in points.enumerated() {
            if index > 0 { result.append((point.0, points[index - 1].1)) }
            result.append(point)
        }
        return result
    }

    private static func truncated(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
