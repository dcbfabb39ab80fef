import Foundation

/// A linear map from data to picture coordinates, with round tick values for its axis.
struct PlotScale {
    var domain: ClosedRange<Double>
    /// Picture coordinates of the domain's lower and upper bound (`from` > `to` flips the axis).
    var from: Double
    var to: Double

    /// A domain that is never empty or infinite (a single value gets a unit around it).
    init(domain lower: Double, _ upper: Double, range from: Double, _ to: Double) {
        var lo = lower.isFinite ? lower : 0, hi = upper.isFinite ? upper : 1
        if hi < lo { swap(&lo, &hi) }
        if hi - lo < 1e-12 { lo -= 0.5; hi += 0.5 }
        domain = lo...hi
        self.from = from
        self.to = to
    }

    func callAsFunction(_ value: Double) -> Double {
        let f = (value - domain.lowerBound) / (domain.upperBound - domain.lowerBound)
        return from + f * (to - from)
    }

    /// About `count` round values (1, 2 or 5 times a power of ten apart) inside the domain.
    func ticks(_ count: Int = 6) -> [Double] {
        let step = Self.niceStep((domain.upperBound - domain.lowerBound) / Double(max(count, 1)))
        // Multiples of the step, rounded to its decimals: 3 × 0.1 reads 0.3, not 0.30000000000000004.
        let decimals = pow(10, max(0, -floor(log10(step))))
        var ticks: [Double] = []
        var k = (domain.lowerBound / step).rounded(.up)
        while k * step <= domain.upperBound + step * 1e-9 && ticks.count < 50 {
            ticks.append((k * step * decimals).rounded() / decimals + 0)
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
