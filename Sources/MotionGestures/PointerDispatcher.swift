import MotionStreams

/// Hands each input frame to every recognizer (in creation order) and to raw pointer
/// listeners, and keeps the input clock.
public final class PointerDispatcher {
    public private(set) var time: Double = 0
    public private(set) var recognizers: [GestureRecognizer] = []
    private var pointerListeners: [(id: Int, call: (PointerEvent) -> Void)] = []
    private var nextID = 0

    public init() {}

    public func add(_ recognizer: GestureRecognizer) {
        recognizers.append(recognizer)
    }

    public func dispatch(_ frame: Frame) {
        time = frame.t
        for recognizer in recognizers {
            recognizer.handle(frame)
        }
        if !pointerListeners.isEmpty {
            for event in frame.events {
                for listener in pointerListeners { listener.call(event) }
            }
        }
    }

    @discardableResult
    public func addPointerListener(_ call: @escaping (PointerEvent) -> Void) -> Int {
        let id = nextID
        nextID += 1
        pointerListeners.append((id, call))
        return id
    }

    public func removePointerListener(_ id: Int) {
        pointerListeners.removeAll { $0.id == id }
    }
}
