/// How a recognizer is named to a person (`ctl status`, `ctl monitor --recognizers`): its kind and
/// creation order, and the options it was made with that tell it from its siblings.
extension GestureRecognizer {
    /// `kind#N`, N its creation order in its dispatcher (`swipe#2`); `kind` before it is added.
    public var name: String {
        serial > 0 ? "\(value.kind.rawValue)#\(serial)" : value.kind.rawValue
    }

    /// The options that tell it from another of its kind: `fingers=3`, `direction=left`,
    /// `taps=2`, `devices=touchpad`.
    public var optionWords: [String] {
        var words: [String] = []
        if let fingers { words.append("fingers=\(fingers)") }
        if let swipe = self as? SwipeGestureRecognizer, let direction = swipe.direction {
            words.append("direction=\(direction.rawValue)")
        }
        if let tap = self as? TapGestureRecognizer, tap.taps != 1 { words.append("taps=\(tap.taps)") }
        if let devices { words.append("devices=\(devices.joined(separator: ","))") }
        return words
    }
}
