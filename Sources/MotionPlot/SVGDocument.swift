import Foundation

/// A small SVG writer: elements are appended as text with escaped attributes and content, so
/// whatever a script names its outputs, the document stays well-formed XML.
struct SVGDocument {
    private(set) var body = ""
    let width: Double
    var height: Double

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// An element with attributes, empty or with escaped text content.
    mutating func element(_ name: String, _ attributes: [(String, String)], text: String? = nil) {
        body += "<\(name)"
        for (key, value) in attributes { body += " \(key)=\"\(Self.escape(value))\"" }
        if let text { body += ">\(Self.escape(text))</\(name)>\n" } else { body += "/>\n" }
    }

    mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        body += "<\(name)"
        for (key, value) in attributes { body += " \(key)=\"\(Self.escape(value))\"" }
        body += ">\n"
    }

    mutating func close(_ name: String) { body += "</\(name)>\n" }

    mutating func text(_ content: String, x: Double, y: Double, size: Double = 12, anchor: String = "start",
                       weight: String? = nil, fill: String = "#222", className: String? = nil) {
        var attributes = [("x", n(x)), ("y", n(y)), ("font-size", n(size)), ("text-anchor", anchor), ("fill", fill)]
        if let weight { attributes.append(("font-weight", weight)) }
        if let className { attributes.append(("class", className)) }
        element("text", attributes, text: content)
    }

    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Double = 1,
                       dash: String? = nil) {
        var attributes = [("x1", n(x1)), ("y1", n(y1)), ("x2", n(x2)), ("y2", n(y2)), ("stroke", stroke),
                          ("stroke-width", n(width))]
        if let dash { attributes.append(("stroke-dasharray", dash)) }
        element("line", attributes)
    }

    mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, fill: String, stroke: String? = nil,
                       opacity: Double? = nil, className: String? = nil) {
        var attributes = [("x", n(x)), ("y", n(y)), ("width", n(max(w, 0))), ("height", n(max(h, 0))), ("fill", fill)]
        if let stroke { attributes.append(("stroke", stroke)) }
        if let opacity { attributes.append(("fill-opacity", n(opacity))) }
        if let className { attributes.append(("class", className)) }
        element("rect", attributes)
    }

    mutating func circle(_ x: Double, _ y: Double, r: Double, fill: String, stroke: String? = nil, className: String? = nil) {
        var attributes = [("cx", n(x)), ("cy", n(y)), ("r", n(r)), ("fill", fill)]
        if let stroke { attributes.append(("stroke", stroke)) }
        if let className { attributes.append(("class", className)) }
        element("circle", attributes)
    }

    mutating func polyline(_ points: [(Double, Double)], stroke: String, width: Double = 2, dash: String? = nil,
                           className: String? = nil) {
        guard !points.isEmpty else { return }
        var attributes = [("points", points.map { "\(n($0.0)),\(n($0.1))" }.joined(separator: " ")),
                          ("fill", "none"), ("stroke", stroke), ("stroke-width", n(width)),
                          ("stroke-linejoin", "round"), ("stroke-linecap", "round")]
        if let dash { attributes.append(("stroke-dasharray", dash)) }
        if let className { attributes.append(("class", className)) }
        element("polyline", attributes)
    }

    /// The whole document.
    var xml: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" \
        viewBox="0 0 \(n(width)) \(n(height))" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">
        <rect x="0" y="0" width="\(n(width))" height="\(n(height))" fill="#ffffff"/>
        \(body)</svg>

        """
    }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            // Characters XML 1.0 cannot hold at all become a visible replacement.
            case _ where scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r": out += "\u{FFFD}"
            case _ where scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// A coordinate in the document: two decimals at most. Anything past ±1e6 is far off the
/// picture and is drawn there (a finite value never traps, a non-finite one is 0).
func n(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let rounded = (min(max(value, -1e6), 1e6) * 100).rounded() / 100
    if rounded == rounded.rounded() { return String(Int64(rounded)) }
    return String(format: "%.2f", rounded)
}
