extension MotionObservable {
    /// Emits upstream values only while `openStream`'s latest value is true: the upstream is
    /// subscribed when it emits true and unsubscribed when it emits false.
    public func valve(_ openStream: MotionObservable<Bool>) -> MotionObservable<T> {
        MotionObservable { observer in
            var upstream: Subscription?
            let valve = openStream.subscribe(next: { open in
                if open && upstream == nil {
                    upstream = self.subscribe(observer)
                } else if !open, let subscription = upstream {
                    upstream = nil
                    subscription.unsubscribe()
                }
            })
            return {
                valve.unsubscribe()
                upstream?.unsubscribe()
                upstream = nil
            }
        }
    }
}
