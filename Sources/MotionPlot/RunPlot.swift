import Foundation
import MotionGestures
import MotionStreams

/// Draws a `RunTrace` as an SVG: the pointers' paths on the surface (with emitted points),
/// then, on one input-time axis, when each pointer was down, every recognizer's states, each
/// emitted name's values and states, and the actions, so one sees at a glance why a gesture
/// began late or a threshold was never crossed. The trace is thinned already, so the document
/// is bounded whatever the run's length.
public enum RunPlot {
    static let width = 1000.0
    static let left = 150.0     // lane labels
    static let right = 30.0

    // Colours. The state legend's own (active, recognized, failed, cancelled, possible) are
    // used for nothing else, and pointers and emitted names draw from palettes of their own,
    // so a colour in a lane means one thing.
    static let activeColor = "#4e79a7"
    static let recognizedColor = "#59a14f"
    static let failedColor = "#e15759"
    static let cancelledColor = "#f28e2b"
    static let possibleColor = "#bab0ac"
    static let pointerPalette = ["#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#17becf", "#bcbd22",
                                 "#8c564b", "#c49c94", "#98df8a"]
    static let seriesPalette = ["#7b3294", "#c51b7d", "#01665e", "#8c510a", "#542788", "#4d4d4d", "#807000",
                                "#d01c8b"]
    static let actionColor = "#222222"

    /// Colors of recognizer states, as the legend shows them.
    static func color(of state: GestureState) -> String {
        switch state {
        case .began, .changed: return activeColor
        case .ended, .recognized: return recognizedColor
        case .failed: return failedColor
        case .cancelled: return cancelledColor
        case .possible: return possibleColor
        }
    }

    /// A pointer's row on the timeline and its colour: its id modulo the rows.
    static func row(of id: Int) -> Int {
        let rows = RunTrace.pointerRows
        return ((id % rows) + rows) % rows
    }

