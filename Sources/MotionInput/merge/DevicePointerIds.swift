/// One device's pointer ids down → the ids given out for them (`DeviceFrameTagger`). A device
/// has a few pointers down at a time, so a short array searched in order costs less per event
/// than hashing into a dictionary, and once its capacity is reached nothing is allocated.
struct DevicePointerIds {
    private var pairs: [(raw: Int, given: Int)] = []

    var isEmpty: Bool { pairs.isEmpty }

    /// The id given out for the device's own id `id`, nil when it is not down.
    subscript(id: Int) -> Int? {
        get {
            for k in pairs.indices where pairs[k].raw == id { return pairs[k].given }
            return nil
        }
        set {
            if let k = pairs.firstIndex(where: { $0.raw == id }) {
                if let newValue { pairs[k].given = newValue } else { pairs.remove(at: k) }
            } else if let newValue {
                pairs.append((id, newValue))
            }
        }
    }

    /// True when `id` is one of the ids given out.
    func gives(_ id: Int) -> Bool { pairs.contains { $0.given == id } }
}
