import MotionGestures

/// What a recognizer answers to, as words (`ctl status`) and as the key two plugins conflict
/// on: the same kind, fingers and direction (a swipe), fingers (a hold), taps and fingers (a
/// tap). Continuous gestures (translation, rotation, scale) are not compared: several plugins
/// following the same fingers is their normal use.
enum RecognizerSignature {
    static func describe(_ recognizers: [GestureRecognizer]) -> [String] {
        recognizers.map(describe)
    }

    static func describe(_ recognizer: GestureRecognizer) -> String {
        ([recognizer.value.kind.rawValue] + recognizer.optionWords).joined(separator: " ")
    }

    /// The conflict key of a recognizer that acts on a discrete gesture (nil for the others,
    /// and for a recognizer switched off).
    static func conflictKey(_ recognizer: GestureRecognizer) -> String? {
        guard recognizer.isEnabled else { return nil }
        switch recognizer.value.kind {
        case .swipe, .hold, .tap: return describe(recognizer)
        default: return nil
        }
    }
}

/// Bindings two plugins share: reported when a plugin loads, naming both (a double binding
/// would otherwise act twice, silently). Bindings for applications that cannot both have the
/// focus (`apps =`: different names, or one's names all excluded by the other) do not conflict:
/// a gesture per application in a plugin per application is the point of `apps =`.
enum ConflictCheck {
    /// For each gesture `plugin` binds that another running plugin binds too: (gesture, other).
    static func conflicts(of plugin: Plugin, among plugins: [Plugin]) -> [(gesture: String, other: String)] {
        guard let runtime = plugin.runtime else { return [] }
        let mine = bindings(runtime.dispatcher.recognizers)
        var found: [(String, String)] = []
        for other in plugins where other !== plugin {
            guard let recognizers = other.runtime?.dispatcher.recognizers else { continue }
            let shared = Set(bindings(recognizers).flatMap { theirs in
                mine.filter { $0.key == theirs.key && AppFilter.mayShareFocus($0.apps, theirs.apps) }.map(\.key)
            })
            for key in shared.sorted() { found.append((key, other.name)) }
        }
        return found
    }

    private static func bindings(_ recognizers: [GestureRecognizer]) -> [(key: String, apps: AppFilter?)] {
        recognizers.compactMap { r in RecognizerSignature.conflictKey(r).map { ($0, r.apps) } }
    }
}