    static func pointerColor(_ id: Int) -> String { pointerPalette[row(of: id) % pointerPalette.count] }
    static func seriesColor(_ index: Int) -> String { seriesPalette[index % seriesPalette.count] }

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
        let ids = trace.pointerIDCount
        let window = trace.window.lowerBound.isFinite || trace.window.upperBound.isFinite
            ? "window \(plotNumber(trace.window.lowerBound.isFinite ? trace.window.lowerBound : trace.startTime)) – "
                + "\(plotNumber(trace.window.upperBound.isFinite ? trace.window.upperBound : trace.endTime)) s"
            : "input time 0 – \(plotNumber(trace.endTime)) s"
        doc.text("events: \((trace.eventsPath as NSString).lastPathComponent) · \(trace.pointerChanges) pointer changes, "
                 + "\(ids) pointer\(ids == 1 ? "" : "s") · \(window) · \(trace.lineCount) output lines",
                 x: 20, y: 54, size: 13, fill: "#555")
        y = 70
    }

    // MARK: surface

    /// Emitted names whose values include points, with those points in order.
    static func pointSeries(_ trace: RunTrace) -> [(index: Int, name: String, points: [Point])] {
        trace.series.enumerated().compactMap { index, series in
            let points = series.values.compactMap { line -> Point? in
                if case .point(let p) = line.sample, p.x.isFinite, p.y.isFinite { return p }
                return nil
            }
            return points.isEmpty ? nil : (index, series.name, points)
        }
    }

    private static func surface(_ trace: RunTrace, _ doc: inout SVGDocument, _ y: inout Double) {
        let emittedPoints = pointSeries(trace)
        doc.text("Surface: pointer paths and emitted points (input units, y down)", x: 20, y: y + 20, size: 15,
                 weight: "bold", className: "section")
        y += 34
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for point in trace.strokes.lazy.flatMap(\.points) + emittedPoints.lazy.flatMap(\.points)
        where point.x.isFinite && point.y.isFinite {
            minX = min(minX, point.x); maxX = max(maxX, point.x)
            minY = min(minY, point.y); maxY = max(maxY, point.y)
        }
        guard minX <= maxX else {
            doc.text("no pointer positions", x: left, y: y + 16, size: 13, fill: "#777")
            y += 30
            return
        }
        // Half extents (finite for any finite coordinates), padded by 8 % of the larger, and
        // by enough to change numbers as large as these (next to 1e308, adding 0.8 changes nothing).
        let magnitude = max(abs(minX), abs(maxX), abs(minY), abs(maxY))
        let pad = max(maxX / 2 - minX / 2, maxY / 2 - minY / 2, 5, magnitude * 1e-9) * 0.16
        minX = max(minX - pad, -.greatestFiniteMagnitude); maxX = min(maxX + pad, .greatestFiniteMagnitude)
        minY = max(minY - pad, -.greatestFiniteMagnitude); maxY = min(maxY + pad, .greatestFiniteMagnitude)
        let halfX = maxX / 2 - minX / 2, halfY = maxY / 2 - minY / 2
        let plotWidth = width - left - right
        // Pixels per half unit: the same across and down. Never 0 × ∞: a side with no extent
        // left (which the padding should prevent) is drawn at full size.
        let unit = min(plotWidth / halfX, 360 / halfY)
        let w = halfX > 0 && unit.isFinite ? min(halfX * unit, plotWidth) : plotWidth
        let h = halfY > 0 && unit.isFinite ? min(halfY * unit, 360) : 360
        let x0 = left + (plotWidth - w) / 2, y0 = y
        let sx = PlotScale(domain: minX, maxX, range: x0, x0 + w)
        let sy = PlotScale(domain: minY, maxY, range: y0, y0 + h)
        doc.rect(x0, y0, w, h, fill: "#fafafa", stroke: "#999", className: "surface")
        for tick in sx.ticks(max(3, Int(w / 70))) {  // w is in 0...820
            doc.line(sx(tick), y0, sx(tick), y0 + h, stroke: "#e3e3e3")
            doc.text(plotNumber(tick), x: sx(tick), y: y0 + h + 15, size: 11, anchor: "middle", fill: "#555")
        }
        for tick in sy.ticks(max(2, Int(h / 60))) {
            doc.line(x0, sy(tick), x0 + w, sy(tick), stroke: "#e3e3e3")
            doc.text(plotNumber(tick), x: x0 - 6, y: sy(tick) + 4, size: 11, anchor: "end", fill: "#555")
        }
        for stroke in trace.strokes {
            let color = pointerColor(stroke.id)
            let points = pixels(stroke.points.map { (sx($0.x), sy($0.y)) })
            doc.polyline(points, stroke: color, width: 2.5, className: "pointer-path")
            if let first = points.first, stroke.startsDown {
                doc.circle(first.0, first.1, r: 5, fill: color, className: "pointer-down")
            }
            if let last = points.last, stroke.endsUp {
                doc.rect(last.0 - 4, last.1 - 4, 8, 8, fill: "#fff", stroke: color, className: "pointer-up")
            }
        }
        for series in emittedPoints {
            let color = seriesColor(series.index)
            let points = pixels(series.points.map { (sx($0.x), sy($0.y)) })
            doc.polyline(points, stroke: color, width: 1.5, dash: "5 4", className: "emitted-path")
            for point in points { doc.circle(point.0, point.1, r: 2.5, fill: color) }
        }
        if trace.strokeCount > trace.strokes.count {
            doc.text("\(trace.strokes.count) of \(trace.strokeCount) contacts drawn", x: x0 + w, y: y0 + h + 30, size: 11,
                     anchor: "end", fill: "#777")
        }
        y = y0 + h + 28
        // Legend.
        var x = left
        for id in trace.firstPointerIDs {
            legendSwatch(&doc, x: x, y: y, color: pointerColor(id), dashed: false)
            doc.text("pointer \(id)", x: x + 26, y: y + 4, size: 12, className: "legend")
            x += 100
        }
        if trace.pointerIDCount > trace.firstPointerIDs.count {
            doc.text("+\(trace.pointerIDCount - trace.firstPointerIDs.count) more", x: x, y: y + 4, size: 12, fill: "#555",
                     className: "legend")
            x += 80
        }
        for series in emittedPoints.prefix(4) {
            legendSwatch(&doc, x: x, y: y, color: seriesColor(series.index), dashed: true)
            let label = "emitted \"\(truncated(series.name, 16))\""
            doc.text(label, x: x + 26, y: y + 4, size: 12, className: "legend")
            x += 26 + 7 * Double(label.count + 2)
        }
        doc.circle(x + 6, y, r: 5, fill: "#777")
        doc.text("down", x: x + 16, y: y + 4, size: 12, className: "legend")
        doc.rect(x + 58, y - 4, 8, 8, fill: "#fff", stroke: "#777")
        doc.text("up", x: x + 72, y: y + 4, size: 12, className: "legend")
        y += 24
    }

    /// Drops points closer than half a pixel to the last one kept: what the eye cannot tell
    /// apart costs nothing in the file. The last point is always kept.
    static func pixels(_ points: [(Double, Double)]) -> [(Double, Double)] {
        var kept: [(Double, Double)] = []
        for (index, point) in points.enumerated() {
            if let last = kept.last, index < points.count - 1,
               abs(point.0 - last.0) < 0.5 && abs(point.1 - last.1) < 0.5 { continue }
            kept.append(point)
        }
        return kept
    }

    private static func legendSwatch(_ doc: inout SVGDocument, x: Double, y: Double, color: String, dashed: Bool) {
        doc.line(x, y, x + 20, y, stroke: color, width: 3, dash: dashed ? "5 4" : nil)
    }

    // MARK: timeline

    private static func timeline(_ trace: RunTrace, _ doc: inout SVGDocument, _ y: inout Double) {
        let start = trace.window.lowerBound.isFinite ? trace.window.lowerBound : min(0, trace.startTime)
        var end = trace.window.upperBound.isFinite ? trace.window.upperBound : trace.endTime
        if !(end > start) { end = start + 1 }
        let st = PlotScale(domain: start, min(start + (end - start) * 1.02, .greatestFiniteMagnitude),
                           range: left, width - right)
        doc.text("Over input time", x: 20, y: y + 20, size: 15, weight: "bold", className: "section")
        y += 34
        let top = y
        var lanes: [Double] = []
        var laneY = y

        // Pointers: a bar while each is down, one row per id modulo the rows.
        let rows = trace.pointerBars.enumerated().filter { !$0.element.isEmpty }
        laneLabel(&doc, "pointers", detail: "down → up", y: laneY, h: 30)
        let rowHeight = 24 / Double(max(rows.count, 1))
        for (slot, entry) in rows.enumerated() {
            for band in mergedBands(entry.element, st) {
                doc.rect(band.0, laneY + 3 + rowHeight * Double(slot), band.1 - band.0, max(rowHeight - 2, 2),
                         fill: pointerPalette[entry.offset % pointerPalette.count], className: "pointer-bar")
            }
        }
        lanes.append(laneY)
        laneY += 38

        // Recognizers: active bands and a marker per final state.
        for recognizer in trace.recognizers {
            doc.open("g", [("class", "recognizer")])
            laneLabel(&doc, recognizer.label, detail: "\(recognizer.kind.rawValue) states", y: laneY, h: 26)
            for band in mergedBands(recognizer.activeBands, st) {
                doc.rect(band.0, laneY + 6, band.1 - band.0, 14, fill: activeColor, opacity: 0.35, className: "active-band")
            }
            var lastX = -Double.infinity
            for change in recognizer.finals {
                let x = st(change.t)
                if x - lastX < 1 { continue }  // one marker per pixel
                lastX = x
                doc.circle(x, laneY + 13, r: 6, fill: color(of: change.state), stroke: "#fff",
                           className: "state-\(change.state.rawValue)")
            }
            doc.close("g")
            lanes.append(laneY)
            laneY += 34
        }
        if trace.recognizersNotDrawn > 0 {
            doc.text("+\(trace.recognizersNotDrawn) more recognizers not drawn", x: left, y: laneY + 10, size: 11, fill: "#777")
            laneY += 20
        }

        // Emitted names.
        for (index, series) in trace.series.enumerated() {
            let h = emittedLane(&doc, series, st: st, y: laneY, color: seriesColor(index))
            lanes.append(laneY)
            laneY += h + 8
        }
        if trace.linesNotDrawn > 0 {
            doc.text("+\(trace.linesNotDrawn) lines under more names not drawn", x: left, y: laneY + 10, size: 11, fill: "#777")
            laneY += 20
        }

        // Actions.
        if !trace.actions.isEmpty {
            let h = actionLane(&doc, trace, st: st, y: laneY)
            lanes.append(laneY)
            laneY += h + 8
        }

        for lane in lanes.dropFirst() { doc.line(left, lane - 4, width - right, lane - 4, stroke: "#eee") }
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

    /// Bands in pixels, those that touch (within a pixel) drawn as one, each at least 2 wide.
    static func mergedBands(_ bands: [ClosedRange<Double>], _ st: PlotScale) -> [(Double, Double)] {
        var merged: [(Double, Double)] = []
        for band in bands {
            let a = st(band.lowerBound), b = max(st(band.upperBound), a + 2)
            if let last = merged.last, a <= last.1 + 1 {
                merged[merged.count - 1].1 = max(last.1, b)
            } else {
                merged.append((a, b))
            }
        }
        return merged
    }

    private static func laneLabel(_ doc: inout SVGDocument, _ name: String, detail: String, y: Double, h: Double) {
        doc.open("g", [("class", "lane-name")])
        doc.element("title", [], text: name)
        doc.text(truncated(name, 18), x: left - 10, y: y + h / 2 + 1, size: 13, anchor: "end", weight: "bold",
                 className: "lane-label")
        doc.close("g")
        doc.text(detail, x: left - 10, y: y + h / 2 + 15, size: 10, anchor: "end", fill: "#777")
    }

    /// One emitted name: numbers as a line, points as x and y lines, other values as labelled
    /// markers, `active` states as a shaded band. Returns the lane's height.
    private static func emittedLane(_ doc: inout SVGDocument, _ series: RunTrace.Series, st: PlotScale,
                                    y: Double, color: String) -> Double {
        var numbers: [(Double, Double)] = [], points: [(Double, Point)] = [], others: [(t: Double, text: String)] = []
        for line in series.values {
            switch line.sample {
            case .number(let v) where v.isFinite: numbers.append((line.t, v))
            case .point(let p): points.append((line.t, p))
            case .text(let text): others.append((line.t, text))
            default: break
            }
        }
        let plotted = !numbers.isEmpty || !points.isEmpty
        let h = plotted ? 70.0 : others.isEmpty ? 30 : 44
        doc.open("g", [("class", "emitted")])
        for band in mergedBands(series.activeBands, st) {
            doc.rect(band.0, y, band.1 - band.0, h, fill: activeColor, opacity: 0.10, className: "state-band")
        }
        var detail = series.activeBands.isEmpty ? "" : "active shaded"
        if plotted {
            var lo = Double.infinity, hi = -Double.infinity
            for v in numbers.map(\.1) + points.flatMap({ [$0.1.x, $0.1.y] }) where v.isFinite {
                lo = min(lo, v); hi = max(hi, v)
            }
            let sv = PlotScale(domain: lo <= hi ? lo : 0, lo <= hi ? hi : 1, range: y + h - 6, y + 6)
            doc.text(plotNumber(sv.domain.upperBound), x: left + 4, y: y + 12, size: 10, fill: "#777")
            doc.text(plotNumber(sv.domain.lowerBound), x: left + 4, y: y + h - 4, size: 10, fill: "#777")
            if !numbers.isEmpty {
                let line = pixels(numbers.map { (st($0.0), sv($0.1)) })
                doc.polyline(steps(line), stroke: color, className: "value-line")
                dots(&doc, line, fill: color, stroke: nil)
                detail = "value" + (detail.isEmpty ? "" : "; " + detail)
            }
            if !points.isEmpty {
                let xs = pixels(points.map { (st($0.0), sv($0.1.x)) }), ys = pixels(points.map { (st($0.0), sv($0.1.y)) })
                doc.polyline(steps(xs), stroke: color, className: "value-line")
                doc.polyline(steps(ys), stroke: color, width: 2, dash: "5 3", className: "value-line")
                dots(&doc, xs, fill: color, stroke: nil)
                dots(&doc, ys, fill: "#fff", stroke: color)
                detail = "x —, y - -" + (detail.isEmpty ? "" : "; " + detail)
            }
        }
        if !others.isEmpty {
            labelledMarkers(&doc, others.map { ($0.t, $0.text, $0.text) }, st: st, y: plotted ? y + h - 14 : y + 8,
                            rows: plotted ? 1 : 3, color: color, className: "value-marker")
        }
        if series.count > series.values.count {
            doc.text("\(series.values.count) of \(series.count) values drawn", x: width - right, y: y + h - 4, size: 9,
                     anchor: "end", fill: "#999")
        }
        doc.close("g")
        laneLabel(&doc, "\"\(series.name)\"", detail: detail, y: y, h: min(h, 30))
        return h
    }

    /// Dots at most one per pixel column (the line between them shows the rest).
    private static func dots(_ doc: inout SVGDocument, _ points: [(Double, Double)], fill: String, stroke: String?) {
        guard points.count <= Int(width) else { return }
        for point in points { doc.circle(point.0, point.1, r: 2.5, fill: fill, stroke: stroke) }
    }

    /// The actions: a marker each (its whole line on hover) and a readable label where it fits.
    private static func actionLane(_ doc: inout SVGDocument, _ trace: RunTrace, st: PlotScale, y: Double) -> Double {
        let h = 50.0
        doc.open("g", [("class", "actions")])
        labelledMarkers(&doc, trace.actions.map { ($0.t, $0.label, $0.json) }, st: st, y: y + 6, rows: 3,
                        color: actionColor, className: "action-marker")
        doc.close("g")
        let detail = trace.actionCount > trace.actions.count ? "\(trace.actions.count) of \(trace.actionCount) drawn"
            : "\(trace.actionCount) action\(trace.actionCount == 1 ? "" : "s")"
        laneLabel(&doc, "actions", detail: detail, y: y, h: 30)
        return h
    }

    /// Markers on a lane with labels that never overlap: each label goes to the first of
    /// `rows` staggered rows where the previous label has ended; one that fits nowhere is left
    /// out (its marker stays, with the text on hover via `<title>`). Markers closer than a
    /// pixel to the previous one are merged into it.
    static func labelledMarkers(_ doc: inout SVGDocument, _ items: [(t: Double, label: String, title: String)],
                                st: PlotScale, y: Double, rows: Int, color: String, className: String) {
        let layout = LabelLayout.place(items.map { (st($0.t), truncated($0.label, 32)) }, rows: rows,
                                       right: width - 4)
        // A marker merged into the one before (within a pixel) adds its line to that one's hover text.
        var groups: [(placed: LabelLayout.Placed, titles: [String], more: Int)] = []
        for (item, placed) in zip(items, layout) {
            if let placed {
                groups.append((placed, [item.title], 0))
            } else if !groups.isEmpty {
                if groups[groups.count - 1].titles.count < 8 { groups[groups.count - 1].titles.append(item.title) }
                else { groups[groups.count - 1].more += 1 }
            }
        }
        for group in groups {
            let placed = group.placed
            doc.open("g", [("class", className)])
            doc.element("title", [], text: (group.titles + (group.more > 0 ? ["… \(group.more) more"] : [])).joined(separator: "\n"))
            doc.line(placed.x, y, placed.x, y + Double(rows) * 13, stroke: color, width: 1.5)
            if let row = placed.row, let text = placed.text {
                doc.text(text, x: placed.leftOfMarker ? placed.x - 3 : placed.x + 3, y: y + 10 + Double(row) * 13, size: 10,
                         anchor: placed.leftOfMarker ? "end" : "start", fill: "#333", className: "marker-label")
            }
            doc.close("g")
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

    static func truncated(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
