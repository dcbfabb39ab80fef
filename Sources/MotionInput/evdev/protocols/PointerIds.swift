import MotionGestures

/// The pointers down now, whatever protocol put them down, and fresh ids for the protocols that
/// number their own pointers (A, single-touch, relative): a fresh id is never one that is down, so a
/// device that mixes protocols (a mouse with a touch surface) never puts one id down twice.
final class PointerIds {
    private(set) var down = Set<Int>()
    private var counter = 0

    /// The next id from the counter that is not down.
    func fresh() -> Int {
        while down.contains(counter) { counter += 1 }
        defer { counter += 1 }
        return counter
    }

    func note(_ phase: PointerPhase, _ id: Int) {
        switch phase {
        case .down: down.insert(id)
        case .up, .cancel: down.remove(id)
        case .move: break
        }
    }
}
