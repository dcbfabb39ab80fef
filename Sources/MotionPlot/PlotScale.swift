import Foundation

/// A linear map from data to picture coordinates, with round tick values for its axis.
struct PlotScale {
    var domain: ClosedRange<Double>
    /// Picture coordinates of the domain's lower and upper bound (`from` > `to` flips the axis).
    var from: Double
    var to: Double

    /// A domain that is never empty or infinite (a single value gets a unit around it). Any
    /// finite bounds work, ±1e308 included: widths are taken as halves (`hi/2 - lo/2` is finite
    /// where `hi - lo` is not), so nothing here overflows to infinity or NaN.
    init(domain lower: Double, _ upper: Double, range from: Double, _ to: Double) {
        var lo = lower.isFinite ? lower : 0, hi = upper.isFinite ? upper : 1
        if hi < lo { swap(&lo, &hi) }
        if hi / 2 - lo / 2 < max(5e-13, Swift.max(abs(lo), abs(hi)) * 1e-12) {
            let pad = max(0.5, Swift.max(abs(lo), abs(hi)) * 1e-9)
            lo = max(lo - pad, -Double.greatestFiniteMagnitude)
            hi = min(hi + pad, Double.greatestFiniteMagnitude)
        }
        domain = lo...hi
        self.from = from
        self.to = to
    }

    /// Half the domain's width: finite for any finite domain.
    var halfWidth: Double { domain.upperBound / 2 - domain.lowerBound / 2 }

    func callAsFunction(_ value: Double) -> Double {
        let f = (value / 2 - domain.lowerBound / 2) / halfWidth
        return from + f * (to - from)
    }

    /// About `count` round values (1, 2 or 5 times a power of ten apart) inside the domain;
    /// just the bounds where no round step fits a double (a domain near ±1e308).
    func ticks(_ count: Int = 6) -> [Double] {
        let raw = halfWidth / Double(max(count, 1)) * 2
        let step = Self.niceStep(raw)
        var k = (domain.lowerBound / step).rounded(.up)
        // Past 2^52 steps from zero, k + 1 == k: there are no distinct multiples to show.
        guard raw.isFinite, raw > 0, step.isFinite, abs(k) < 1e15, abs(domain.upperBound / step) < 1e15 else {
            return [domain.lowerBound, domain.upperBound]
        }
        // Multiples of the step, rounded to its decimals: 3 × 0.1 reads 0.3, not 0.30000000000000004.
        let decimals = pow(10, max(0, -floor(log10(step))))
        var ticks: [Double] = []
        while ticks.count < 50 {
            let value = k * step
            // (upper + a little could round to infinity next to the largest double.)
            guard value.isFinite, value - domain.upperBound <= step * 1e-9 else { break }
            ticks.append(decimals.isFinite && decimals < 1e15 ? (value * decimals).rounded() / decimals + 0 : value)
            k += 1
        }
        return ticks
    }

    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let power = pow(10, floor(log10(raw)))
        let fraction = raw / power
        return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power
    }
}

/// Short text for a number on an axis or a label: at most 4 significant decimals, no noise.
func plotNumber(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "NaN" : (value > 0 ? "∞" : "-∞") }
    if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
    var text = String(format: "%.4g", value)
    if text.contains("e") { return text }
    if text.contains(".") {
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
    }
    return text
}
