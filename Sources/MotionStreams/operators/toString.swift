extension MotionObservable {
    /// Emits each value's text: numbers without a fractional part print as integers
    /// ("20", not "20.0"), everything else as Swift's `description`.
    public func toString() -> MotionObservable<String> {
        _map { value in
            if let number = value as? Double { return formatNumber(number) }
            return "\(value)"
        }
    }
}

private func formatNumber(_ number: Double) -> String {
    if number.isFinite && number == number.rounded() && abs(number) < 1e15 {
        return String(Int64(number))
    }
    return "\(number)"
}
