/// Samples of one series in a picture about 1000 pixels wide: at most `capacity` are kept,
/// evenly spread over all that came, whatever their number. Every `stride`-th is kept; when
/// the kept ones fill up, every other one is dropped and the stride doubles, so memory and the
/// SVG stay bounded for any run length, at O(1) amortized per sample.
struct ThinnedSamples<Element> {
    private(set) var kept: [Element] = []
    /// How many were offered in all.
    private(set) var count = 0
    private var stride = 1
    let capacity: Int

    init(capacity: Int) {
        precondition(capacity >= 2)
        self.capacity = capacity
    }

    mutating func append(_ element: Element) {
        defer { count += 1 }
        guard count % stride == 0 else { return }
        if kept.count == capacity {
            kept = kept.enumerated().compactMap { $0.offset % 2 == 0 ? $0.element : nil }
            stride *= 2
            guard count % stride == 0 else { return }
        }
        kept.append(element)
    }

    /// The last one kept, to be updated in place (a stroke's newest point).
    var last: Element? {
        get { kept.last }
        set { if let newValue, !kept.isEmpty { kept[kept.count - 1] = newValue } }
    }
}

/// Time intervals (a pointer down, a recognizer active, a stream `active`), at most `capacity`:
/// past that, neighbours are joined (the gap between them filled), halving their number. At
/// the picture's scale so many intervals touch anyway.
struct ThinnedBands {
    private(set) var bands: [ClosedRange<Double>] = []
    /// Start of the interval open now.
    private(set) var openSince: Double?
    let capacity: Int

    init(capacity: Int) {
        precondition(capacity >= 2)
        self.capacity = capacity
    }

    /// A NaN time opens or closes nothing (a range cannot hold it).
    mutating func open(at t: Double) {
        if openSince == nil, !t.isNaN { openSince = t }
    }

    mutating func close(at t: Double) {
        guard let start = openSince, !t.isNaN else { return }
        openSince = nil
        if bands.count == capacity {
            bands = Swift.stride(from: 0, to: bands.count, by: 2).map { i in
                bands[i].lowerBound...bands[min(i + 1, bands.count - 1)].upperBound
            }
        }
        bands.append(start...max(start, t))
    }
}
