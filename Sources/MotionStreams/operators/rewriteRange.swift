extension MotionObservable where T == Double {
    /// Emits each value mapped linearly from [start, end] to [destinationStart, destinationEnd],
    /// not clamped (values outside the range extrapolate). When start == end every value maps
    /// to `destinationStart`.
    public func rewriteRange(start: Double, end: Double,
                             destinationStart: Double, destinationEnd: Double) -> MotionObservable<Double> {
        _map { value in
            let range = end - start
            if range == 0 { return destinationStart }
            return destinationStart + (value - start) / range * (destinationEnd - destinationStart)
        }
    }
}
