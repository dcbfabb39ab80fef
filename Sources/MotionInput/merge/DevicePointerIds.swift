/// One device's pointer ids down → the ids given out for them (`DeviceFrameTagger`). A device
/// has a few pointers down at a time, so a short array searched in order costs less per event
/// than hashing into a dictionary, and once its capacity is reached nothing is allocated.
struct DevicePointerIds {
    private var pairs: [(raw: Int, given: Int)] = []
    /// Pairs whose given id is not the device's own.
    private var replaced = 0

    var isEmpty: Bool { pairs.isEmpty }
    /// True when every id given out is the device's own (then tagging a move changes no id).
    var givesOwnIds: Bool { replaced == 0 }

    /// The id given out for the device's own id `id`, nil when it is not down.
    subscript(id: Int) -> Int? {
        get {
            for k in pairs.indices where pairs[k].raw == id { return pairs[k].given }
            return nil
        }
        set {
            if let k = pairs.firstIndex(where: { $0.raw == id }) {
                if pairs[k].given != id { replaced -= 1 }
                if let newValue {
                    pairs[k].given = newValue
                    if newValue != id { replaced += 1 }
                } else {
                    pairs.remove(at: k)
                }
            } else if let newValue {
                pairs.append((id, newValue))
                if newValue != id { replaced += 1 }
            }
        }
    }

    /// True when `id` is one of the ids given out.
    func gives(_ id: Int) -> Bool { pairs.contains { $0.given == id } }
}
