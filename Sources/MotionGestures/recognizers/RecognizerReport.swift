/// A recognizer's state change as a monitor shows it: which recognizer (kind, id, options, the
/// script line that made it), what happened and why, in fields and as one readable line:
/// `12.345 swipes.lua:7 swipe#2(fingers=3) failed: too short 12 < 20 units`.
/// The daemon sends the fields (docs/control.md), `ctl monitor` prints the line, and
/// `run --explain` prints it directly; all three make it here.
public struct RecognizerReport: Equatable, Sendable {
    /// Input time of the change.
    public var t: Double
    /// The daemon's plugin the recognizer belongs to (nil outside the daemon).
    public var plugin: String?
    /// `kind#N`: its kind and creation order in its script (stable while the script's version runs).
    public var recognizer: String
    /// Its kind (`swipe`, `hold`, `tap`, `translation`, `rotation`, `scale`).
    public var kind: String
    /// Its options that differ from the defaults, as words (`fingers=3`, `direction=left`).
    public var options: [String]
    /// Where the script made it.
    public var site: SourceLocation?
    /// What happened (`RecognizerChange.Event`'s raw value).
    public var state: String
    /// The reason's code (`RecognizerReason.Code`'s raw value).
    public var reason: String?
    /// What the test measured.
    public var value: Double?
    /// The limit it was held to.
    public var limit: Double?
    /// Their unit.
    public var unit: String?
    /// The rival recognizer of a require-to-fail reason (`kind#N`).
    public var rival: String?
    /// The reason as a sentence (`too short 12 < 20 units`).
    public var text: String?

    /// Every field given.
    public init(t: Double, plugin: String?, recognizer: String, kind: String, options: [String], site: SourceLocation?,
                state: String, reason: String? = nil, value: Double? = nil, limit: Double? = nil, unit: String? = nil,
                rival: String? = nil, text: String? = nil) {
        self.t = t
        self.plugin = plugin
        self.recognizer = recognizer
        self.kind = kind
        self.options = options
        self.site = site
        self.state = state
        self.reason = reason
        self.value = value
        self.limit = limit
        self.unit = unit
        self.rival = rival
        self.text = text
    }

    /// The report of `change` of `recognizer` (what an observer makes when it hears one).
    public init(_ recognizer: GestureRecognizer, _ change: RecognizerChange, plugin: String? = nil) {
        let reason = change.reason
        self.init(t: change.t, plugin: plugin, recognizer: recognizer.name, kind: recognizer.value.kind.rawValue,
                  options: recognizer.optionWords, site: recognizer.creationSite, state: change.event.rawValue,
                  reason: reason?.code.rawValue, value: reason?.value, limit: reason?.limit, unit: reason?.unit?.rawValue,
                  rival: reason?.rival?.name, text: reason?.text)
    }

    /// One line: input time, site, recognizer with its options, what happened and why.
    public var line: String {
        var parts = [Self.time(t)]
        if let site { parts.append(site.shortText) }
        parts.append(options.isEmpty ? recognizer : "\(recognizer)(\(options.joined(separator: ", ")))")
        parts.append(text.map { "\(state): \($0)" } ?? state)
        return parts.joined(separator: " ")
    }

    /// Input time with three decimals (`12.345`).
    static func time(_ t: Double) -> String {
        guard t.isFinite else { return "\(t)" }
        let ms = Int64((t * 1000).rounded())
        let sign = ms < 0 ? "-" : ""
        let whole = abs(ms) / 1000, fraction = abs(ms) % 1000
        let digits = String(fraction)
        return "\(sign)\(whole).\(String(repeating: "0", count: 3 - digits.count))\(digits)"
    }
}
