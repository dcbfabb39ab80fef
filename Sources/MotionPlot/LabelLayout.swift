/// Where the labels of a lane's markers go so that no two overlap: each label takes the first
/// of the lane's staggered rows whose previous label has ended before it starts; a label that
/// fits in no row is left out (its marker and hover text stay). Markers closer than a pixel to
/// the one before are merged into it (nil). Widths are estimated from the text at 10 px type,
/// generously, so a real font's label ends before the estimate does.
enum LabelLayout {
    struct Placed: Equatable {
        var x: Double
        /// The row the label went to, nil when it fit nowhere.
        var row: Int?
        var text: String?
        /// The label ends at the marker instead of starting there (near the right edge).
        var leftOfMarker = false
        /// The label's estimated right end.
        var end: Double
    }

    static let gap = 8.0

    /// Estimated width of `text` at 10 px: 6.5 px a character, 10 for wide ones (CJK, emoji).
    static func width(of text: String) -> Double {
        text.unicodeScalars.reduce(0) { $0 + ($1.value < 0x1100 ? 6.5 : 10) }
    }

    static func place(_ items: [(x: Double, text: String)], rows: Int, right: Double) -> [Placed?] {
        var rowEnds = Array(repeating: -Double.infinity, count: max(rows, 1))
        var lastMarker = -Double.infinity
        return items.map { item in
            guard item.x.isFinite, item.x - lastMarker >= 1 else { return nil }
            lastMarker = item.x
            let textWidth = width(of: item.text)
            // Right of the marker, or left of it where the right edge would cut the label.
            let leftOfMarker = item.x + 3 + textWidth > right
            let start = leftOfMarker ? item.x - 3 - textWidth : item.x + 3
            let end = start + textWidth
            guard start >= 0, let row = rowEnds.firstIndex(where: { $0 + gap <= start }) else {
                return Placed(x: item.x, row: nil, text: nil, end: item.x)
            }
            rowEnds[row] = end
            return Placed(x: item.x, row: row, text: item.text, leftOfMarker: leftOfMarker, end: end)
        }
    }
}
