extension MotionObservable {
    /// Emits every value of this stream and of `others`, as each arrives. The merged stream is
    /// active while any of its upstreams is active: it reports `active` when the first becomes
    /// active and `atRest` when the last comes to rest (each change once).
    public func merge(with others: MotionObservable<T>...) -> MotionObservable<T> {
        merge(with: others)
    }

    /// The same, with the others in an array.
    public func merge(with others: [MotionObservable<T>]) -> MotionObservable<T> {
        let upstreams = [self] + others
        return MotionObservable { observer in
            var active = Set<Int>()
            var reported: MotionState?
            let subscriptions = upstreams.enumerated().map { index, upstream in
                upstream.subscribe(next: observer.next, state: { state in
                    if state == .active { active.insert(index) } else { active.remove(index) }
                    let merged: MotionState = active.isEmpty ? .atRest : .active
                    if merged != reported {
                        reported = merged
                        observer.state(merged)
                    }
                })
            }
            return { subscriptions.forEach { $0.unsubscribe() } }
        }
    }
}
